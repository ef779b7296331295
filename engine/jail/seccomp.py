"""The system calls a jailed bot may not make: a seccomp filter (libseccomp, through pyseccomp)
that bwrap installs on the bot's command (`--seccomp FD`), after the jail is built and before
anything of the bot runs. It inherits it, and so does everything the bot starts.

The namespaces, the read-only root and the dropped uid are the jail's walls; this filter takes
away the kernel interfaces a bot never needs and that kernel exploits use to climb them: making
namespaces (a user namespace would make the bot root over its own mounts), mounting, tracing,
eBPF, io_uring, userfaultfd, perf events, the kernel keyring, loading modules, memory that no
limit sees without a cgroup (memfd and memfd_secret, System V shared memory and message queues,
pages pinned in pipes by vmsplice, kernel AIO rings), the host's page cache and disk (fadvise,
O_DIRECT), and sockets of any family but Unix. A bot has no network (its namespace has only a loopback), so IP sockets serve it
nothing, and they cost the host: the kernel charges their buffers to the host-wide TCP and UDP
memory (`net.ipv4.tcp_mem`), which a cgroup v1 memory limit does not count, so a bot filling
loopback connections it never reads stalled the host's own connections to its database. Other
families reach past the network namespace (AF_VSOCK a virtual machine's host, AF_NETLINK the
kernel). Everything else is allowed, so that Java, Node, Python and native bots run as they are. System calls of another ABI (32-bit ones on a 64-bit kernel) kill the process:
libseccomp's default for a foreign architecture.

It also closes the channels between two jails (`close_partner_channels`): the two seats of a
team in 2 vs 2 are two jails of one author's code, and each sees the same read-only files (its
bot's folder, /usr, /dev/null, the runtime). A kernel object attached to a shared file is shared
too, so one seat could show the other its cards through it: a lock (`flock`, `fcntl` record and
open-file-description locks; one bot signalled 20 bits a seat by locking its own files), a lease,
a notification watch (inotify, dnotify: the reader learns which files its partner opened), or
whether a page of the file is in the page cache, asked without reading it (`preadv2` with
RWF_NOWAIT, `cachestat`). docs/security.md lists every channel between jails and its defence.
"""

from __future__ import annotations

import errno
import fcntl
import functools
import os
import socket
import tempfile

# Denied with EPERM: what a sandboxed program has no business doing.
DENIED = (
    # the jail's walls: namespaces and mounts
    "unshare",
    "setns",
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "move_mount",
    "open_tree",
    "fsopen",
    "fsconfig",
    "fsmount",
    "fspick",
    "mount_setattr",
    # other processes: tracing, reading their memory, taking their file descriptors
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "pidfd_getfd",
    "kcmp",
    # kernel interfaces that kernel exploits go through
    "bpf",
    "perf_event_open",
    "userfaultfd",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "keyctl",
    "add_key",
    "request_key",
    "open_by_handle_at",
    "name_to_handle_at",
    "fanotify_init",
    "lookup_dcookie",
    "syslog",
    "uselib",
    "vhangup",
    "quotactl",
    "acct",
    "swapon",
    "swapoff",
    "reboot",
    "kexec_load",
    "kexec_file_load",
    "init_module",
    "finit_module",
    "delete_module",
    "iopl",
    "ioperm",
    # memory no limit sees where the jail has no cgroup (a memfd's pages, mapped or not, and
    # System V segments outlive their mappings; RLIMIT_DATA counts neither)
    "memfd_create",
    "memfd_secret",
    "shmget",
    "msgget",
    # pipes that hold the pages of memory the bot has unmapped (vmsplice keeps a reference to
    # each whole page, 2 MiB of a huge one for 4 KiB passed), and kernel AIO rings
    "vmsplice",
    "io_setup",
    # the host's page cache and disk: dropping cached pages of the system's files (for every
    # process of the host), and reading past the cache (O_DIRECT, below)
    "fadvise64",
)
# Opening with O_DIRECT reads the disk itself, charged to nobody: refused (EINVAL, as a file
# system without it answers).
O_DIRECT = getattr(os, "O_DIRECT", 0)
# clone with any of these flags makes a namespace: denied too (its flags are its first argument
# on x86-64 and arm64).
NAMESPACE_FLAGS = {
    "CLONE_NEWNS": 0x00020000,
    "CLONE_NEWCGROUP": 0x02000000,
    "CLONE_NEWUTS": 0x04000000,
    "CLONE_NEWIPC": 0x08000000,
    "CLONE_NEWUSER": 0x10000000,
    "CLONE_NEWPID": 0x20000000,
    "CLONE_NEWNET": 0x40000000,
}
# Channels between two jails through the files they both see (close_partner_channels).
# fcntl commands (its second argument) that take, test or lease a lock on a file: "no locks
# available" (ENOLCK, as from a file system without locking, NFS mounted `nolock`).
LOCK_COMMANDS = {
    "F_GETLK": 5,
    "F_SETLK": 6,
    "F_SETLKW": 7,
    "F_OFD_GETLK": 36,
    "F_OFD_SETLK": 37,
    "F_OFD_SETLKW": 38,
    "F_SETLEASE": 1024,
    "F_GETLEASE": 1025,
}
F_NOTIFY = 1026  # dnotify: EINVAL, as from a kernel without it
RWF_NOWAIT = 0x8  # preadv2's flags (its sixth argument): "would it block", i.e. is it cached
ALLOWED_SOCKET_FAMILIES = (socket.AF_UNIX,)
MAX_SOCKET_FAMILY = 64  # above AF_MAX of any kernel


class SeccompUnavailable(RuntimeError):
    """The filter cannot be made here (libseccomp or its binding is missing)."""


@functools.cache
def filter_program() -> bytes:
    """The filter, compiled to the classic BPF program bwrap loads."""
    try:
        import pyseccomp as seccomp
    except (ImportError, RuntimeError) as exc:  # RuntimeError: libseccomp.so.2 not found
        raise SeccompUnavailable(f"the seccomp filter cannot be made: {exc}") from None
    rules = seccomp.SyscallFilter(seccomp.ALLOW)
    for name in DENIED:
        try:
            rules.add_rule(seccomp.ERRNO(errno.EPERM), name)
        except (OSError, RuntimeError, ValueError):
            continue  # a call this kernel's architecture does not have
    for flag in NAMESPACE_FLAGS.values():
        rules.add_rule(
            seccomp.ERRNO(errno.EPERM), "clone", seccomp.Arg(0, seccomp.MASKED_EQ, flag, flag)
        )
    if O_DIRECT:
        for call, flags_arg in (("open", 1), ("openat", 2)):
            try:
                rules.add_rule(
                    seccomp.ERRNO(errno.EINVAL),
                    call,
                    seccomp.Arg(flags_arg, seccomp.MASKED_EQ, O_DIRECT, O_DIRECT),
                )
            except (OSError, RuntimeError, ValueError):
                continue  # arm64 has no `open`
        rules.add_rule(
            seccomp.ERRNO(errno.EINVAL),
            "fcntl",
            seccomp.Arg(1, seccomp.EQ, fcntl.F_SETFL),
            seccomp.Arg(2, seccomp.MASKED_EQ, O_DIRECT, O_DIRECT),
        )
    close_partner_channels(seccomp, rules)
    # openat2 passes its flags in memory too: "not implemented", and callers fall back to openat.
    rules.add_rule(seccomp.ERRNO(errno.ENOSYS), "openat2")
    # clone3 passes its flags in memory, out of a filter's reach: it answers "not implemented",
    # and the C library falls back to clone, whose flags are checked above.
    rules.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
    for family in range(MAX_SOCKET_FAMILY):
        if family not in ALLOWED_SOCKET_FAMILIES:
            for call in ("socket", "socketpair"):
                rules.add_rule(
                    seccomp.ERRNO(errno.EAFNOSUPPORT), call, seccomp.Arg(0, seccomp.EQ, family)
                )
    for call in ("socket", "socketpair"):
        rules.add_rule(
            seccomp.ERRNO(errno.EAFNOSUPPORT),
            call,
            seccomp.Arg(0, seccomp.GE, MAX_SOCKET_FAMILY),
        )
    with tempfile.TemporaryFile() as out:
        rules.export_bpf(out)
        out.seek(0)
        return out.read()


def close_partner_channels(seccomp, rules) -> None:
    """Refuse the calls through which one jail could signal another by way of a file both see
    (module docstring). Each answers what a system without the feature answers, so that
    runtimes carry on: Java and Node start and play without them (tests/jail/)."""
    rules.add_rule(seccomp.ERRNO(errno.ENOLCK), "flock")
    for command in LOCK_COMMANDS.values():
        rules.add_rule(seccomp.ERRNO(errno.ENOLCK), "fcntl", seccomp.Arg(1, seccomp.EQ, command))
    rules.add_rule(seccomp.ERRNO(errno.EINVAL), "fcntl", seccomp.Arg(1, seccomp.EQ, F_NOTIFY))
    for call in ("inotify_init", "inotify_init1", "inotify_add_watch"):
        try:
            rules.add_rule(seccomp.ERRNO(errno.ENOSYS), call)
        except (OSError, RuntimeError, ValueError):
            continue  # arm64 has no inotify_init
    # A read that would wait for the disk answers EAGAIN under RWF_NOWAIT: whether the page is
    # cached, without bringing it in. "Not supported", as for a file that cannot say.
    rules.add_rule(
        seccomp.ERRNO(errno.EOPNOTSUPP),
        "preadv2",
        seccomp.Arg(5, seccomp.MASKED_EQ, RWF_NOWAIT, RWF_NOWAIT),
    )
    try:  # the page cache's counts for a range of a file (Linux 6.5)
        rules.add_rule(seccomp.ERRNO(errno.EPERM), "cachestat")
    except (OSError, RuntimeError, ValueError):
        pass  # a libseccomp older than the call (recent kernels refuse it for a file not writable)


def program_fd() -> int:
    """A file descriptor (for bwrap's `--seccomp`) holding the filter, at its start. The caller
    passes it to the jail and closes it."""
    program = filter_program()
    fd = os.memfd_create("truco-jail-seccomp", os.MFD_CLOEXEC)
    try:
        os.write(fd, program)
        os.lseek(fd, 0, os.SEEK_SET)
    except OSError:
        os.close(fd)
        raise
    return fd
