"""A machine's unpacked bundles: one folder per SHA-256 under one root, each fetched from the
bundle storage once per machine, checked against its SHA-256 (the stored zip is trusted no more
than the upload) and unpacked; kept within a size and a count, the least recently used out
first.

Several processes of one machine share the root (the prefork pool's children, the play worker,
the web process validating an upload), so every step is safe across processes:

- a folder appears whole or not at all: it is unpacked under a hidden name and renamed into
  place (engine.bundles.unpack_zip);
- one process fetches a given zip at a time (an flock per SHA-256); the others wait and find
  the folder made;
- an evicted folder is first renamed out of place (atomic: a reader sees it or does not),
  then deleted; a folder used within `keep_recent_seconds` is never evicted, since a jail may
  have it mounted for the whole of a long match (the bounds are exceeded rather than that).

Nothing here runs or imports a bundle.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import re
import shutil
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from engine.bundles import BundleError, BundleLimits, unpack_zip

SHA256 = re.compile(r"[0-9a-f]{64}")
# What a process that died mid-way leaves (a staging folder, a folder being deleted): cleared
# once this old.
LEFTOVER_SECONDS = 3600.0


class BundleUnavailable(Exception):
    """The bundle storage could not be read (an object store unreachable, a folder this
    machine does not see): the server's trouble, not the bot's, so never a reason to reject
    it; the work is tried again later."""


@dataclass(frozen=True)
class Fetched:
    """What `folder` did: the folder, and whether this call fetched and unpacked it."""

    path: Path
    fetched: bool


class BundleCache:
    def __init__(
        self,
        root: Path,
        *,
        max_bytes: int,
        max_entries: int,
        keep_recent_seconds: float = 3600.0,
    ):
        self.root = Path(root)
        self.max_bytes = max_bytes
        self.max_entries = max_entries
        self.keep_recent_seconds = keep_recent_seconds

    def folder(
        self,
        sha256: str,
        open_stored: Callable[[], contextlib.AbstractContextManager[BinaryIO]],
        limits: BundleLimits,
        label: str = "",
    ) -> Fetched:
        """The unpacked folder of the zip whose SHA-256 is `sha256`; `open_stored()` opens the
        stored zip, called only if no process of this machine unpacked it yet."""
        if not SHA256.fullmatch(sha256 or ""):
            raise BundleError(f"the bundle of {label or 'a bot'} has no valid SHA-256")
        target = self.root / sha256
        if self._use(target):
            return Fetched(target, False)
        self.root.mkdir(parents=True, exist_ok=True)
        with self._locked(f"{sha256}.lock"):
            if self._use(target):  # another process fetched it while we waited
                return Fetched(target, False)
            with tempfile.TemporaryFile(dir=self.root) as copy:
                digest = hashlib.sha256()
                try:
                    with open_stored() as stored:
                        while chunk := stored.read(1 << 16):
                            digest.update(chunk)
                            copy.write(chunk)
                except Exception as exc:  # whatever the storage raises (OSError, botocore's)
                    raise BundleUnavailable(
                        f"the bundle of {label or sha256[:16]} cannot be read from the bundle "
                        f"storage: {type(exc).__name__}: {exc}"
                    ) from exc
                if digest.hexdigest() != sha256:
                    raise BundleError(
                        f"the stored bundle of {label or sha256[:16]} does not match its SHA-256"
                    )
                copy.seek(0)
                unpack_zip(copy, target, limits)
        self.evict(keep=sha256)
        return Fetched(target, True)

    def _use(self, target: Path) -> bool:
        """Mark the folder as used now (its mtime: the LRU order); False if it is absent."""
        try:
            os.utime(target)
        except FileNotFoundError:
            return False
        return target.is_dir()

    @contextlib.contextmanager
    def _locked(self, name: str):
        locks = self.root / ".locks"
        locks.mkdir(exist_ok=True)
        with open(locks / name, "a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def entries(self) -> list[tuple[float, int, Path]]:
        """(last use, bytes, folder) of every unpacked bundle, least recently used first."""
        found = []
        for path in self.root.iterdir() if self.root.is_dir() else ():
            if not SHA256.fullmatch(path.name):
                continue
            try:
                used = path.stat().st_mtime
            except FileNotFoundError:  # evicted meanwhile
                continue
            found.append((used, folder_bytes(path), path))
        return sorted(found, key=lambda entry: entry[0])

    def evict(self, keep: str = "") -> list[str]:
        """Delete the least recently used folders until the cache is within its bounds; the
        SHA-256s evicted."""
        evicted: list[str] = []
        with self._locked("evict.lock"):
            entries = self.entries()
            count, total = len(entries), sum(size for _, size, _ in entries)
            now = time.time()
            for used, size, path in entries:
                if count <= self.max_entries and total <= self.max_bytes:
                    break
                if path.name == keep or now - used < self.keep_recent_seconds:
                    continue
                trash = self.root / f".evicted-{uuid.uuid4().hex}"
                try:
                    path.rename(trash)
                except FileNotFoundError:
                    continue
                shutil.rmtree(trash, ignore_errors=True)
                evicted.append(path.name)
                count, total = count - 1, total - size
            self._clear_leftovers(now)
        return evicted

    def _clear_leftovers(self, now: float) -> None:
        for path in self.root.iterdir():
            if not path.name.startswith((".unpacking-", ".evicted-")):
                continue
            with contextlib.suppress(FileNotFoundError):
                if now - path.stat().st_mtime > LEFTOVER_SECONDS:
                    shutil.rmtree(path, ignore_errors=True)


def folder_bytes(path: Path) -> int:
    total = 0
    for folder, _, names in os.walk(path):
        for name in names:
            with contextlib.suppress(FileNotFoundError):
                total += os.lstat(os.path.join(folder, name)).st_size
    return total
