"""Fixtures for the tournaments tests.

Most tests run on the test database of pytest-django (SQLite in memory unless DATABASE_URL
says otherwise). Tests marked `services` run real Celery workers on a real Redis broker and a
real PostgreSQL database, in subprocesses, like production: their fixtures (`postgres_url`,
`services_env`) are in tests/e2e_support.py, shared with the other test folders.
"""

from __future__ import annotations

import pytest
from django.core.cache import caches

from tests.e2e_support import (  # noqa: F401 (the services tests import them from here)
    PROJECT_DIR,
    TEST_DATABASE_URL,
    TEST_REDIS_URL,
    parse_json_output,
    sql,
)
from tournaments.builders import bots_named, create_tournament


@pytest.fixture
def random_bots(db):
    """Sixteen distinct random bots: "random", "random #2", ... "random #16"."""
    return bots_named(["random"] * 16)


@pytest.fixture
def make_tournament(db, random_bots):
    def make(entrants: int = 8, **fields):
        defaults = dict(
            name="test",
            variant="paulista",
            format="single-elimination",
            bots=random_bots[:entrants],
            games_per_match=4,
            seed=11,
            seeding="order",
        )
        return create_tournament(**{**defaults, **fields})

    return make


@pytest.fixture
def live_cache(settings):
    """The `live` cache (the spectators' feeds, the followers' payloads) in this process's
    memory, empty at the start and the end of the test."""
    settings.CACHES = {
        **settings.CACHES,
        "live": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "live"},
    }
    caches["live"].clear()
    yield caches["live"]
    caches["live"].clear()
