"""Fixtures of every test: the real services (tests/e2e_support.py) and the `postgres` mark.

A test marked `@pytest.mark.postgres`, or using the `live_stack` fixture, runs on this test
process's own PostgreSQL database without the per-test transaction (see e2e_support)."""

from __future__ import annotations

import os

import pytest
from django.conf import settings

# The servers and workers the tests start share this process's secret key (a development
# checkout draws its own, kept under its var/, and theirs is another folder): the bots' seeds
# and the daily deals are keyed with it, as on one site.
os.environ.setdefault("DJANGO_SECRET_KEY", settings.SECRET_KEY)

from tests.e2e_support import (  # noqa: F401 (fixtures)
    default_database_at,
    live_stack,
    postgres_orm_url,
    postgres_template,
    postgres_url,
    services_env,
)
from tests.s3_support import _moto_thread, s3_process, s3_server  # noqa: F401 (fixtures)


def pytest_collection_modifyitems(items):
    for item in items:
        if "live_stack" in item.fixturenames and item.get_closest_marker("postgres") is None:
            item.add_marker(pytest.mark.postgres)
        if item.get_closest_marker("postgres") is not None:
            item.add_marker(pytest.mark.django_db(transaction=True))


@pytest.fixture(autouse=True)
def worker_check_off(settings):
    """No test asks the broker for workers unless it turns the check on itself; passwords are
    hashed with a thousand rounds, not a million (tests/fast_hasher.py)."""
    settings.TRUCO_WORKER_CHECK_SECONDS = 0
    # Standings and brackets as they are at each request (the followers' cache has its own
    # test: tests/tournaments/test_follow_cache.py).
    settings.TRUCO_FOLLOW_CACHE_SECONDS = 0
    # Tables are played by the requests themselves unless a test brings table hosts (the
    # live stack's processes have theirs).
    settings.TRUCO_TABLES = "inline"
    # Every ladder board schedules at once in process; the cap the boards share (and which board
    # goes first) has its own tests in tests/tournaments/test_ladder.py, and the demo's
    # end-to-end test runs with the default.
    settings.TRUCO_LADDER_IN_FLIGHT_TOTAL = 100
    settings.PASSWORD_HASHERS = [
        "tests.fast_hasher.FastPBKDF2PasswordHasher",
        "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    ]


@pytest.fixture
def django_db_setup(django_db_setup, request):
    """pytest-django's test database, or, for a `postgres` test, this process's PostgreSQL
    database in its place for the time of the test (its tables emptied afterwards)."""
    if request.node.get_closest_marker("postgres") is None:
        yield
        return
    with default_database_at(request.getfixturevalue("postgres_orm_url")):
        yield
