"""Fixtures for the tournaments tests.

Most tests run on the test database of pytest-django (SQLite in memory unless DATABASE_URL
says otherwise). Tests marked `services` run real Celery workers on a real Redis broker and a
real PostgreSQL database, in subprocesses, like production:

- TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/truco_arena_test): a fresh
  database named after it (suffixed with the process id) is created and migrated for the
  session, and dropped afterwards;
- TEST_REDIS_URL (default redis://127.0.0.1:6379/15): each test uses a queue of its own.

Where a server is unreachable those tests are skipped with the reason, so that `make test` runs
on a machine without them; CI sets TRUCO_REQUIRE_SERVICES=1 (in .ci/run), which turns the skip
into a failure, so a broken service can never pass unnoticed there.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from tournaments.builders import bots_named, create_tournament

PROJECT_DIR = Path(__file__).resolve().parents[2]
TEST_DATABASE_URL = os.environ.get(
    "TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/truco_arena_test"
)
TEST_REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


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


# --- real services ------------------------------------------------------------------------


def _with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


def require_service(name: str, check) -> None:
    try:
        check()
    except Exception as exc:
        reason = f"{name} is not reachable ({type(exc).__name__}: {exc})".strip()
        if os.environ.get("TRUCO_REQUIRE_SERVICES"):
            pytest.fail(f"{reason}; TRUCO_REQUIRE_SERVICES is set", pytrace=False)
        pytest.skip(reason)


def _ping_redis() -> None:
    import redis

    client = redis.Redis.from_url(TEST_REDIS_URL, socket_connect_timeout=2)
    try:
        client.ping()
    finally:
        client.close()


@pytest.fixture(scope="session")
def postgres_url():
    """A fresh, migrated PostgreSQL database for this test session."""
    import psycopg

    base = urlsplit(TEST_DATABASE_URL).path.lstrip("/") or "truco_arena_test"
    name = f"{base}_{os.getpid()}"
    admin_url = _with_database(TEST_DATABASE_URL, "postgres").replace(
        "postgres://", "postgresql://", 1
    )
    require_service("PostgreSQL", lambda: psycopg.connect(admin_url, connect_timeout=3).close())
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    url = _with_database(TEST_DATABASE_URL, name)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=PROJECT_DIR,
        env={**os.environ, "DATABASE_URL": url},
        check=True,
    )
    yield url
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def services_env(postgres_url, tmp_path):
    """Environment for subprocesses on the real services, with a queue of this test's own.
    Redis hands a dead worker's messages to another after 2 s; the lease is long, so that a
    recovery in these tests comes from the redelivery, not from a sweep."""
    require_service("Redis", _ping_redis)
    env = {
        **os.environ,
        "DATABASE_URL": postgres_url,
        "CELERY_BROKER_URL": TEST_REDIS_URL,
        "TRUCO_QUEUE": f"test-{uuid.uuid4().hex[:12]}",
        "CELERY_VISIBILITY_TIMEOUT": "2",
        "CELERY_RESTORE_INTERVAL": "1",
        "TRUCO_MATCH_LEASE_SECONDS": "120",
        "TRUCO_VAR_DIR": str(tmp_path / "var"),
    }
    env.pop("REDIS_URL", None)
    yield env
    import redis

    queue = env["TRUCO_QUEUE"]
    client = redis.Redis.from_url(TEST_REDIS_URL)
    client.delete(queue, f"_kombu.binding.{queue}", f"_kombu.binding_permanent.{queue}")
    client.close()


def sql(url: str, query: str, *params):
    """Rows of a query on the services database (what the workers wrote)."""
    import psycopg

    with psycopg.connect(url.replace("postgres://", "postgresql://", 1)) as conn:
        return conn.execute(query, params).fetchall()


def parse_json_output(stdout: str) -> dict:
    """The last line of `run_tournament --json`."""
    return json.loads(stdout.strip().splitlines()[-1])
