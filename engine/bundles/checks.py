"""The checks of a bundle that need the server's registry, in the server's words: its variants
and player counts exist (manifest.check_against_registry), its name is not a built-in bot's,
and, for a match, that it plays the game asked of it.

The server's upload (submitted_bots/bundles/uploads.py) checks the name in
submitted_bots/names.py with the same message; `check_bot` (engine/kit/check_bot.py) and the
CLI's matches use these."""

from __future__ import annotations

from .errors import BundleError
from .manifest import Manifest, check_against_registry


def reserved_names(registry) -> frozenset[str]:
    """The registered bots' names, in lower case: no user's bot may take one, in any case."""
    return frozenset(name.lower() for name in registry.bots)


def check_name_not_reserved(name: str, registry) -> None:
    reserved = reserved_names(registry)
    if name.lower() in reserved:
        raise BundleError(
            f"bad manifest: {name!r} is the name of a built-in bot and is reserved; "
            f"reserved names: {', '.join(sorted(reserved))}"
        )


def check_as_uploaded(manifest: Manifest, registry) -> None:
    """What the server checks of an uploaded bundle's manifest once the archive is read."""
    check_against_registry(manifest, registry)
    check_name_not_reserved(manifest.name, registry)


def check_plays(manifest: Manifest, variant: str, players: int, shown: str = "") -> None:
    """The bundle says it plays `variant` with `players` players (the server never enters it
    anywhere else), or a BundleError saying what it does play."""
    if manifest.supports(variant, players):
        return
    said = []
    if manifest.variants:
        said.append("variants = [" + ", ".join(f'"{v}"' for v in manifest.variants) + "]")
    if manifest.players:
        said.append("players = [" + ", ".join(map(str, manifest.players)) + "]")
    where = f" ({shown})" if shown and shown != manifest.name else ""
    raise BundleError(
        f"bundle {manifest.name!r}{where} does not play {variant} with {players} players: its "
        f"bot.toml says {', '.join(said)}; change the game (--variant, --players) or the manifest"
    )
