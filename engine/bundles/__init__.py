"""Bot bundles: a zip (or, for the CLI, a folder) holding `bot.toml` and the bot's files, run in
the jail as a command. Pure Python, no Django: the server and the CLI share every check.

- `manifest`: parsing and checking `bot.toml`;
- `paths`, `archive`: reading zips and folders without trusting them (zip slip, symlinks,
  sizes, counts);
- `loading`: a checked bundle on disk, turned into the jail's Program and a BotSpec;
- `params`: the `[params]` a manifest declares, and the check of the values a match gives;
- `checks`: what needs the registry (reserved names, the game a bundle says it plays).
"""

from .archive import Contents, inspect_folder, inspect_zip, unpack_zip
from .checks import check_as_uploaded, check_name_not_reserved, check_plays
from .errors import BundleError
from .limits import DEFAULT_LIMITS, MIB, BundleLimits
from .loading import LoadedBundle, bundle_program, bundle_spec, load_bundle, looks_like_bundle
from .manifest import MANIFEST_NAME, Manifest, check_against_registry, parse_manifest
from .params import Param, ParamError, resolve_params

__all__ = [
    "DEFAULT_LIMITS",
    "MIB",
    "MANIFEST_NAME",
    "BundleError",
    "BundleLimits",
    "Contents",
    "LoadedBundle",
    "Manifest",
    "Param",
    "ParamError",
    "bundle_program",
    "bundle_spec",
    "check_against_registry",
    "check_as_uploaded",
    "check_name_not_reserved",
    "check_plays",
    "inspect_folder",
    "inspect_zip",
    "load_bundle",
    "looks_like_bundle",
    "parse_manifest",
    "resolve_params",
    "unpack_zip",
]
