"""A host user of its own for every jail: no two running jails share a uid, and none is root or
the runner's.

Where the uids come from depends on the runner (engine/jail/probe.py tells which):
- root: any uid, from 1,100,000 up (above any uid an operating system hands out to people);
- an ordinary user: its subordinate uids and gids (/etc/subuid, /etc/subgid), the same ranges
  rootless containers use; the jail's user namespace maps exactly one of them (see
  engine/jail/command.py), through the setuid helpers newuidmap/newgidmap.

A uid is held by an exclusive lock on its file in a folder only the runner may write, for as
long as its jail runs; the kernel drops the lock when the holder dies, so a killed worker leaks
no uid. The lowest free uid is taken, so that the files stay as few as the jails that ever ran
at once. A uid whose lock is free has no live jail: any process still running under it is an
orphan (a runner killed in the few milliseconds before bwrap armed `--die-with-parent`), and is
killed when a jail is next leased (an ordinary runner may: the orphan lives in a user namespace
the runner owns). Subordinate uids may be shared with the runner's other user namespaces (its
rootless containers use the same /etc/subuid range): there, only a process whose user
namespace maps exactly as a jail's does counts as an orphan, and a uid that anything else runs
under is not leased at all.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pwd
import signal
import stat
import tempfile
from collections.abc import Container
from dataclasses import dataclass

from ..errors import TrucoError
from .command import JAIL_UID

ROOT_FIRST_UID = 1_100_000
MAX_JAILS = 60_000  # uids a pool hands out at most
SUBUID_FILE = "/etc/subuid"
SUBGID_FILE = "/etc/subgid"


class UidPoolUnavailable(TrucoError):
    """No uid of its own can be given to a jail (the reason says why)."""


@dataclass(frozen=True)
class UidPool:
    """Host uids (and gids, the same offset into their own range) a runner may give jails."""

    first_uid: int
    first_gid: int
    count: int
    lock_dir: str
    # The uid a jail's user namespace maps to the runner (its root), for telling a jail's
    # orphan from another process of the runner's subordinate uids; None for root's pool.
    mapped_root: int | None = None

    def gid_of(self, uid: int) -> int:
        return self.first_gid + (uid - self.first_uid)


class UidLease:
    def __init__(self, uid: int, gid: int, fd: int):
        self.uid = uid
        self.gid = gid
        self._fd = fd

    def release(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


def _private_folder(path: str) -> str:
    """`path`, made if missing; refused unless it is the runner's own folder that nobody else
    may write (a folder planted in /tmp by another user could hand it our locks)."""
    with contextlib.suppress(FileExistsError):
        os.mkdir(path, 0o700)
    info = os.lstat(path)
    if (
        not stat.S_ISDIR(info.st_mode)
        or info.st_uid != os.geteuid()
        or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    ):
        raise UidPoolUnavailable(f"{path} is not a folder of the runner's own")
    return path


def root_pool() -> UidPool:
    lock_dir = "/run/truco-jail-uids" if os.path.isdir("/run") else "/tmp/truco-jail-uids"
    return UidPool(ROOT_FIRST_UID, ROOT_FIRST_UID, MAX_JAILS, lock_dir)


def _subordinate_range(path: str, names: tuple[str, ...]) -> tuple[int, int] | None:
    """(first, count) of the runner's first range in an /etc/subuid-like file."""
    try:
        with open(path, encoding="utf-8") as lines:
            for line in lines:
                parts = line.strip().split(":")
                if len(parts) == 3 and parts[0] in names:
                    with contextlib.suppress(ValueError):
                        first, count = int(parts[1]), int(parts[2])
                        if first > 0 and count > 0:
                            return first, count
    except OSError:
        return None
    return None


def subordinate_pool(euid: int | None = None) -> UidPool:
    """The pool of an ordinary runner: its subordinate uids and gids."""
    euid = os.geteuid() if euid is None else euid
    try:
        name = pwd.getpwuid(euid).pw_name
    except KeyError:
        raise UidPoolUnavailable(
            f"uid {euid} has no account (newuidmap maps subordinate uids of accounts only)"
        ) from None
    uids = _subordinate_range(SUBUID_FILE, (name, str(euid)))
    gids = _subordinate_range(SUBGID_FILE, (name, str(euid)))
    if uids is None or gids is None:
        missing = " and ".join(
            path for path, found in ((SUBUID_FILE, uids), (SUBGID_FILE, gids)) if found is None
        )
        raise UidPoolUnavailable(f"user {name} has no subordinate ids in {missing}")
    count = min(uids[1], gids[1], MAX_JAILS)
    if uids[0] <= euid < uids[0] + count:
        raise UidPoolUnavailable(f"the subordinate uids of {name} include its own uid")
    lock_dir = os.path.join(tempfile.gettempdir(), f"truco-jail-uids-{euid}")
    return UidPool(uids[0], gids[0], count, lock_dir, mapped_root=euid)


def _is_jails(pid: int, uid: int, pool: UidPool) -> bool:
    """Whether process `pid` (running as host `uid`) is in a user namespace made as a jail's:
    root mapped to the runner, JAIL_UID to `uid`, nothing else (engine/jail/command.py)."""
    try:
        with open(f"/proc/{pid}/uid_map", encoding="ascii") as f:
            lines = sorted(tuple(int(n) for n in line.split()) for line in f if line.strip())
    except (OSError, ValueError):
        return False
    return lines == [(0, pool.mapped_root, 1), (JAIL_UID, uid, 1)]


def _try_lock(pool: UidPool, uid: int) -> int | None:
    path = os.path.join(pool.lock_dir, str(uid))
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


def jail_processes(pool: UidPool) -> dict[int, list[int]]:
    """uid -> pids of the processes running under a uid of `pool`."""
    return processes_by_uid(range(pool.first_uid, pool.first_uid + pool.count))


def processes_by_uid(uids: Container[int]) -> dict[int, list[int]]:
    """uid -> pids of the host's processes running under one of `uids`."""
    found: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            uid = os.stat(f"/proc/{entry}").st_uid
        except OSError:
            continue
        if uid in uids:
            found.setdefault(uid, []).append(int(entry))
    return found


def kill_pids(pids: list[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


def lease_uid(pool: UidPool | None = None) -> UidLease:
    pool = pool or root_pool()
    _private_folder(pool.lock_dir)
    running = jail_processes(pool)
    lease = None
    for uid in range(pool.first_uid, pool.first_uid + pool.count):
        owned = uid in running
        if lease is not None and not owned:
            if uid > max(running, default=0):
                break
            continue
        if (
            owned
            and pool.mapped_root is not None
            and not all(_is_jails(pid, uid, pool) for pid in running[uid])
        ):
            continue  # another namespace of the runner's uses it (a rootless container)
        fd = _try_lock(pool, uid)
        if fd is None:
            continue  # a live jail's
        if owned:
            kill_pids(running[uid])  # an orphan: its lock is free, so its runner is gone
        if lease is None:
            lease = UidLease(uid, pool.gid_of(uid), fd)
        else:
            os.close(fd)
    if lease is None:
        raise UidPoolUnavailable("every jail uid is in use")
    return lease
