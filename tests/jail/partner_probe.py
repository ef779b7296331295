"""Two jails that share a read-only folder, as the two seats of a 2 vs 2 team do: one shows a
signal through every kernel object it can reach, the other looks for each. `pair_probe` answers,
per channel, "seen" or "not seen (why)"; tests/jail/test_partner_channels.py asserts that none is
seen, and that the lock and notification channels are seen once the seccomp rules against them
are taken away (so the probe can see a channel when there is one).

Run as a script (the ordinary runner's test runs it under another uid):

    python -m tests.jail.partner_probe FOLDER [--open]   # the JSON of pair_probe(FOLDER)
"""

from __future__ import annotations

import json
import os
import sys
import textwrap

from engine.jail import seccomp
from engine.jail.process import JailedProcess

PYTHON = os.path.realpath(sys.executable)
RUNTIME = () if sys.base_prefix.startswith("/usr/") else (os.path.realpath(sys.base_prefix),)
CHANNELS = (
    "flock",
    "posix lock",
    "ofd lock",
    "inotify",
    "dnotify",
    "page cache (RWF_NOWAIT)",
    "file access time",
    "abstract unix socket",
    "named unix socket",
    "SysV semaphore",
    "POSIX message queue",
    "/tmp",
    "/dev/shm",
    "the other jail's processes",
)
# The channels the seccomp filter closes (the others are closed by the jail's namespaces and
# read-only mounts: they were closed before the partner attack was found).
FILTERED = ("flock", "posix lock", "ofd lock", "inotify", "dnotify", "page cache (RWF_NOWAIT)")

COMMON = r"""
import ctypes, errno, fcntl, json, os, signal, socket, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
librt = ctypes.CDLL("librt.so.1", use_errno=True)
KEY = 0x7472636F  # the SysV key both use
F_OFD_GETLK, F_OFD_SETLK = 36, 37
def why(exc):
    return errno.errorcode.get(exc.errno, str(exc.errno)) if isinstance(exc, OSError) else repr(exc)
def flock_struct(kind):
    return struct.pack("hhqqi4x", kind, os.SEEK_SET, 0, 1, 0)
def uncached_page():
    # A page of a large system file that is not in the page cache, asked without reading it.
    for top in ("/usr/lib", "/usr/share", "/usr/bin"):
        for folder, _, names in os.walk(top):
            for name in names:
                path = os.path.join(folder, name)
                try:
                    if os.path.islink(path) or os.path.getsize(path) < (8 << 20):
                        continue
                    fd = os.open(path, os.O_RDONLY)
                except OSError:
                    continue
                try:
                    for page in range(100, os.path.getsize(path) >> 12, 97):
                        try:
                            os.preadv(fd, [bytearray(1)], page << 12, os.RWF_NOWAIT)
                        except BlockingIOError:
                            return path, page
                except OSError as exc:
                    return why(exc)
                finally:
                    os.close(fd)
    return "no uncached page found"
def reply(value):
    print(json.dumps({"action": value}), flush=True)
"""

# Shows a signal through each channel and holds it until its input closes.
SHOWS = (
    COMMON
    + r"""
sys.stdin.readline()
kept, found = [], {}
def tries(name, call):
    try:
        result = call()
        found[name] = list(result) if isinstance(result, tuple) else "shown"
    except Exception as exc:
        found[name] = "refused: " + why(exc)
def hold(path):
    fd = os.open(path, os.O_RDONLY)
    kept.append(fd)
    return fd
tries("flock", lambda: fcntl.flock(hold("/bot/flock"), fcntl.LOCK_SH | fcntl.LOCK_NB))
tries("posix lock", lambda: fcntl.fcntl(hold("/bot/posix"), fcntl.F_SETLK, flock_struct(fcntl.F_RDLCK)))
tries("ofd lock", lambda: fcntl.fcntl(hold("/bot/ofd"), F_OFD_SETLK, flock_struct(fcntl.F_RDLCK)))
tries("inotify", lambda: os.close(os.open("/bot/notify", os.O_RDONLY)))
tries("dnotify", lambda: os.read(hold("/bot/notify"), 1))
tries("file access time", lambda: open("/bot/atime", "rb").read())
def page_cache():
    page = uncached_page()
    if isinstance(page, str):
        raise RuntimeError(page)
    fd = hold(page[0])
    os.pread(fd, 1, page[1] << 12)
    return page
tries("page cache (RWF_NOWAIT)", page_cache)
def abstract():
    server = socket.socket(socket.AF_UNIX)
    server.bind(b"\0truco-partner")
    server.listen()
    kept.append(server)
tries("abstract unix socket", abstract)
def named():
    server = socket.socket(socket.AF_UNIX)
    server.bind("/tmp/truco-partner.sock")
    server.listen()
    kept.append(server)
tries("named unix socket", named)
def semaphore():
    if libc.semget(KEY, 1, 0o1666) < 0:
        raise OSError(ctypes.get_errno(), "semget")
tries("SysV semaphore", semaphore)
def queue():
    if librt.mq_open(b"/truco-partner", os.O_CREAT | os.O_RDWR, 0o666, None) < 0:
        raise OSError(ctypes.get_errno(), "mq_open")
tries("POSIX message queue", queue)
tries("/tmp", lambda: open("/tmp/truco-partner", "w").write("1") and None)
tries("/dev/shm", lambda: open("/dev/shm/truco-partner", "w").write("1") and None)
found["pid"] = os.getpid()
reply(found)
sys.stdin.readline()
"""
)

# Sets its watches first; then, told what the other showed, looks for each.
LOOKS = (
    COMMON
    + r"""
sys.stdin.readline()
IN_OPEN, IN_ACCESS = 0x20, 0x01
watch = libc.inotify_init1(os.O_NONBLOCK)
watch_error = errno.errorcode.get(ctypes.get_errno(), "?")
if watch >= 0:
    libc.inotify_add_watch(watch, b"/bot", IN_OPEN | IN_ACCESS)
signals = []
signal.signal(signal.SIGIO, lambda *_: signals.append(1))
folder = os.open("/bot", os.O_RDONLY)
try:
    fcntl.fcntl(folder, fcntl.F_NOTIFY, fcntl.DN_ACCESS | fcntl.DN_MULTISHOT)
    dnotify_error = None
except OSError as exc:
    dnotify_error = why(exc)
atime_before = os.stat("/bot/atime").st_atime_ns
reply("watching")
shown = json.loads(sys.stdin.readline())["shown"]
found = {}
def looks(name, call):
    try:
        found[name] = "seen" if call() else "not seen"
    except Exception as exc:
        found[name] = "not seen (" + why(exc) + ")"
def flock_held():
    fd = os.open("/bot/flock", os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return False
    except BlockingIOError:
        return True
looks("flock", flock_held)
def lock_held(path, command):
    fd = os.open(path, os.O_RDONLY)
    kind = struct.unpack("hhqqi4x", fcntl.fcntl(fd, command, flock_struct(fcntl.F_WRLCK)))[0]
    return kind != fcntl.F_UNLCK
looks("posix lock", lambda: lock_held("/bot/posix", fcntl.F_GETLK))
looks("ofd lock", lambda: lock_held("/bot/ofd", F_OFD_GETLK))
def notified():
    if watch < 0:
        raise OSError(getattr(errno, watch_error, 0), watch_error)
    try:
        return b"notify" in os.read(watch, 1 << 16)
    except BlockingIOError:
        return False
looks("inotify", notified)
def dnotified():
    if dnotify_error:
        raise RuntimeError(dnotify_error)
    return bool(signals)
looks("dnotify", dnotified)
looks("file access time", lambda: os.stat("/bot/atime").st_atime_ns != atime_before)
def cached():
    page = shown["page cache (RWF_NOWAIT)"]
    if not isinstance(page, list):
        raise RuntimeError("the other found no page to show: " + str(page))
    fd = os.open(page[0], os.O_RDONLY)
    try:
        os.preadv(fd, [bytearray(1)], page[1] << 12, os.RWF_NOWAIT)
        return True
    except BlockingIOError:
        return False
looks("page cache (RWF_NOWAIT)", cached)
def connects(address):
    client = socket.socket(socket.AF_UNIX)
    client.settimeout(1)
    client.connect(address)
    return True
looks("abstract unix socket", lambda: connects(b"\0truco-partner"))
looks("named unix socket", lambda: connects("/tmp/truco-partner.sock"))
def semaphore():
    if libc.semget(KEY, 0, 0) < 0:
        raise OSError(ctypes.get_errno(), "semget")
    return True
looks("SysV semaphore", semaphore)
def queue():
    if librt.mq_open(b"/truco-partner", os.O_RDWR, 0, None) < 0:
        raise OSError(ctypes.get_errno(), "mq_open")
    return True
looks("POSIX message queue", queue)
looks("/tmp", lambda: os.path.exists("/tmp/truco-partner"))
looks("/dev/shm", lambda: os.path.exists("/dev/shm/truco-partner"))
def processes():
    mine = {os.getpid(), 1}
    others = [int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) not in mine]
    try:
        os.kill(shown["pid"], 0) if shown["pid"] not in mine else None
        signalled = shown["pid"] not in mine
    except OSError:
        signalled = False
    return bool(others) or signalled
looks("the other jail's processes", processes)
reply(found)
sys.stdin.readline()
"""
)


def make_probe_folder(folder: str) -> str:
    """The shared folder: the files the probe locks, opens and reads, readable by everyone; the
    access-time file is dated in the past (as a relatime mount would update)."""
    os.makedirs(folder, exist_ok=True)
    os.chmod(folder, 0o755)
    for name in ("flock", "posix", "ofd", "notify", "atime"):
        path = os.path.join(folder, name)
        with open(path, "w") as f:
            f.write("signal\n")
        os.chmod(path, 0o644)
    os.utime(os.path.join(folder, "atime"), (0, os.stat(os.path.join(folder, "atime")).st_mtime))
    return folder


def pair_probe(folder: str) -> dict[str, str]:
    """channel -> "seen" or "not seen (why)" by the second jail, of what the first showed."""
    code = textwrap.dedent
    looker = JailedProcess([PYTHON, "-I", "-S", "-c", code(LOOKS)], files=folder, binds=RUNTIME)
    shower = None
    try:
        assert looker.request({"type": "act"}, 30.0)["action"] == "watching", (
            looker.log_since_last()
        )
        shower = JailedProcess([PYTHON, "-I", "-S", "-c", code(SHOWS)], files=folder, binds=RUNTIME)
        shown = shower.request({"type": "act"}, 60.0)["action"]
        found = looker.request({"type": "act", "shown": shown}, 30.0)["action"]
    finally:
        looker.close()
        if shower is not None:
            shower.close()
    return {channel: found[channel] for channel in CHANNELS}


def without_partner_rules():
    """A context in which jails get the filter without `close_partner_channels` (as before the
    attack was found): for showing that the probe sees the channels those rules close."""
    import contextlib

    @contextlib.contextmanager
    def context():
        original = seccomp.close_partner_channels
        seccomp.close_partner_channels = lambda *_: None
        seccomp.filter_program.cache_clear()
        try:
            yield
        finally:
            seccomp.close_partner_channels = original
            seccomp.filter_program.cache_clear()

    return context()


if __name__ == "__main__":
    folder = sys.argv[1]  # made by make_probe_folder
    if "--open" in sys.argv[2:]:
        with without_partner_rules():
            print(json.dumps(pair_probe(folder)))
    else:
        print(json.dumps(pair_probe(folder)))
