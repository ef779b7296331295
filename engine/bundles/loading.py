"""A bundle ready to run: checked, unpacked into a folder, and turned into the jail's Program.

For the CLI, a bundle is a folder or a .zip given where a bot name goes
(`python -m engine arena --bots ./mybot random`); a zip is unpacked into a temporary folder that
lives as long as the process. The server unpacks uploaded zips itself (submitted_bots/bundles)."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..jail import Program
from ..jail.actor import bundle_shim_command
from ..runner import BotSpec
from .archive import Contents, inspect_folder, unpack_zip
from .errors import BundleError
from .limits import DEFAULT_LIMITS, BundleLimits
from .manifest import Manifest
from .params import resolve_params


@dataclass(frozen=True)
class LoadedBundle:
    root: Path  # the folder the bot's files are in (mounted read-only in the jail)
    manifest: Manifest
    contents: Contents | None = None  # what the check found, when it was checked here

    @property
    def label(self) -> str:
        return self.manifest.name


def looks_like_bundle(text: str) -> bool:
    """A bot argument names a bundle (a path) rather than a registered bot: it has a slash or
    ends in .zip (write `./mybot` for a folder here: a bare name is always a registered bot)."""
    return "/" in text or text.endswith(".zip")


def load_bundle(path: str | Path, limits: BundleLimits = DEFAULT_LIMITS) -> LoadedBundle:
    """A folder or zip bundle on disk, checked (and unpacked, for a zip)."""
    path = Path(path)
    if path.is_dir():
        contents = inspect_folder(path, limits)
        return LoadedBundle(path.resolve(), contents.manifest, contents)
    if not path.exists():
        raise BundleError(f"no bundle at {str(path)!r}: give a bundle folder or .zip file")
    scratch = Path(tempfile.mkdtemp(prefix="truco-bundle-"))
    atexit.register(shutil.rmtree, scratch, True)
    try:
        with open(path, "rb") as source:
            contents = unpack_zip(source, scratch / "files", limits)
    except OSError as exc:
        raise BundleError(f"cannot read {str(path)!r}: {exc.strerror}") from None
    return LoadedBundle(scratch / "files", contents.manifest, contents)


def bundle_program(bundle: LoadedBundle):
    """The jail's Program for this bundle: its command with its files at /bot; for a Python
    bundle, the jail's protocol shim loading its class from /bot."""
    manifest = bundle.manifest
    if manifest.python_class:
        command, binds = bundle_shim_command(*manifest.python_class.split(":"))
        return Program(tuple(command), str(bundle.root), binds)
    return Program(manifest.command, str(bundle.root))


def bundle_spec(bundle: LoadedBundle, name: str | None = None, params=None):
    """The BotSpec that runs this bundle: always in the jail, with every parameter its
    manifest declares (`params` given, checked; the others at their defaults: params.py)."""
    resolved = resolve_params(bundle.manifest.params, params, bot=repr(bundle.label))
    return BotSpec(name or bundle.label, resolved, isolation="jail", program=bundle_program(bundle))
