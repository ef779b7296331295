"""The bundle limits of this server, from its settings."""

from __future__ import annotations

from django.conf import settings

from engine.bundles import MIB, BundleLimits


def server_limits() -> BundleLimits:
    return BundleLimits(
        max_bundle_bytes=settings.TRUCO_BUNDLE_MAX_MB * MIB,
        max_files=settings.TRUCO_BUNDLE_MAX_FILES,
        max_unpacked_bytes=settings.TRUCO_BUNDLE_MAX_UNPACKED_MB * MIB,
    )
