"""The one error a bundle is refused with: its message says what is wrong and what to change."""

from __future__ import annotations

from ..errors import TrucoError


class BundleError(TrucoError):
    """A bundle that cannot be accepted: bad archive, bad path, over a limit, bad manifest."""
