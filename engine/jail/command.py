"""The bubblewrap command line of one jail.

The jail's root is an empty tmpfs holding only read-only binds of what the bot needs to run:
/usr (and the /bin, /lib... links into it), a few files of /etc that runtimes need (the dynamic
linker's cache, the `alternatives` links through which Debian finds java, the JVM's settings),
the folders the caller names (the Python that runs the shim, the engine's source, the bot's
module), and the bot's own files at /bot. /tmp is a private tmpfs of bounded size. No /etc/passwd,
no /etc/shadow, no project settings, no database: they are simply not there.

bwrap makes the namespaces (PID, mount, network, IPC, UTS, cgroup) as root, keeping only
CAP_SETUID/CAP_SETGID, with which `setpriv` drops to the jail's own uid before anything of the
bot runs (no capability, no new privileges); `prlimit` then sets the limits, and the bot's
command starts. The bot's uid is never root and never the runner's:
- a root runner runs bwrap itself (no user namespace, so that it can bind folders only root may
  read) and drops to a host uid leased for the jail (engine/jail/uids.py);
- an ordinary runner first makes a user namespace that maps exactly two ids (`userns_command`):
  its root to the runner, so that bwrap is root there, and uid JAIL_UID to one of the runner's
  subordinate uids, leased for the jail. The bot is that host uid: it cannot signal, ptrace or
  write into anything of the runner's, nor into another jail. That namespace may hold no further
  user namespace (user.max_user_namespaces = 0), so the bot cannot make one to gain
  capabilities over its own mounts.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Iterable, Mapping, Sequence

from .limits import Limits

JAIL_PATH = "/usr/local/bin:/usr/bin:/bin"
JAIL_UID = 1000  # the bot's uid inside the user namespace of an ordinary runner's jail
BOT_DIR = "/bot"
TMP_DIR = "/tmp"
# What runtimes read from /etc; nothing else of it is in the jail.
ETC_ENTRIES = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "alternatives", "java-*", "localtime")
TOP_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
SETPRIV = "/usr/bin/setpriv"  # drops to the jail's uid: the first word of the bot's command


def _ancestors(path: str) -> list[str]:
    parts = [p for p in path.split("/") if p]
    return ["/" + "/".join(parts[:i]) for i in range(1, len(parts))]


class Mounts:
    """The read-only binds, in an order bwrap accepts: every folder a bind needs on its way is
    made first, world-traversable (bwrap would copy the host's mode, and /root is 0700)."""

    def __init__(self):
        self.args: list[str] = []
        self._made: set[str] = {"/"}
        self._bound: list[str] = []
        # Folders on the way to a bind under the jail's writable /tmp: each is a tmpfs of its
        # own, remounted read-only once its binds are in (a plain folder made there would be
        # writable by the jail's root, and a module planted on the import path runs as the bot).
        self.read_only_tmpfs: list[str] = []

    def _covered(self, path: str) -> bool:
        return any(path == b or path.startswith(b.rstrip("/") + "/") for b in self._bound)

    def _dirs(self, path: str) -> None:
        for folder in _ancestors(path):
            if folder not in self._made and not self._covered(folder):
                if os.path.dirname(folder) == TMP_DIR:
                    self.args += ["--perms", "0755", "--tmpfs", folder]
                    self.read_only_tmpfs.append(folder)
                else:
                    self.args += ["--perms", "0755", "--dir", folder]
                self._made.add(folder)

    def ro_bind(self, source: str, dest: str | None = None) -> None:
        dest = dest or source
        if self._covered(dest):
            return
        self._dirs(dest)
        self.args += ["--ro-bind", source, dest]
        self._bound.append(dest)
        self._made.add(dest)

    def symlink(self, target: str, dest: str) -> None:
        self.args += ["--symlink", target, dest]
        self._made.add(dest)


def system_mounts(mounts: Mounts) -> None:
    mounts.ro_bind("/usr")
    for top in TOP_LINKS:
        if os.path.islink(top):
            mounts.symlink(os.readlink(top), top)
        elif os.path.isdir(top):
            mounts.ro_bind(top)
    for pattern in ETC_ENTRIES:
        for path in sorted(glob.glob(os.path.join("/etc", pattern))):
            mounts.ro_bind(path)


def bwrap_command(
    command: Sequence[str],
    *,
    bwrap: str,
    limits: Limits,
    uid: int,
    binds: Iterable[str] = (),
    files: str | None = None,
    env: Mapping[str, str] | None = None,
    memory_by_cgroup: bool = False,
    cpu_by_cgroup: bool = False,
    seccomp_fd: int | None = None,
) -> list[str]:
    """argv that runs `command` in a new jail, started as root (the host's, or that of the user
    namespace `userns_command` makes). `uid`: the uid to drop to (gid the same). `binds`: host
    folders made visible read-only at their own paths. `files`: the bot's folder, at /bot (its
    working directory). `seccomp_fd`: a file descriptor, inherited by bwrap, holding the
    filter of engine/jail/seccomp.py that the bot's command runs under."""
    mounts = Mounts()
    system_mounts(mounts)
    # The private /tmp comes before the binds: a project checked out under /tmp (a CI clone)
    # is then bound on top of it instead of being hidden by it.
    mounts.args += ["--perms", "1777", "--size", str(limits.tmp_mb << 20), "--tmpfs", TMP_DIR]
    mounts._made.add(TMP_DIR)
    for path in binds:
        mounts.ro_bind(os.path.realpath(path), path)
    if files is not None:
        mounts.ro_bind(os.path.realpath(files), BOT_DIR)
    argv = [bwrap, "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts"]
    argv += ["--unshare-cgroup-try", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    argv += ["--die-with-parent", "--new-session", "--hostname", "jail"]
    argv += mounts.args
    argv += ["--proc", "/proc", "--dev", "/dev"]
    # The root itself (the folders made on the way to the binds) is read-only too: nothing of
    # the jail's own tree is writable but its /tmp.
    for folder in mounts.read_only_tmpfs:
        argv += ["--remount-ro", folder]
    argv += ["--remount-ro", "/"]
    argv += ["--chdir", BOT_DIR if files is not None else TMP_DIR, "--clearenv"]
    variables = {"PATH": JAIL_PATH, "HOME": TMP_DIR, "TMPDIR": TMP_DIR, "LANG": "C.UTF-8"}
    variables.update(env or {})
    for key, value in variables.items():
        argv += ["--setenv", key, value]
    if seccomp_fd is not None:
        argv += ["--seccomp", str(seccomp_fd)]
    argv.append("--")
    argv += [
        SETPRIV,
        f"--reuid={uid}",
        f"--regid={uid}",
        "--clear-groups",
        "--no-new-privs",
        "--inh-caps=-all",
        "--bounding-set=-all",
        "--",
    ]
    if not cpu_by_cgroup:
        # Without a CPU quota for the whole jail (an ordinary runner has no cgroup of its own),
        # its processes run at a lower priority, which they cannot raise again (no
        # CAP_SYS_NICE, RLIMIT_NICE 0): spinning between its answers takes the host's CPU only
        # where the host's own processes leave it some.
        argv += ["/usr/bin/nice", "-n", str(limits.niceness)]
    argv += ["/usr/bin/prlimit", *rlimits(limits, memory_by_cgroup), "--"]
    argv += list(command)
    return argv


def args_in_fd(argv: list[str]) -> tuple[list[str], int]:
    """`argv` (of `bwrap_command`) with bwrap's options moved into a memfd that bwrap reads
    (`--args FD`) and closes before the bot starts. The jail's init (pid 1 of its PID namespace,
    a copy of bwrap) then shows the bot `bwrap --args N -- setpriv ...` as its command line,
    instead of every host folder it binds (its own among them). The command after `--` stays on
    the command line: bwrap takes it only there. The caller passes the fd to bwrap and closes
    its own."""
    end = next(i for i in range(1, len(argv) - 1) if argv[i] == "--" and argv[i + 1] == SETPRIV)
    fd = os.memfd_create("truco-jail-args", os.MFD_CLOEXEC)
    try:
        view = memoryview(b"".join(os.fsencode(arg) + b"\0" for arg in argv[1:end]))
        while view:
            view = view[os.write(fd, view) :]
        os.lseek(fd, 0, os.SEEK_SET)
    except OSError:
        os.close(fd)
        raise
    return [argv[0], "--args", str(fd), *argv[end:]], fd


# Run in the new user namespace, as its root, before bwrap: no user namespace may be made in it
# (the sysctl is per user namespace; the host's stays as it is). Fails closed: a namespace that
# cannot be limited runs no jail.
_NO_NESTED_USERNS = 'echo 0 > /proc/sys/user/max_user_namespaces || exit 125; exec "$@"'


def userns_command(host_uid: int, host_gid: int, argv: list[str]) -> list[str]:
    """argv, for an ordinary runner, run as root of a new user namespace in which root is the
    runner and JAIL_UID is `host_uid`/`host_gid` (subordinate ids of the runner's, mapped by
    the setuid helpers newuidmap and newgidmap): nothing else of the host's ids is mapped."""
    return [
        "/usr/bin/unshare",
        "--user",
        "--map-user=0",
        "--map-group=0",
        f"--map-users={host_uid},{JAIL_UID},1",
        f"--map-groups={host_gid},{JAIL_UID},1",
        "--",
        "/bin/sh",
        "-c",
        _NO_NESTED_USERNS,
        "userns",
        *argv,
    ]


def rlimits(limits: Limits, memory_by_cgroup: bool) -> list[str]:
    file_bytes = limits.file_mb << 20
    out = [
        f"--nproc={limits.processes}",
        f"--nofile={limits.open_files}",
        f"--cpu={limits.cpu_seconds}",
        f"--fsize={file_bytes}",
        "--core=0",
        "--nice=0",  # its priority may not be raised back (the default, made explicit)
    ]
    if not memory_by_cgroup:
        # Without a cgroup, the data segment: unlike the address space (RLIMIT_AS), it leaves
        # alone the address space a JVM reserves without using it.
        out.append(f"--data={limits.memory_mb << 20}")
    return out
