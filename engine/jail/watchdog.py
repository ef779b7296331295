"""The runner's own watch over jails that have no cgroup (an ordinary runner, as in the compose
image, may not make one): RLIMIT_DATA bounds each process, not the jail, and leaves shared
memory alone; RLIMIT_CPU bounds each process's seconds, not how many cores the jail takes at once.
A bot got 3 GiB resident through shared mappings or six processes of 450 MiB, and 62 spinning
processes made its opponent's jail time out every decision.

One thread per runner process looks at every watched jail a few times a second, from /proc: the
processes of the jail's own host uid (leased to it alone, engine/jail/uids.py), their resident
memory (proportional set size once the plain sum is over the limit, so that pages shared after a
fork count once), their CPU time and how many of their threads want the CPU. A jail over its
memory, or that for CPU_WINDOW seconds after its start-up takes more than its cores plus a half,
or keeps more than its cores plus one and a half threads wanting the CPU (on a busy host that
cannot give it the cores, each one still takes a share from everyone else), is killed: every process of its uid, with the
reason kept for the bot's termination. Kernel memory the jail holds (socket buffers, empty files
of its tmpfs) is not seen from /proc: the container's own limits bound it (docker-compose.yml).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import deque
from dataclasses import dataclass, field

from .uids import kill_pids, processes_by_uid

INTERVAL = 0.2  # seconds between two looks
CPU_WINDOW = 3.0  # seconds over which the jail's CPU use is averaged
CPU_SLACK = 0.5  # cores beyond the jail's own before it is killed
RUNNABLE_SLACK = 1.5  # threads wanting the CPU at once, on average, beyond its cores
PAGE = os.sysconf("SC_PAGE_SIZE")
log = logging.getLogger(__name__)
TICKS = os.sysconf("SC_CLK_TCK")


@dataclass
class Watch:
    uid: int
    memory_bytes: int | None  # None: a memory cgroup bounds it already
    cores: float
    grace_until: float  # no CPU verdict before (a runtime's start-up uses several cores)
    samples: deque = field(default_factory=deque)  # (time, CPU seconds, threads runnable)
    verdict: str | None = None  # why it was killed


_lock = threading.Lock()
_watches: dict[int, Watch] = {}
_thread: threading.Thread | None = None


def watch(uid: int, memory_mb: int | None, cores: float, grace_seconds: float) -> Watch:
    """Start watching the jail of host uid `uid` (its memory too unless `memory_mb` is None);
    `unwatch` it when it is closed."""
    global _thread
    memory = None if memory_mb is None else memory_mb << 20
    entry = Watch(uid, memory, cores, time.monotonic() + grace_seconds)
    with _lock:
        _watches[uid] = entry
        if _thread is None or not _thread.is_alive():
            _thread = threading.Thread(target=_loop, name="truco-jail-watchdog", daemon=True)
            _thread.start()
    return entry


def unwatch(entry: Watch) -> None:
    with _lock:
        if _watches.get(entry.uid) is entry:
            del _watches[entry.uid]


def _loop() -> None:
    last_report = 0.0
    while True:
        time.sleep(INTERVAL)
        with _lock:
            watched = dict(_watches)
        if not watched:
            continue
        try:
            by_uid = processes_by_uid(set(watched))
        except OSError:
            continue  # /proc could not be listed this time: the next look
        for uid, entry in watched.items():
            try:
                look(entry, by_uid.get(uid, []))
            except Exception:  # the watch goes on for the other jails, and says so, loudly
                if time.monotonic() - last_report > 60:
                    last_report = time.monotonic()
                    log.exception("the jail watch failed to look at uid %s", uid)


def look(entry: Watch, pids: list[int]) -> None:
    if entry.verdict is not None or not pids:
        return
    limit = entry.memory_bytes
    plain = resident_bytes(pids) if limit is not None else 0
    if limit is not None and plain > limit and proportional_bytes(pids, plain) > limit:
        kill(entry, pids, f"over its memory limit of {limit >> 20} MiB")
        return
    now = time.monotonic()
    seconds, runnable = cpu_and_runnable(pids)
    entry.samples.append((now, seconds, runnable))
    start = None
    while now - entry.samples[0][0] > CPU_WINDOW:
        start = entry.samples.popleft()
    if start is not None and now >= entry.grace_until:
        # Either measure: the cores it took, or, on a host too busy to give it those, how many
        # of its threads wanted the CPU at once (each one a share taken from everyone else).
        cores = (entry.samples[-1][1] - start[1]) / (now - start[0])
        wanting = sum(sample[2] for sample in entry.samples) / len(entry.samples)
        if cores > entry.cores + CPU_SLACK or wanting > entry.cores + RUNNABLE_SLACK:
            kill(entry, pids, f"over {entry.cores:g} core(s) of CPU for {CPU_WINDOW:g}s")


def resident_bytes(pids: list[int]) -> int:
    """The plain sum of their resident memory: cheap, and never less than the true use (pages
    shared between them counted each time)."""
    return sum(int(memory_file(pid, "statm").split()[1]) * PAGE for pid in pids)


def memory_file(pid: int, name: str) -> str:
    """/proc/PID/<name> (statm, smaps_rollup) of the process's memory. A main thread that
    exited alone leaves a zombie leader whose own files show no memory while its other threads
    hold it all: then the first thread that still has the memory tells it."""
    text = _read(f"/proc/{pid}/{name}")
    if _holds_memory(text, name):
        return text
    for tid in _threads(pid):
        other = _read(f"/proc/{pid}/task/{tid}/{name}")
        if _holds_memory(other, name):
            return other
    return text or ("0 0" if name == "statm" else "")  # no memory (or gone): zero


def _read(path: str) -> str:
    try:
        with open(path, encoding="ascii") as f:
            return f.read()
    except (OSError, ValueError):
        return ""


def _holds_memory(text: str, name: str) -> bool:
    if name == "statm":
        fields = text.split()
        return len(fields) > 1 and fields[1] != "0"
    return "Pss:" in text and not any(
        line.startswith("Pss:") and line.split()[1] == "0" for line in text.splitlines()
    )


def proportional_bytes(pids: list[int], plain: int) -> int:
    """Their proportional set sizes: each shared page split between its processes."""
    total = 0
    for pid in pids:
        text = memory_file(pid, "smaps_rollup")
        if not text:
            if resident_bytes([pid]) == 0:
                continue  # gone meanwhile, or a zombie: it holds nothing
            return plain  # cannot read it: the plain sum, which is never less
        for line in text.splitlines():
            if line.startswith("Pss:"):
                total += int(line.split()[1]) << 10
                break
    return total


def cpu_and_runnable(pids: list[int]) -> tuple[float, int]:
    """CPU seconds of the processes (and of the children they reaped), and how many of their
    threads are running or waiting to run."""
    ticks = 0
    runnable = 0
    for pid in pids:
        fields = _stat_fields(f"/proc/{pid}/stat")
        if len(fields) < 18:
            continue  # gone meanwhile
        ticks += sum(int(v) for v in fields[11:15])  # utime stime cutime cstime
        if fields[17] == "1":  # one thread: the process's own state
            runnable += fields[0] == "R"
        else:
            for tid in _threads(pid):
                runnable += _stat_fields(f"/proc/{pid}/task/{tid}/stat")[:1] == ["R"]
    return ticks / TICKS, runnable


def _stat_fields(path: str) -> list[str]:
    """The fields of a /proc stat file after the command's name (which may hold spaces)."""
    return _read(path).rsplit(")", 1)[-1].split()


def _threads(pid: int) -> list[str]:
    try:
        return os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []


def kill(entry: Watch, pids: list[int], why: str) -> None:
    entry.verdict = f"bot process was killed {why}"
    for _ in range(3):  # what it forks meanwhile has its uid too
        kill_pids(pids)
        pids = processes_by_uid({entry.uid}).get(entry.uid, [])
        if not pids:
            return
