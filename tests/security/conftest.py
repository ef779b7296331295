from __future__ import annotations

import pytest

from tests.surface import *  # noqa: F401,F403 (shared fixtures)


@pytest.fixture(autouse=True)
def play_inline(settings):
    """Advance live matches in the request instead of through a Celery task."""
    settings.TRUCO_TABLES = "inline"
