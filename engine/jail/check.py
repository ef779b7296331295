"""`python -m engine jail-check`, and a bot's first decision in the jail (the arena's check of
a bot's parameters, made without running its code in the caller's process).

jail-check builds a jail as untrusted bots get it and runs a probe inside that tries what a
hostile bot would; it prints each fact it verified and exits 1 if any does not hold, 2 if no
jail can be built here.
"""

from __future__ import annotations

import os
import sys

from ..bot import DecisionTimeout
from ..botseed import bot_seed
from ..protocol import ProtocolError, shown_action
from ..seats import MatchContext, SeatPool
from .limits import DEFAULT
from .probe import availability
from .process import JailedProcess


def first_decision_error(spec, variant: str, state) -> str | None:
    """None when the bot, started in the jail, answers a legal action to the first decision of
    `state`; else why not (its own error text: this is for the operator who runs it)."""
    context = MatchContext(variant, state.options, state.players)
    seat = state.to_act
    observation = state.observation(seat)
    with SeatPool() as pool:
        actor = pool.actor("check", spec, context)
        actor.begin_game(game=0, seat=seat, seed=bot_seed(0, seat))
        try:
            action = actor.act(observation)
        except ProtocolError as exc:
            return (
                exc.fault_message.strip().splitlines()[-1:][0]
                if exc.fault_message.strip()
                else exc.detail
            )
        except DecisionTimeout as exc:
            return str(exc)
    if action not in observation.legal:
        return f"answered {shown_action(action)}, not a legal action"
    return None


# Runs inside the jail: tries what a hostile bot would, answers one JSON line of findings.
PROBE = r"""
import json, os, socket, sys
sys.stdin.readline()
found = {"uid": os.getuid(), "gid": os.getgid(), "pids": sorted(int(p) for p in os.listdir("/proc") if p.isdigit())}
def tries(name, call):
    try:
        call()
        found[name] = "allowed"
    except OSError as exc:
        found[name] = "refused: " + (exc.strerror or type(exc).__name__)
for port in (5432, 6379, 80):
    tries(f"connect 127.0.0.1:{port}", lambda: socket.create_connection(("127.0.0.1", port), timeout=1).close())
tries("read /etc/shadow", lambda: open("/etc/shadow").read())
tries("read /etc/passwd", lambda: open("/etc/passwd").read())
tries("write /usr", lambda: open("/usr/jail-check", "w").close())
tries("write " + os.path.dirname(os.__file__), lambda: open(os.path.join(os.path.dirname(os.__file__), "jail-check.pth"), "w").close())
tries("write /tmp", lambda: open("/tmp/jail-check", "w").close())
tries("signal pid 1", lambda: os.kill(1, 0))
import ctypes, platform
libc = ctypes.CDLL(None, use_errno=True)
NR = {"x86_64": {"bpf": 321, "io_uring_setup": 425, "keyctl": 250, "ptrace": 101},
      "aarch64": {"bpf": 280, "io_uring_setup": 425, "keyctl": 219, "ptrace": 117}}.get(platform.machine(), {})
def call(name, *args):
    if libc.syscall(NR[name], *args) == -1:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
def make_user_namespace():
    if libc.unshare(0x10000000) != 0:  # CLONE_NEWUSER
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
tries("make a user namespace", make_user_namespace)
params = ctypes.create_string_buffer(120)  # struct io_uring_params, zeroed
tries("set up io_uring", lambda: call("io_uring_setup", 1, params))
tries("load an eBPF program", lambda: call("bpf", 5, None, 0))  # BPF_PROG_LOAD
tries("use the kernel keyring", lambda: call("keyctl", 0, -3, 0))  # KEYCTL_GET_KEYRING_ID
tries("ptrace itself", lambda: call("ptrace", 0, 0, 0, 0))  # PTRACE_TRACEME
tries("open an AF_VSOCK socket", lambda: socket.socket(40, socket.SOCK_STREAM).close())
tries("open an AF_NETLINK socket", lambda: socket.socket(16, socket.SOCK_RAW, 0).close())
# What the two jails of a 2 vs 2 team could signal each other through: a lock on a file both see,
# a watch on a folder both see (docs/security.md, "Partners in 2 vs 2").
import fcntl
shared = os.open("/usr/bin/env", os.O_RDONLY)
tries("lock a file every jail sees", lambda: fcntl.flock(shared, fcntl.LOCK_SH | fcntl.LOCK_NB))
def watch():
    if libc.inotify_init1(0) < 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
tries("watch a folder every jail sees", watch)
import resource
found["limits"] = {name: resource.getrlimit(getattr(resource, name))[0] for name in ("RLIMIT_NPROC", "RLIMIT_NOFILE", "RLIMIT_CPU", "RLIMIT_FSIZE", "RLIMIT_DATA")}
found["root entries"] = sorted(os.listdir("/"))
found["init's command line"] = open("/proc/1/cmdline", "rb").read().decode("utf-8", "replace").split("\0")
print(json.dumps({"action": "ok", "found": found}), flush=True)
sys.stdin.readline()  # stays until the runner has looked at it from the host
"""


def _host_uids_under(pid: int) -> set[int]:
    """The host uids of the processes descended from `pid` (the jail's outer process)."""
    parents: dict[int, int] = {}
    owners: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace") as f:
                parents[int(entry)] = int(f.read().rsplit(")", 1)[1].split()[1])
            owners[int(entry)] = os.stat(f"/proc/{entry}").st_uid
        except (OSError, ValueError, IndexError):
            continue
    found = set()
    for child, owner in owners.items():
        ancestor, hops = parents.get(child), 0
        while ancestor and ancestor != pid and hops < 20:
            ancestor, hops = parents.get(ancestor), hops + 1
        if ancestor == pid:
            found.add(owner)
    return found


def run_jail_check(args) -> int:
    jail = availability()
    print(f"bubblewrap: {jail.bwrap or 'not found'}")
    if not jail.ok:
        print(f"error: {jail.reason}", file=sys.stderr)
        try:
            jail.require()
        except Exception as exc:
            print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"jail: {jail.reason}")
    python = os.path.realpath(sys.executable)
    runtime = os.path.realpath(sys.base_prefix)
    binds = () if runtime.startswith("/usr/") else (runtime,)
    process = JailedProcess([python, "-I", "-S", "-c", PROBE], binds=binds)
    try:
        found = process.request({"type": "check"}, 20.0)["found"]
        host_uids = _host_uids_under(process.pid)  # while it runs
    finally:
        process.close()
    runner = os.geteuid()
    checks = [
        (
            f"runs as uid {found['uid']} inside, host uid {process.uid}: "
            f"not root, not the runner's ({runner})",
            found["uid"] == process.uid_inside and process.uid not in (None, 0, runner),
        ),
        (
            "seen from the host, the jail's processes are its own uid's "
            f"(and the jail's init, the runner's): {sorted(host_uids)}",
            process.uid in host_uids and host_uids <= {runner, process.uid},
        ),
        (f"sees only its own processes: {found['pids']}", max(found["pids"]) < 10),
    ]
    for key, value in found.items():
        if key.startswith(("connect", "read", "write", "signal", "make", "set", "load", "use")) or (
            key.startswith(("ptrace", "open an", "lock", "watch"))
        ):
            expected = "allowed" if key == "write /tmp" else "refused"
            checks.append((f"{key}: {value}", value.startswith(expected)))
    allowed = {"bin", "sbin", "lib", "lib32", "lib64", "libx32", "usr", "etc", "proc", "dev", "tmp"}
    allowed |= {part for part in runtime.split("/")[1:2]}
    entries = set(found["root entries"])
    checks.append((f"its root holds only {', '.join(sorted(entries))}", entries <= allowed))
    limits = found["limits"]
    checks.append(
        (
            f"limits: {limits['RLIMIT_NPROC']} processes, {limits['RLIMIT_NOFILE']} open files, "
            f"{limits['RLIMIT_CPU']} CPU seconds, files up to {limits['RLIMIT_FSIZE'] >> 20} MiB",
            limits["RLIMIT_NPROC"] == DEFAULT.processes
            and limits["RLIMIT_NOFILE"] == DEFAULT.open_files,
        )
    )
    by_cgroup = process.memory_cgroup
    checks.append(
        (
            f"memory bounded to {DEFAULT.memory_mb} MiB by "
            + ("a memory cgroup" if by_cgroup else "RLIMIT_DATA and the runner's watch"),
            by_cgroup or limits["RLIMIT_DATA"] == DEFAULT.memory_mb << 20,
        )
    )
    init = found["init's command line"]
    checks.append(
        (
            "its init's command line names no host folder: " + " ".join(init[:3]),
            "--ro-bind" not in init and "--args" in init,
        )
    )
    if process.cpu_quota:
        checks.append(
            (f"CPU bounded to {DEFAULT.cpus:g} core(s) for the whole jail by a cgroup", True)
        )
    else:
        print(
            "  note no cgroup CPU quota here (an ordinary runner, or no cpu controller): the"
            f" jail runs at nice {DEFAULT.niceness}, and the runner's watch kills one that takes"
            " more than its core"
        )
    failed = 0
    for text, ok in checks:
        print(f"  {'ok  ' if ok else 'FAIL'} {text}")
        failed += not ok
    print(
        "the jail holds"
        if not failed
        else f"{failed} check(s) failed: untrusted bots are NOT contained"
    )
    return 1 if failed else 0
