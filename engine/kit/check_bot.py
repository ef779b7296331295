"""`python -m engine check-bot BUNDLE`: what the server does with an upload, here, with its
messages: the archive's checks (a folder is zipped first, as it would be uploaded), the
manifest's against this server's variants and reserved names, then the validation smoke match
in the jail (engine/bundles/smoke.py, with the server's defaults: 2 games against random per
game setting, 2 s per decision).

Exit codes: 0 ready (the server would accept it), 1 rejected (the reason is printed), 2 bad
usage (no such file, a parameter it does not take, no jail here).
"""

from __future__ import annotations

import io
import os
import shutil
import stat
import sys
import tempfile
import zipfile
from pathlib import Path

from ..bundles import (
    DEFAULT_LIMITS,
    BundleError,
    LoadedBundle,
    ParamError,
    bundle_spec,
    check_as_uploaded,
    inspect_folder,
    inspect_zip,
    unpack_zip,
)
from ..bundles.params import value_from_text
from ..bundles.smoke import OPPONENT, SMOKE_SEED, smoke_test
from ..cli_bots import parameter_items, split_bundle_argument
from ..errors import TrucoError
from ..plugins import registry

# The server's TRUCO_VALIDATION_GAMES (config/settings.py); its time per decision is that of the
# tournaments the version may enter (at most TRUCO_MAX_BOT_DECISION_SECONDS, 10): 2 s here is
# stricter, so that a bot ready here is ready there.
VALIDATION_GAMES = 2
VALIDATION_DECISION_SECONDS = 2.0
READY, REJECTED, USAGE = 0, 1, 2
LOG_TAIL_LINES = 30


class Rejected(Exception):
    """What the server would refuse the bundle with."""


def zip_folder(root: Path) -> bytes:
    """The zip an author would upload of this folder: its files at the top, executable bits
    kept (the folder was checked first: no links, nothing but files)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for folder, dirs, names in os.walk(root):
            dirs.sort()
            for name in sorted(names):
                path = Path(folder, name)
                info = zipfile.ZipInfo(path.relative_to(root).as_posix(), (1980, 1, 1, 0, 0, 0))
                mode = path.stat().st_mode
                info.external_attr = (stat.S_IFREG | (0o755 if mode & 0o111 else 0o644)) << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, path.read_bytes())
    return buffer.getvalue()


def read_bundle(path: Path) -> bytes:
    """The bytes the server would receive: the zip, or the folder zipped."""
    if path.is_dir():
        try:
            inspect_folder(path, DEFAULT_LIMITS)
        except BundleError as exc:
            raise Rejected(str(exc)) from None
        return zip_folder(path)
    try:
        return path.read_bytes()
    except OSError as exc:
        raise TrucoError(f"cannot read {str(path)!r}: {exc.strerror}") from None


def kib(size: int) -> str:
    return f"{size / 1024:.1f} KiB"


def describe_settings(settings: list[tuple[str, int]]) -> str:
    by_variant: dict[str, list[int]] = {}
    for variant, players in settings:
        by_variant.setdefault(variant, []).append(players)
    return ", ".join(
        f"{variant} ({' or '.join(map(str, counts))} players)"
        for variant, counts in by_variant.items()
    )


def run_check_bot(args) -> int:
    split = split_bundle_argument(args.bundle)
    if split is None:  # check-bot takes only bundles: a bare folder name is one here
        text = args.bundle
        split = (text, "") if Path(text).exists() else text.partition(":")[::2]
    path_text, raw = split
    path = Path(path_text)
    if not path.exists():
        raise TrucoError(f"no bundle at {path_text!r}: give a bundle folder or .zip file")
    reg = registry()
    shown = "a folder, zipped as you would upload it" if path.is_dir() else "a zip"
    print(f"checking {path_text} ({shown})")
    try:
        data = read_bundle(path)
        try:
            contents = inspect_zip(io.BytesIO(data), DEFAULT_LIMITS)
        except BundleError as exc:
            raise Rejected(str(exc)) from None
        print(
            f"  archive   ok: {len(contents.files)} files, {kib(contents.size)} zipped, "
            f"{kib(contents.unpacked_bytes)} unpacked ({DEFAULT_LIMITS.describe()})"
        )
        manifest = contents.manifest
        try:
            check_as_uploaded(manifest, reg)
        except BundleError as exc:
            raise Rejected(str(exc)) from None
        run = " ".join(manifest.command) if manifest.command else f"class {manifest.python_class}"
        print(f"  manifest  ok: {manifest.name!r}, runs {run}")
        settings = manifest.configurations(reg)
        print(f"  plays     {describe_settings(settings)}: {len(settings)} game settings")
        given = {
            key: value_from_text(manifest.params, key, value)
            for key, value in parameter_items(raw, args.bundle)
        }
        return smoke(args, data, manifest, given, reg)
    except Rejected as exc:
        print(f"rejected: {exc}")
        return REJECTED


def smoke(args, data: bytes, manifest, given: dict, reg) -> int:
    scratch = Path(tempfile.mkdtemp(prefix="truco-check-bot-"))
    try:
        # Unpacked as a worker unpacks an upload, and run from there.
        unpack_zip(io.BytesIO(data), scratch / "files", DEFAULT_LIMITS)
        bundle = LoadedBundle(scratch / "files", manifest)
        try:
            spec = bundle_spec(bundle, params=given)
        except ParamError:
            raise  # the command line's values, not the bundle's fault: bad usage
        if spec.params:
            shown = ", ".join(f"{k}={v!r}" for k, v in spec.params.items())
            print(f"  params    {shown}")
        print(
            f"  smoke match: {VALIDATION_GAMES} games against {OPPONENT} per setting, "
            f"{VALIDATION_DECISION_SECONDS:g} s per decision, in the jail"
        )
        sys.stdout.flush()
        report = smoke_test(
            spec,
            manifest,
            reg,
            games=VALIDATION_GAMES,
            decision_seconds=VALIDATION_DECISION_SECONDS,
        )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    for setting in report.settings:
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(setting.terminations.items()))
        print(
            f"    {setting.variant:<10} {setting.players} players  {setting.games} games, "
            f"won {setting.wins}  {kinds}"
        )
    if args.logs:
        folder = Path(args.logs)
        folder.mkdir(parents=True, exist_ok=True)
        log_path = folder / f"{manifest.name}-smoke.log"
        log_path.write_text(report.log, encoding="utf-8")
        print(f"  log: {log_path} ({len(report.log.encode()):,} bytes)")
    if not report.ok:
        print(f"rejected: {report.reason}")
        tail = report.log.rstrip().splitlines()[-LOG_TAIL_LINES:]
        if tail and not args.logs:
            print(f"its log (last {len(tail)} lines; --logs DIR keeps it all):")
            print("\n".join("  " + line for line in tail))
        return REJECTED
    print(
        f"ready: the server would accept {manifest.name!r} (smoke match {report.seconds:.1f} s, "
        f"seed {SMOKE_SEED})"
    )
    if args.zip:
        Path(args.zip).write_bytes(data)
        print(f"wrote {args.zip} ({kib(len(data))}): upload it on 'My bots' or POST /api/bots/")
    return READY
