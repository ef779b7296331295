"""Reading bundles without trusting them: a zip (uploads, and the CLI) or a folder (the CLI).

Every entry's path goes through `paths.safe_member_path`; symlinks, devices and encrypted entries
are refused; the file count, each entry's real size (counted while reading, never the size the
zip declares) and the total are bounded. Nothing in a bundle is ever imported or run here."""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import tempfile
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import BinaryIO

from .errors import BundleError
from .limits import DEFAULT_LIMITS, MIB, BundleLimits
from .manifest import MANIFEST_NAME, Manifest, parse_manifest
from .paths import check_distinct, safe_member_path

CHUNK = 64 * 1024


@dataclass(frozen=True)
class Contents:
    """What a bundle holds, once checked: its manifest and its files (relative paths)."""

    manifest: Manifest
    files: tuple[str, ...]
    unpacked_bytes: int
    sha256: str  # of the zip as uploaded (of the files, for a folder)
    size: int  # bytes of the zip (of the files, for a folder)


def _zip(source: BinaryIO) -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(source)
    except (zipfile.BadZipFile, OSError, EOFError):
        raise BundleError("not a zip file: upload the bundle as a .zip archive") from None


def _zip_entries(
    archive: zipfile.ZipFile, limits: BundleLimits
) -> tuple[list[tuple[zipfile.ZipInfo, PurePosixPath]], str]:
    """The file entries with their safe paths, and the folder prefix to drop (a zip made of a
    folder holds `greedy/bot.toml`: the bundle is that folder)."""
    infos = archive.infolist()
    files = [info for info in infos if not info.is_dir()]
    if len(files) > limits.max_files:
        raise BundleError(f"too many files: {len(files)} in the bundle, at most {limits.max_files}")
    entries = []
    for info in infos:
        path = safe_member_path(info.filename, limits)
        mode = info.external_attr >> 16
        kind = stat.S_IFMT(mode)
        if kind == stat.S_IFLNK:
            raise BundleError(f"symlink {str(path)!r}: bundles may not hold symbolic links")
        if kind not in (0, stat.S_IFREG, stat.S_IFDIR):
            raise BundleError(f"{str(path)!r} is not a regular file (a device or a pipe)")
        if info.flag_bits & 0x1:
            raise BundleError(f"{str(path)!r} is encrypted: bundles may not be encrypted")
        if not info.is_dir():
            entries.append((info, path))
    check_distinct([path for _, path in entries])
    prefix = _top_folder([path for _, path in entries])
    return entries, prefix


def _top_folder(paths: list[PurePosixPath]) -> str:
    if PurePosixPath(MANIFEST_NAME) in paths:
        return ""
    tops = {p.parts[0] for p in paths}
    if len(tops) == 1 and all(len(p.parts) > 1 for p in paths):
        top = tops.pop()
        if PurePosixPath(top, MANIFEST_NAME) in paths:
            return top
    raise BundleError(
        f"bad manifest: no {MANIFEST_NAME} at the top of the bundle (put it next to your bot's "
        "files, or in the one folder the zip holds)"
    )


def _strip(path: PurePosixPath, prefix: str) -> PurePosixPath:
    return PurePosixPath(*path.parts[1:]) if prefix else path


def _read_entries(
    archive: zipfile.ZipFile, entries, limits: BundleLimits
) -> Iterator[tuple[zipfile.ZipInfo, Iterator[bytes]]]:
    """Each entry with an iterator over its bytes that stops the whole bundle at the limit."""
    total = 0
    for info, _ in entries:

        def chunks(info=info):
            nonlocal total
            try:
                with archive.open(info) as stream:
                    while chunk := stream.read(CHUNK):
                        total += len(chunk)
                        if total > limits.max_unpacked_bytes:
                            raise BundleError(
                                f"too big unpacked: over {limits.max_unpacked_bytes // MIB} MiB"
                            )
                        yield chunk
            except (
                zipfile.BadZipFile,
                zipfile.LargeZipFile,
                NotImplementedError,
                OSError,
                EOFError,
                ValueError,
            ) as exc:
                raise BundleError(f"cannot read {info.filename!r} in the zip: {exc}") from None

        yield info, chunks()


def _file_sha256(source: BinaryIO) -> tuple[str, int]:
    digest = hashlib.sha256()
    size = 0
    source.seek(0)
    while chunk := source.read(CHUNK):
        digest.update(chunk)
        size += len(chunk)
    source.seek(0)
    return digest.hexdigest(), size


def _check_size(source: BinaryIO, limits: BundleLimits) -> tuple[str, int]:
    sha, size = _file_sha256(source)
    if size > limits.max_bundle_bytes:
        raise BundleError(
            f"bundle too big: {size / MIB:.1f} MiB, at most {limits.max_bundle_bytes // MIB} MiB"
        )
    return sha, size


def inspect_zip(source: BinaryIO, limits: BundleLimits = DEFAULT_LIMITS) -> Contents:
    """Check a zip bundle entirely (every byte is read, none written) and return its contents."""
    sha, size = _check_size(source, limits)
    with _zip(source) as archive:
        entries, prefix = _zip_entries(archive, limits)
        manifest_data = b""
        total = 0
        for info, chunks in _read_entries(archive, entries, limits):
            is_manifest = _strip(PurePosixPath(info.filename), prefix) == PurePosixPath(
                MANIFEST_NAME
            )
            for chunk in chunks:
                total += len(chunk)
                if is_manifest:
                    manifest_data += chunk
    source.seek(0)
    files = tuple(str(_strip(path, prefix)) for _, path in entries)
    manifest = parse_manifest(manifest_data)
    check_program(manifest, files)
    return Contents(manifest, files, total, sha, size)


def unpack_zip(source: BinaryIO, dest: Path, limits: BundleLimits = DEFAULT_LIMITS) -> Contents:
    """Check the zip as `inspect_zip` does and unpack it into the new folder `dest` (created
    whole or not at all). Files keep an executable bit the zip gives them, nothing else."""
    contents = inspect_zip(source, limits)
    dest = Path(dest)
    staging = Path(tempfile.mkdtemp(prefix=".unpacking-", dir=dest.parent))
    try:
        with _zip(source) as archive:
            entries, prefix = _zip_entries(archive, limits)
            for info, chunks in _read_entries(archive, entries, limits):
                target = staging.joinpath(*_strip(PurePosixPath(info.filename), prefix).parts)
                target.parent.mkdir(parents=True, exist_ok=True)
                with open(target, "xb") as out:
                    for chunk in chunks:
                        out.write(chunk)
                executable = (info.external_attr >> 16) & 0o111
                os.chmod(target, 0o755 if executable else 0o644)
        program = contents.manifest.command[:1]
        if program and "/" in program[0] and not program[0].startswith("/"):
            # The program the manifest starts is executable even when the zip lost the bit
            # (zips made on Windows have none).
            os.chmod(staging.joinpath(*PurePosixPath(program[0]).parts), 0o755)
        for folder, _, _ in os.walk(staging):
            os.chmod(folder, 0o755)
        staging.rename(dest)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return contents


def inspect_folder(root: Path, limits: BundleLimits = DEFAULT_LIMITS) -> Contents:
    """Check a folder bundle (the CLI's): the same rules as a zip, symlinks refused."""
    root = Path(root)
    if not root.is_dir():
        raise BundleError(f"{str(root)!r} is not a folder")
    files: list[str] = []
    total = 0
    digest = hashlib.sha256()
    for folder, dirs, names in os.walk(root, followlinks=False):
        dirs.sort()
        for name in sorted(dirs + names):
            path = Path(folder, name)
            relative = path.relative_to(root).as_posix()
            if path.is_symlink():
                raise BundleError(f"symlink {relative!r}: bundles may not hold symbolic links")
            if name in dirs:
                continue
            if not path.is_file():
                raise BundleError(f"{relative!r} is not a regular file (a device or a pipe)")
            safe_member_path(relative, limits)
            files.append(relative)
            if len(files) > limits.max_files:
                raise BundleError(f"too many files: over {limits.max_files} in the bundle")
            total += path.stat().st_size
            if total > limits.max_unpacked_bytes:
                raise BundleError(f"too big: over {limits.max_unpacked_bytes // MIB} MiB of files")
            digest.update(relative.encode() + b"\0")
            digest.update(path.read_bytes())
    if MANIFEST_NAME not in files:
        raise BundleError(f"bad manifest: no {MANIFEST_NAME} in {str(root)!r}")
    manifest = parse_manifest((root / MANIFEST_NAME).read_bytes())
    check_program(manifest, tuple(files))
    return Contents(manifest, tuple(files), total, digest.hexdigest(), total)


def check_program(manifest: Manifest, files: tuple[str, ...]) -> None:
    """A program or module the manifest names inside the bundle is there."""
    present = set(files)
    if manifest.python_class:
        if not present & set(manifest.module_file_candidates):
            first, second = manifest.module_file_candidates
            raise BundleError(
                f"no such module: python_class {manifest.python_class!r} needs {first} or "
                f"{second} in the bundle"
            )
        return
    program = manifest.command[0]
    if "/" in program and not program.startswith("/"):
        relative = str(PurePosixPath(program))
        if relative not in present:
            raise BundleError(f"no such command: {program!r} is not a file of the bundle")
