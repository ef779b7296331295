"""A stored bundle, unpacked for the jail: one folder per SHA-256 under TRUCO_BUNDLE_CACHE_DIR,
made once (checked again on the way: the stored zip is trusted no more than the upload) and
mounted read-only as the bot's own folder. Nothing here runs or imports the bundle."""

from __future__ import annotations

import hashlib
from pathlib import Path

from django.conf import settings

from engine.bundles import BundleError, LoadedBundle, Manifest, bundle_spec, unpack_zip
from submitted_bots.bundles.limits import server_limits
from submitted_bots.models import Bot


def unpacked_folder(bot: Bot) -> Path:
    """The folder holding the bot's files (unpacked now if it is not yet)."""
    cache = Path(settings.TRUCO_BUNDLE_CACHE_DIR)
    folder = cache / bot.sha256
    if folder.is_dir():
        return folder
    cache.mkdir(parents=True, exist_ok=True)
    with bot.bundle.open("rb") as stored:
        digest = hashlib.sha256()
        while chunk := stored.read(1 << 16):
            digest.update(chunk)
        if digest.hexdigest() != bot.sha256:
            raise BundleError(f"the stored bundle of {bot.label} does not match its SHA-256")
        stored.seek(0)
        try:
            unpack_zip(stored, folder, server_limits())
        except OSError:
            if not folder.is_dir():  # another process unpacked it first: that is the same
                raise
    return folder


def spec_for_bundle(bot: Bot):
    """The BotSpec that runs this bundle version in the jail."""
    bundle = LoadedBundle(unpacked_folder(bot), Manifest.from_json(bot.manifest))
    return bundle_spec(bundle, name=bot.label)
