"""The jail of a runner that is not root (the docker-compose image runs its workers as `truco`):
the bot gets one of the runner's subordinate uids, never the runner's own, and no two jails
share one; without subordinate ids the runner refuses untrusted bots rather than run them
weakened. Each test starts a real runner under ORDINARY_UID (set up by .ci/ordinary-runner) and
looks at what it started from the host, as root."""

from __future__ import annotations

import json
import os
import subprocess
import textwrap

from engine.jail import uids

from .conftest import (
    SYSTEM_PYTHON,
    as_ordinary_user,
    jail_or_skip,
    ordinary_user_env,
    skip_unless_another_user_can_run_the_project,
)

# Started by the ordinary runner: two jails whose bots say their uid and wait; the runner prints
# what it knows of them, then waits for a line before it closes them.
RUNNER = textwrap.dedent(
    """
    import json, sys
    from engine.jail.process import JailedProcess
    BOT = ("import json, os, sys; sys.stdin.readline(); "
           "print(json.dumps({'action': os.getuid()}), flush=True); sys.stdin.readline()")
    jails = [JailedProcess([sys.executable, "-I", "-S", "-c", BOT, "ordinary-runner-bot"])
             for _ in range(2)]
    seen = [{"pid": j.pid, "uid": j.uid, "inside": j.request({"type": "act"}, 20.0)["action"]}
            for j in jails]
    print(json.dumps(seen), flush=True)
    sys.stdin.readline()
    for j in jails:
        j.close()
    """
)


def run_as_ordinary_user(plugin_dir, *python_args: str) -> subprocess.CompletedProcess:
    """The system's Python with these arguments, run by the ordinary runner; its output."""
    return subprocess.run(
        as_ordinary_user([SYSTEM_PYTHON, *python_args]),
        env=ordinary_user_env(plugin_dir),
        cwd="/tmp",
        capture_output=True,
        text=True,
        timeout=60,
    )


def _owner_and_parent(pid: int) -> tuple[int, int] | None:
    try:
        with open(f"/proc/{pid}/stat") as f:
            parent = int(f.read().rsplit(")", 1)[1].split()[1])
        return os.stat(f"/proc/{pid}").st_uid, parent
    except (OSError, ValueError):
        return None


def _descendants(ancestor: int) -> dict[int, int]:
    """pid -> host uid of every process descended from `ancestor`."""
    table = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (found := _owner_and_parent(int(entry))):
            table[int(entry)] = found
    out = {}
    for pid, (owner, parent) in table.items():
        hops = 0
        while parent not in (0, 1, ancestor) and parent in table and hops < 20:
            parent, hops = table[parent][1], hops + 1
        if parent == ancestor:
            out[pid] = owner
    return out


def _bot_pids() -> dict[int, int]:
    """pid -> host uid of the processes running RUNNER's bots (python ... BOT, with the marker
    as its last argument; the wrappers of the jail have the whole command after theirs)."""
    found = {}
    for entry in (p for p in os.listdir("/proc") if p.isdigit()):
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")[:-1]
            if not argv or b"python" not in argv[0] or argv[-1] != b"ordinary-runner-bot":
                continue
            found[int(entry)] = os.stat(f"/proc/{entry}").st_uid
        except OSError:
            continue
    return found


def test_the_bots_of_an_ordinary_runner_run_as_subordinate_uids_never_its_own(
    ordinary_user, plugin_dir
):
    jail_or_skip()
    pool = uids.subordinate_pool(ordinary_user)
    runner = subprocess.Popen(
        as_ordinary_user([SYSTEM_PYTHON, "-c", RUNNER]),
        env=ordinary_user_env(plugin_dir),
        cwd="/tmp",
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = runner.stdout.readline()
        assert line, runner.stderr.read()
        seen = json.loads(line)
        bots = _bot_pids()
        host_uids = [jail["uid"] for jail in seen]
        # Each bot is the host uid its jail leased: one of the runner's subordinate uids.
        for jail in seen:
            assert jail["uid"] not in (0, ordinary_user)
            assert pool.first_uid <= jail["uid"] < pool.first_uid + pool.count
            assert jail["inside"] == 1000  # what it sees of itself in its user namespace
            owners = set(_descendants(jail["pid"]).values())
            assert owners == {ordinary_user, jail["uid"]}  # the jail's init, and the bot
        assert len(set(host_uids)) == 2, "two jails share a uid"
        # The bots' own processes (python -c BOT) are of the jail's uid, not the runner's.
        assert sorted(bots.values()) == sorted(host_uids)
    finally:
        runner.stdin.write("done\n")
        runner.stdin.flush()
        runner.wait(timeout=30)
    assert runner.returncode == 0, runner.stderr.read()
    assert not _bot_pids(), "a bot outlived its jail"


def test_jail_check_as_an_ordinary_runner_verifies_its_uid_from_the_host(ordinary_user, plugin_dir):
    jail_or_skip()
    done = run_as_ordinary_user(plugin_dir, "-m", "engine", "jail-check")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "in a user namespace, as a subordinate uid of its own" in done.stdout
    assert f"not root, not the runner's ({ordinary_user})" in done.stdout
    # No further user namespace: the bot cannot make one to be root over its own mounts.
    assert "ok   make a user namespace: refused" in done.stdout
    assert "FAIL" not in done.stdout


def test_an_ordinary_runner_without_subordinate_ids_refuses_untrusted_bots(plugin_dir):
    """Rather than run the bot as the runner's own uid (weakened), the jail is refused, with the
    reason and what to do."""
    skip_unless_another_user_can_run_the_project()
    jail_or_skip()
    no_account = 60002
    argv = [
        "setpriv",
        f"--reuid={no_account}",
        f"--regid={no_account}",
        "--clear-groups",
        SYSTEM_PYTHON,
        "-m",
        "engine",
    ]
    env = ordinary_user_env(plugin_dir)
    check = subprocess.run(
        [*argv, "jail-check"], env=env, cwd="/tmp", capture_output=True, text=True, timeout=60
    )
    assert check.returncode == 2
    assert "has no account" in check.stderr and "--add-subuids" in check.stderr
    match = subprocess.run(
        [*argv, "match", "--variant", "paulista", "--bots", "random", "random"]
        + ["--isolation", "jail", "--games", "1"],
        env=env,
        cwd="/tmp",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert match.returncode != 0
    assert "untrusted bots are refused" in match.stderr
    assert "Traceback" not in match.stderr


ORPHAN = textwrap.dedent(
    """
    import subprocess, sys, time
    from engine.jail import uids
    from engine.jail.command import userns_command
    pool = uids.subordinate_pool()
    free = uids.lease_uid(pool)
    free.release()
    # What a runner killed before bwrap armed --die-with-parent would leave: a process under
    # a jail uid whose lock is free.
    argv = userns_command(free.uid, free.gid, [
        "/usr/bin/setpriv", "--reuid=1000", "--regid=1000", "--clear-groups",
        "sleep", "600"])
    orphan = subprocess.Popen(argv)
    time.sleep(0.5)
    lease = uids.lease_uid(pool)
    lease.release()
    orphan.wait(timeout=10)
    print(free.uid, orphan.returncode)
    """
)


def test_an_ordinary_runner_kills_an_orphan_of_its_jails_when_the_next_starts(
    ordinary_user, plugin_dir
):
    jail_or_skip()
    done = run_as_ordinary_user(plugin_dir, "-c", ORPHAN)
    assert done.returncode == 0, done.stderr
    uid, code = done.stdout.split()
    assert int(uid) != ordinary_user
    # The sh of userns_command exec'd setpriv then sleep: the orphan itself was SIGKILLed.
    assert int(code) == -9


CONTAINER = textwrap.dedent(
    """
    import subprocess, time
    from engine.jail import uids
    pool = uids.subordinate_pool()
    # A rootless container's process: its namespace maps the whole range (as podman's does),
    # and it runs as the first subordinate uid.
    argv = ["/usr/bin/unshare", "--user", "--map-user=0", "--map-group=0",
            f"--map-users={pool.first_uid},1,{pool.count}",
            f"--map-groups={pool.first_gid},1,{pool.count}", "--",
            "/usr/bin/setpriv", "--reuid=1", "--regid=1", "--clear-groups", "sleep", "600"]
    container = subprocess.Popen(argv)
    time.sleep(0.5)
    lease = uids.lease_uid(pool)
    lease.release()
    time.sleep(0.2)
    alive = container.poll() is None
    container.kill()
    container.wait()
    print(pool.first_uid, lease.uid, alive)
    """
)


def test_an_ordinary_runner_leaves_its_other_user_namespaces_alone(ordinary_user, plugin_dir):
    """Subordinate uids are shared with the runner's rootless containers: a process of theirs
    under a subordinate uid is neither killed as an orphan nor given a jail's uid."""
    jail_or_skip()
    done = run_as_ordinary_user(plugin_dir, "-c", CONTAINER)
    assert done.returncode == 0, done.stderr
    first, leased, alive = done.stdout.split()
    assert alive == "True", "a process of another namespace was killed as a jail's orphan"
    assert int(leased) != int(first), "a jail was given a uid another namespace runs as"
