"""A host user of its own for every jail, when the runner is root: no two running jails share a
uid, and none is root or the runner's. A uid is held by an exclusive lock on its file in a
root-only folder for as long as its jail runs; the kernel drops the lock when the holder dies,
so a killed worker leaks no uid."""

from __future__ import annotations

import fcntl
import os
import random

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


def lease_uid() -> UidLease:
    os.makedirs(LOCK_DIR, mode=0o700, exist_ok=True)
    # Start anywhere in the range, so that concurrent runners rarely try the same files.
    start = random.randrange(COUNT)
    for step in range(COUNT):
        uid = FIRST_UID + (start + step) % COUNT
        fd = os.open(os.path.join(LOCK_DIR, str(uid)), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        return UidLease(uid, fd)
    raise RuntimeError("every jail uid is in use")
