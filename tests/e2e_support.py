"""The real services for tests: PostgreSQL databases of this test process, Redis queues of one
test, and a live stack (a web server and a Celery worker in their own processes, on PostgreSQL
and Redis), as in production. `tests/conftest.py` makes the fixtures visible to every test.

- TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/truco_arena_test): one
  database is migrated for the session (named after it, suffixed with the process id) and
  copied, as a PostgreSQL template, into `postgres_url` (what worker subprocesses write to)
  and `postgres_orm_url` (what `@pytest.mark.postgres` tests and the live stack use); all are
  dropped afterwards.
- TEST_REDIS_URL (default redis://127.0.0.1:6379/15): each test uses a queue of its own.

`@pytest.mark.postgres` runs a test on PostgreSQL without the per-test transaction (Django's
TransactionTestCase: what it commits is committed, and the tables are emptied afterwards), so
that row locks, commits and `on_commit` hand-offs behave as in production. SQLite ignores
`select_for_update`, and the per-test transaction hides "outside of a transaction" errors.

Where a server is unreachable those tests are skipped with the reason, so that `make test` runs
on a machine without them; CI sets TRUCO_REQUIRE_SERVICES=1 (in .ci/run), which turns the skip
into a failure, so a broken service can never pass unnoticed there.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import uuid
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

PROJECT_DIR = Path(__file__).resolve().parents[1]
TEST_DATABASE_URL = os.environ.get(
    "TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/truco_arena_test"
)
TEST_REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


def require_service(name: str, check) -> None:
    try:
        check()
    except Exception as exc:
        reason = f"{name} is not reachable ({type(exc).__name__}: {exc})".strip()
        if os.environ.get("TRUCO_REQUIRE_SERVICES"):
            pytest.fail(f"{reason}; TRUCO_REQUIRE_SERVICES is set", pytrace=False)
        pytest.skip(reason)


def ping_redis(url: str = TEST_REDIS_URL) -> None:
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=2)
    try:
        client.ping()
    finally:
        client.close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# --- PostgreSQL ---------------------------------------------------------------------------


def _with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


def _admin_url() -> str:
    return _with_database(TEST_DATABASE_URL, "postgres").replace("postgres://", "postgresql://", 1)


def _admin_sql(*statements: str) -> None:
    import psycopg

    with psycopg.connect(_admin_url(), autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement)


def _base_name() -> str:
    return f"{urlsplit(TEST_DATABASE_URL).path.lstrip('/') or 'truco_arena_test'}_{os.getpid()}"


@pytest.fixture(scope="session")
def postgres_template():
    """The name of a migrated database nobody connects to, copied by the databases below."""
    import psycopg

    require_service("PostgreSQL", lambda: psycopg.connect(_admin_url(), connect_timeout=3).close())
    name = f"{_base_name()}_template"
    _admin_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)', f'CREATE DATABASE "{name}"')
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=PROJECT_DIR,
        env={**os.environ, "DATABASE_URL": _with_database(TEST_DATABASE_URL, name)},
        check=True,
    )
    yield name
    _admin_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def _copy_of(template: str, name: str):
    _admin_sql(
        f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)',
        f'CREATE DATABASE "{name}" TEMPLATE "{template}"',
    )
    try:
        yield _with_database(TEST_DATABASE_URL, name)
    finally:
        _admin_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def postgres_url(postgres_template):
    """A fresh, migrated PostgreSQL database for the subprocesses of the `services` tests."""
    with _copy_of(postgres_template, _base_name()) as url:
        yield url


@pytest.fixture(scope="session")
def postgres_orm_url(postgres_template):
    """A fresh, migrated PostgreSQL database for `@pytest.mark.postgres` tests (this process's
    ORM) and the live stack; emptied after each test."""
    with _copy_of(postgres_template, f"{_base_name()}_orm") as url:
        yield url


@contextmanager
def default_database_at(url: str):
    """Point Django's default connection (this thread's, and those that threads open from
    now on) at `url`; put the previous one back afterwards."""
    import dj_database_url
    from django.db import connections

    previous_settings = connections.settings["default"]
    previous_connection = connections["default"]
    configured = connections.configure_settings({"default": dj_database_url.parse(url)})
    connections.settings["default"] = configured["default"]
    connection = connections.create_connection("default")
    connection.ops.sql_flush = _delete_all  # instance attribute: this connection only
    connections["default"] = connection
    try:
        yield
    finally:
        connections["default"].close()
        connections.settings["default"] = previous_settings
        connections["default"] = previous_connection


def _delete_all(style, tables, *, reset_sequences=False, allow_cascade=False):
    """How Django empties the tables after a `postgres` test: DELETE, not its TRUNCATE, which
    makes new files for every table and takes over a second on a busy machine, against
    milliseconds for the few rows a test writes. Foreign keys are deferred to the commit."""
    return [f'DELETE FROM "{table}";' for table in tables]


def sql(url: str, query: str, *params):
    """Rows of a query on a services database (what the workers wrote)."""
    import psycopg

    with psycopg.connect(url.replace("postgres://", "postgresql://", 1)) as conn:
        return conn.execute(query, params).fetchall()


# --- Redis and subprocesses ------------------------------------------------------------------


def services_environment(database_url: str, var_dir: Path, **extra: str) -> dict[str, str]:
    """Environment for subprocesses on the real services, with a Celery queue of its own."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": TEST_REDIS_URL,
        "TRUCO_QUEUE": f"test-{uuid.uuid4().hex[:12]}",
        "TRUCO_VAR_DIR": str(var_dir),
        **extra,
    }
    env.pop("REDIS_URL", None)
    return env


def drop_queue(env: dict[str, str]) -> None:
    import redis

    client = redis.Redis.from_url(env["CELERY_BROKER_URL"])
    try:
        for queue in (env["TRUCO_QUEUE"],):
            client.delete(queue, f"_kombu.binding.{queue}", f"_kombu.binding_permanent.{queue}")
    finally:
        client.close()


@pytest.fixture
def services_env(postgres_url, tmp_path):
    """Environment for subprocesses on the real services, with a queue of this test's own.
    Redis hands a dead worker's messages to another after 2 s; the lease is long, so that a
    recovery in these tests comes from the redelivery, not from a sweep."""
    require_service("Redis", ping_redis)
    env = services_environment(
        postgres_url,
        tmp_path / "var",
        CELERY_VISIBILITY_TIMEOUT="2",
        CELERY_RESTORE_INTERVAL="1",
        TRUCO_MATCH_LEASE_SECONDS="120",
    )
    yield env
    drop_queue(env)


def parse_json_output(stdout: str) -> dict:
    """The last line of `run_tournament --json`."""
    return json.loads(stdout.strip().splitlines()[-1])


# --- the live stack: web server and worker processes on PostgreSQL and Redis ---------------------


@dataclass
class LiveStack:
    """A web server (`url`) and a Celery worker in their own processes, on the database of
    this test (`postgres_orm_url`, which the test's ORM also uses) and a Redis queue of its
    own. Logs are in `var_dir` (web.log, worker.log)."""

    url: str
    env: dict[str, str]
    var_dir: Path
    web: subprocess.Popen
    worker: subprocess.Popen

    def log(self, name: str) -> str:
        path = self.var_dir / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""


@pytest.fixture
def live_stack(postgres_orm_url, tmp_path, request):
    """The production shape for end-to-end tests: a live web server and a real Celery worker
    on PostgreSQL and Redis. The test is a `postgres` test (tests/conftest.py adds the mark),
    so what it creates with the ORM is what the server and the worker see. Settings of the
    stack's processes: `@pytest.mark.live_stack_env(NAME="value", ...)`."""
    from stack.web_process import start_web_server, stop_web_server
    from stack.workers import start_worker, stop_worker, wait_until_ready

    require_service("Redis", ping_redis)
    var_dir = tmp_path / "var"
    var_dir.mkdir()
    marker = request.node.get_closest_marker("live_stack_env")
    env = services_environment(postgres_orm_url, var_dir, **(marker.kwargs if marker else {}))
    worker = start_worker(1, env=env, log_file=open(var_dir / "worker.log", "ab"), loglevel="INFO")
    web = None
    try:
        wait_until_ready(worker)
        port = free_port()
        web = start_web_server(port, var_dir / "web.log", env=env)
        yield LiveStack(f"http://127.0.0.1:{port}", env, var_dir, web, worker)
    finally:
        if web is not None:
            stop_web_server(web)
        # The test is over: whatever the worker would still finish goes with the test's rows
        # and queue, so no warm shutdown (seconds of the broker loop winding down).
        stop_worker(worker, idle=True)
        drop_queue(env)
