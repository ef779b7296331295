"""The jail's seccomp filter (engine/jail/seccomp.py): a bot that tries the kernel interfaces
exploits climb out through (making namespaces, io_uring, eBPF, the keyring, tracing, sockets
of any family but Unix, 32-bit system calls), or that two jails could signal each other through
(locks, leases and watches on the files both see, the page cache's state), is refused each,
while what ordinary programs do (threads, child processes, Unix sockets) still works."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

from engine.jail import seccomp
from engine.jail.process import JailedProcess

from .conftest import jail_or_skip

PYTHON = os.path.realpath(sys.executable)
RUNTIME = () if sys.base_prefix.startswith("/usr/") else (os.path.realpath(sys.base_prefix),)

# Tries each call; answers {name: "allowed" | "refused: <errno name>"}.
CLIMBER = textwrap.dedent(
    r"""
    import ctypes, errno, json, os, platform, socket, subprocess, sys, threading
    sys.stdin.readline()
    libc = ctypes.CDLL(None, use_errno=True)
    NR = {"x86_64": {"bpf": 321, "io_uring_setup": 425, "keyctl": 250, "ptrace": 101,
                     "clone": 56, "setns": 308, "perf_event_open": 298, "userfaultfd": 323,
                     "mount": 165},
          "aarch64": {"bpf": 280, "io_uring_setup": 425, "keyctl": 219, "ptrace": 117,
                      "clone": 220, "setns": 268, "perf_event_open": 241, "userfaultfd": 282,
                      "mount": 40}}[platform.machine()]
    found = {}
    def record(name, result):
        if result == -1:
            found[name] = "refused: " + errno.errorcode.get(ctypes.get_errno(), "?")
        else:
            found[name] = "allowed"
    record("unshare user", libc.unshare(0x10000000))
    record("unshare mount", libc.unshare(0x00020000))
    record("unshare net", libc.unshare(0x40000000))
    # clone(CLONE_NEWUSER | SIGCHLD): a child would exit at once
    pid = libc.syscall(NR["clone"], 0x10000000 | 17, 0, 0, 0, 0)
    if pid == 0:
        os._exit(0)
    record("clone a user namespace", pid)
    if pid > 0:
        os.waitpid(pid, 0)
    record("setns", libc.syscall(NR["setns"], os.open("/proc/self/ns/net", os.O_RDONLY), 0))
    params = ctypes.create_string_buffer(120)
    record("io_uring_setup", libc.syscall(NR["io_uring_setup"], 1, params))
    record("bpf", libc.syscall(NR["bpf"], 5, None, 0))
    record("keyctl", libc.syscall(NR["keyctl"], 0, -3, 0))
    record("ptrace", libc.syscall(NR["ptrace"], 0, 0, 0, 0))
    attr = ctypes.create_string_buffer(128)
    record("perf_event_open", libc.syscall(NR["perf_event_open"], attr, 0, -1, -1, 0))
    record("userfaultfd", libc.syscall(NR["userfaultfd"], 0))
    record("mount", libc.syscall(NR["mount"], b"none", b"/tmp", b"tmpfs", 0, None))
    families = ((40, "AF_VSOCK"), (16, "AF_NETLINK"), (17, "AF_PACKET"), (38, "AF_ALG"),
                (2, "AF_INET"), (10, "AF_INET6"))
    for family, name in families:
        try:
            socket.socket(family, socket.SOCK_DGRAM if family != 17 else socket.SOCK_RAW).close()
            found[name] = "allowed"
        except OSError as exc:
            found[name] = "refused: " + errno.errorcode.get(exc.errno, "?")
    # Memory no limit sees without a cgroup, and the host's page cache and disk.
    def tries(name, call):
        try:
            call()
            found[name] = "allowed"
        except OSError as exc:
            found[name] = "refused: " + errno.errorcode.get(exc.errno, "?")
    tries("memfd_create", lambda: os.close(os.memfd_create("hoard")))
    NR2 = {"x86_64": {"memfd_secret": 447, "vmsplice": 278, "io_setup": 206, "msgget": 68},
           "aarch64": {"memfd_secret": 447, "vmsplice": 75, "io_setup": 0, "msgget": 186}}
    numbers = NR2[platform.machine()]
    record("memfd_secret", libc.syscall(numbers["memfd_secret"], 0))
    read_end, write_end = os.pipe()
    page = ctypes.create_string_buffer(4096)
    iov = (ctypes.c_void_p * 2)(ctypes.cast(page, ctypes.c_void_p), 4096)
    record("vmsplice", libc.syscall(numbers["vmsplice"], write_end, iov, 1, 0))
    context = ctypes.c_ulong(0)
    record("io_setup", libc.syscall(numbers["io_setup"], 8, ctypes.byref(context)))
    record("msgget", libc.syscall(numbers["msgget"], 0, 0o1600))
    record("shmget", libc.shmget(0, 1 << 20, 0o1600))  # IPC_PRIVATE, IPC_CREAT | 0600
    system_file = os.open("/usr/bin/env", os.O_RDONLY)
    tries("fadvise DONTNEED", lambda: os.posix_fadvise(system_file, 0, 0, os.POSIX_FADV_DONTNEED))
    tries("open O_DIRECT", lambda: os.close(os.open("/usr/bin/env", os.O_RDONLY | os.O_DIRECT)))
    import fcntl
    tries("fcntl O_DIRECT", lambda: fcntl.fcntl(system_file, fcntl.F_SETFL, os.O_DIRECT))
    # What two jails could signal each other through: locks, leases and watches on the files
    # both see, and the page cache's state of them.
    import struct
    shared = os.open("/usr/bin/env", os.O_RDONLY)
    lock = struct.pack("hhqqi4x", fcntl.F_RDLCK, 0, 0, 1, 0)
    tries("flock", lambda: fcntl.flock(shared, fcntl.LOCK_SH | fcntl.LOCK_NB))
    for name, command in (("F_GETLK", 5), ("F_SETLK", 6), ("F_SETLKW", 7), ("F_OFD_GETLK", 36),
                          ("F_OFD_SETLK", 37), ("F_OFD_SETLKW", 38)):
        tries("fcntl " + name, lambda command=command: fcntl.fcntl(shared, command, lock))
    tries("fcntl F_SETLEASE", lambda: fcntl.fcntl(shared, 1024, fcntl.F_RDLCK))
    folder = os.open("/usr/bin", os.O_RDONLY)
    tries("fcntl F_NOTIFY", lambda: fcntl.fcntl(folder, fcntl.F_NOTIFY, fcntl.DN_ACCESS))
    record("inotify_init1", libc.inotify_init1(0))
    tries("preadv2 RWF_NOWAIT", lambda: os.preadv(shared, [bytearray(1)], 0, os.RWF_NOWAIT))
    stat_range, stats = ctypes.create_string_buffer(16), ctypes.create_string_buffer(40)
    record("cachestat", libc.syscall(451, shared, stat_range, stats, 0))
    # What ordinary programs do.
    done = []
    thread = threading.Thread(target=done.append, args=(1,))
    thread.start(); thread.join()
    found["a thread"] = "allowed" if done else "refused"
    found["a child process"] = "allowed" if subprocess.run(["/bin/true"]).returncode == 0 else "refused"
    for kind, name in ((socket.SOCK_STREAM, "a TCP socket"), (socket.SOCK_DGRAM, "a UDP socket")):
        try:
            socket.socket(socket.AF_INET, kind).close()
            found[name] = "allowed"
        except OSError as exc:
            found[name] = "refused: " + errno.errorcode.get(exc.errno, "?")
    server = socket.socket(socket.AF_UNIX); server.bind("/tmp/listen"); server.listen()
    client = socket.socket(socket.AF_UNIX); client.connect("/tmp/listen"); client.close()
    server.close()
    found["a unix socket"] = "allowed"
    a, b = socket.socketpair(); a.close(); b.close()
    found["a unix socket pair"] = "allowed"
    print(json.dumps({"action": found}), flush=True)
    sys.stdin.readline()
    """
)

SHOULD_WORK = ("a thread", "a child process", "a unix socket", "a unix socket pair")


def test_the_filter_refuses_what_exploits_use_and_keeps_what_programs_need():
    jail_or_skip()
    process = JailedProcess([PYTHON, "-I", "-S", "-c", CLIMBER], binds=RUNTIME)
    try:
        found = process.request({"type": "act"}, 30.0)["action"]
    finally:
        process.close()
    for name in SHOULD_WORK:
        assert found.pop(name) == "allowed", name
    allowed = sorted(name for name, result in found.items() if result == "allowed")
    assert not allowed, f"the jail let the bot {allowed}"
    assert found["unshare user"] == "refused: EPERM"
    assert found["AF_VSOCK"] == "refused: EAFNOSUPPORT"
    assert found["a TCP socket"] == found["AF_INET6"] == "refused: EAFNOSUPPORT"
    assert found["memfd_create"] == found["shmget"] == "refused: EPERM"
    assert found["memfd_secret"] == found["vmsplice"] == found["msgget"] == "refused: EPERM"
    assert found["open O_DIRECT"] == "refused: EINVAL"
    # Locks answer "no locks available", notifications "not implemented": what a file system
    # without locking and a kernel without inotify answer, which runtimes carry on from.
    locks = [name for name in found if name == "flock" or "LK" in name or "LEASE" in name]
    assert len(locks) == 8 and all(found[name] == "refused: ENOLCK" for name in locks), found
    assert found["inotify_init1"] == "refused: ENOSYS"
    assert found["fcntl F_NOTIFY"] == "refused: EINVAL"
    assert found["preadv2 RWF_NOWAIT"] == "refused: " + errno.errorcode[errno.EOPNOTSUPP]
    assert found["cachestat"] == "refused: EPERM"


@pytest.mark.skipif(not shutil.which("gcc"), reason="gcc builds the 32-bit caller")
def test_a_32_bit_system_call_kills_the_bot(tmp_path):
    """A filter written for the 64-bit calls would not see the 32-bit ABI's: libseccomp kills a
    process that uses a foreign architecture."""
    jail_or_skip()
    if os.uname().machine != "x86_64":
        pytest.skip("the int 0x80 entry is x86's")
    source = tmp_path / "climb.c"
    source.write_text(
        textwrap.dedent(
            r"""
            #include <stdio.h>
            #include <unistd.h>
            int main(void) {
                char line[256];
                fgets(line, sizeof line, stdin);
                long ret;
                /* unshare(CLONE_NEWUSER) through the 32-bit entry: i386 number 310 */
                __asm__ volatile ("int $0x80" : "=a"(ret) : "a"(310), "b"(0x10000000) : "memory");
                printf("{\"action\": \"returned %ld\"}\n", ret);
                fflush(stdout);
                return 0;
            }
            """
        )
    )
    subprocess.run(["gcc", "-O0", "-o", str(tmp_path / "climb"), str(source)], check=True)
    os.chmod(tmp_path, 0o755)
    process = JailedProcess(["./climb"], files=str(tmp_path))
    from engine.protocol import BotExited

    try:
        with pytest.raises(BotExited) as died:
            process.request({"type": "act"}, 10.0)
    finally:
        process.close()
    assert "SIGSYS" in died.value.detail


def test_without_libseccomp_untrusted_bots_are_refused(monkeypatch):
    """The filter is one of the jail's walls: without it the jail is not built."""
    from engine.jail import probe

    def missing():
        raise seccomp.SeccompUnavailable("the seccomp filter cannot be made: no libseccomp")

    monkeypatch.setattr(probe, "program_fd", missing)
    monkeypatch.delenv(probe.UNSAFE_ENV, raising=False)
    probe.reset()
    try:
        jail = probe.availability()
        assert not jail.ok and "seccomp" in jail.reason
        with pytest.raises(probe.JailUnavailable):
            jail.require()
    finally:
        probe.reset()
