"""A stored bundle, unpacked for the jail: this machine's copy of it (bundles/cache.py: fetched
from the bundle storage, a folder or an object store, once per machine, checked against its
SHA-256, kept in a bounded cache under TRUCO_BUNDLE_CACHE_DIR) mounted read-only as the bot's
own folder. Nothing here runs or imports the bundle."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings

from engine.bundles import MIB, LoadedBundle, Manifest, bundle_spec
from submitted_bots.bundles.cache import BundleCache
from submitted_bots.bundles.limits import server_limits
from submitted_bots.models import Bot


def bundle_cache() -> BundleCache:
    return BundleCache(
        Path(settings.TRUCO_BUNDLE_CACHE_DIR),
        max_bytes=settings.TRUCO_BUNDLE_CACHE_MB * MIB,
        max_entries=settings.TRUCO_BUNDLE_CACHE_ENTRIES,
    )


def unpacked_folder(bot: Bot) -> Path:
    """The folder holding the bot's files (fetched and unpacked now if it is not yet)."""
    return (
        bundle_cache()
        .folder(bot.sha256, lambda: bot.bundle.open("rb"), server_limits(), label=bot.label)
        .path
    )


def spec_for_bundle(bot: Bot):
    """The BotSpec that runs this bundle version in the jail."""
    bundle = LoadedBundle(unpacked_folder(bot), Manifest.from_json(bot.manifest))
    return bundle_spec(bundle, name=bot.label)
