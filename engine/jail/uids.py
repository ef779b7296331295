"""A host user of its own for every jail, when the runner is root: no two running jails share a
uid, and none is root or the runner's. A uid is held by an exclusive lock on its file in a
root-only folder for as long as its jail runs; the kernel drops the lock when the holder dies,
so a killed worker leaks no uid.

The lowest free uid is taken, so that the files stay as few as the jails that ever ran at once.
A uid whose lock is free has no live jail: any process still running under it is an orphan (a
runner killed in the few milliseconds before bwrap armed `--die-with-parent`), and is killed
when a jail is next leased.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal

FIRST_UID = 1_100_000  # above any uid an operating system hands out to people
COUNT = 60_000
LOCK_DIR = "/run/truco-jail-uids" if os.path.isdir("/run") else "/tmp/truco-jail-uids"


class UidLease:
    def __init__(self, uid: int, fd: int):
        self.uid = uid
        self._fd = fd

    def release(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


def _try_lock(uid: int) -> int | None:
    fd = os.open(os.path.join(LOCK_DIR, str(uid)), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


def jail_processes() -> dict[int, list[int]]:
    """uid -> pids of the processes running under a jail uid."""
    found: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            uid = os.stat(f"/proc/{entry}").st_uid
        except OSError:
            continue
        if FIRST_UID <= uid < FIRST_UID + COUNT:
            found.setdefault(uid, []).append(int(entry))
    return found


def _kill(pids: list[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


def lease_uid() -> UidLease:
    os.makedirs(LOCK_DIR, mode=0o700, exist_ok=True)
    running = jail_processes()
    lease = None
    for uid in range(FIRST_UID, FIRST_UID + COUNT):
        owned = uid in running
        if lease is not None and not owned:
            if uid > max(running, default=0):
                break
            continue
        fd = _try_lock(uid)
        if fd is None:
            continue  # a live jail's
        if owned:
            _kill(running[uid])  # an orphan: its lock is free, so its runner is gone
        if lease is None:
            lease = UidLease(uid, fd)
        else:
            os.close(fd)
    if lease is None:
        raise RuntimeError("every jail uid is in use")
    return lease
