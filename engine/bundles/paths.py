"""The one rule for a path inside a bundle: relative, inside the bundle, plainly spelt. Applied to
every zip entry and every file of a folder bundle, so that nothing unpacks outside its folder
(zip slip) whatever the archive says."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from .errors import BundleError
from .limits import BundleLimits

DRIVE = re.compile(r"^[A-Za-z]:")


def safe_member_path(name: str, limits: BundleLimits) -> PurePosixPath:
    """The relative path of an archive entry, or a BundleError naming what makes it unsafe."""
    shown = name[:80]
    if "\0" in name or "\\" in name:
        raise BundleError(f"unsafe path {shown!r}: NUL or backslash in a file name")
    if name.startswith("/") or DRIVE.match(name):
        raise BundleError(f"unsafe path {shown!r}: absolute paths are not allowed")
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise BundleError(f"unsafe path {shown!r}: it goes out of the bundle's folder (..)")
    if not parts:
        raise BundleError(f"unsafe path {shown!r}: empty file name")
    if len(name) > limits.max_path_length:
        raise BundleError(f"path {shown!r}... is over {limits.max_path_length} characters")
    if len(parts) > limits.max_depth:
        raise BundleError(f"path {shown!r} is over {limits.max_depth} folders deep")
    return PurePosixPath(*parts)


def check_distinct(paths: list[PurePosixPath]) -> None:
    """No path twice, and no path that is both a file and a folder."""
    seen: set[PurePosixPath] = set()
    for path in paths:
        if path in seen:
            raise BundleError(f"duplicate file name {str(path)!r} in the bundle")
        seen.add(path)
    for path in paths:
        for parent in path.parents:
            if parent in seen:
                raise BundleError(f"{str(parent)!r} is both a file and a folder in the bundle")
