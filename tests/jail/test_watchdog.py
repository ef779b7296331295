"""A jail with no cgroup (an ordinary runner's, as in the compose image) is watched by the runner
(engine/jail/watchdog.py): the bots of the second red-team round that got past RLIMIT_DATA with
shared memory or with many processes, and the one whose spinners made its opponent time out,
are killed with the reason; a bot of many small processes that share their pages is not."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time

import pytest

import engine.jail.process
from engine.jail.limits import Limits
from engine.jail.process import JailedProcess
from engine.protocol import BotExited

from .conftest import jail_or_skip


@pytest.fixture
def no_cgroup(monkeypatch):
    jail_or_skip()
    monkeypatch.setattr(engine.jail.process, "make_cgroup", lambda *args, **kwargs: None)


def run_until_gone(script: str, limits: Limits, seconds: float = 15.0) -> tuple[str, float]:
    """(why the bot's process ended, seconds it took): it answers its first request, then
    does what it does until it is killed."""
    process = JailedProcess(["/usr/bin/python3", "-c", textwrap.dedent(script)], limits=limits)
    started = time.monotonic()
    try:
        assert not process.memory_cgroup
        assert process.request({"type": "act", "id": 1}, 30.0)["action"] == "started"
        while time.monotonic() - started < seconds:
            try:
                process.request({"type": "act", "id": 2}, 1.0)
            except BotExited as exc:
                return exc.detail, time.monotonic() - started
            except Exception:
                continue  # no answer in time: it is busy with its attack; ask again
        return "still running", time.monotonic() - started
    finally:
        process.close()


SHARED = """
import json, mmap, sys
sys.stdin.readline()
print(json.dumps({"action": "started"}), flush=True)
hoard = mmap.mmap(-1, 300 << 20, flags=mmap.MAP_SHARED)  # shared: RLIMIT_DATA leaves it alone
for offset in range(0, len(hoard), 4096):
    hoard[offset] = 1
for line in sys.stdin:
    print(json.dumps({"action": "holding"}), flush=True)
"""

MANY = """
import json, os, sys, time
sys.stdin.readline()
print(json.dumps({"action": "started"}), flush=True)
for _ in range(5):
    if os.fork() == 0:
        sys.stdin.close()
        hoard = bytearray(60 << 20)  # under RLIMIT_DATA each; 300 MiB together
        for offset in range(0, len(hoard), 4096):
            hoard[offset] = 1
        time.sleep(60)
        os._exit(0)
for line in sys.stdin:
    print(json.dumps({"action": "holding"}), flush=True)
"""

ZOMBIE_LEADER = """
import ctypes, json, mmap, os, platform, sys, threading, time
libc = ctypes.CDLL(None, use_errno=True)
def hold():
    sys.stdin.readline()
    print(json.dumps({"action": "started"}), flush=True)
    hoard = mmap.mmap(-1, 300 << 20, flags=mmap.MAP_SHARED)
    for offset in range(0, len(hoard), 4096):
        hoard[offset] = 1
    for line in sys.stdin:
        print(json.dumps({"action": "holding"}), flush=True)
threading.Thread(target=hold).start()
time.sleep(0.1)
libc.syscall({"x86_64": 60, "aarch64": 93}[platform.machine()], 0)  # exit: this thread only
"""

SPINNERS = """
import json, os, sys
sys.stdin.readline()
print(json.dumps({"action": "started"}), flush=True)
for _ in range(6):
    if os.fork() == 0:
        sys.stdin.close()
        while True:
            pass
for line in sys.stdin:
    print(json.dumps({"action": "spinning"}), flush=True)
"""

SHARING = """
import json, os, sys, time
sys.stdin.readline()
print(json.dumps({"action": "started"}), flush=True)
for _ in range(20):  # twenty idle copies of one interpreter: their pages are mostly shared
    if os.fork() == 0:
        sys.stdin.close()
        time.sleep(60)
        os._exit(0)
for line in sys.stdin:
    print(json.dumps({"action": "idle"}), flush=True)
"""


def test_shared_memory_past_the_limit_is_killed(no_cgroup):
    why, _ = run_until_gone(SHARED, Limits(memory_mb=128))
    assert why == "bot process was killed over its memory limit of 128 MiB"


def test_memory_held_by_the_other_thread_of_a_zombie_leader_is_seen(no_cgroup):
    """The main thread exits alone: the leader's own /proc files show no memory, its other
    thread held 1200 MiB against a limit of 128 unseen."""
    why, _ = run_until_gone(ZOMBIE_LEADER, Limits(memory_mb=128))
    assert why == "bot process was killed over its memory limit of 128 MiB"


def test_many_processes_past_the_limit_together_are_killed(no_cgroup):
    why, _ = run_until_gone(MANY, Limits(memory_mb=128))
    assert why == "bot process was killed over its memory limit of 128 MiB"


@pytest.mark.parametrize("host", ["idle", "busy"])
def test_spinning_processes_past_one_core_are_killed_after_the_start_up(no_cgroup, host):
    """On an idle host the spinners take the cores; on a busy one (every core already taken by
    the host's own work) they get little of it, but each still takes a share: either way the
    jail is killed."""
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one core: the jail cannot take more than it")
    busy = []
    if host == "busy":
        spin = [sys.executable, "-c", "while True: pass"]
        busy = [subprocess.Popen(spin) for _ in range(os.cpu_count() or 2)]
    try:
        why, seconds = run_until_gone(SPINNERS, Limits(startup_seconds=0.5))
    finally:
        for process in busy:
            process.kill()
            process.wait()
    assert why == "bot process was killed over 1 core(s) of CPU for 3s"
    assert seconds < 12


def test_processes_that_share_their_pages_are_counted_once(no_cgroup):
    """Twenty forks of one interpreter: their plain resident sizes add up past 128 MiB, their
    proportional ones do not."""
    why, _ = run_until_gone(SHARING, Limits(memory_mb=128), seconds=3.0)
    assert why == "still running"
