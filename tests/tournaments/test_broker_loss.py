"""Matches the broker lost (issue 10, section 5): a Redis without persistence killed and
restarted, or flushed, in the middle of a tournament played by real workers on PostgreSQL.
The queued matches whose messages are gone are sent again by the sweep (here the runner's,
every second), and the tournament ends with the standings of an undisturbed run and nothing
recorded twice. The Redis is this test's own, on a free port: never the shared one."""

from __future__ import annotations

import functools
import subprocess
import sys
import time
from contextlib import contextmanager

import pytest

from tests.e2e_support import free_port, services_environment, sql

from .conftest import PROJECT_DIR, parse_json_output
from .test_services import in_process, table

pytestmark = [pytest.mark.services, pytest.mark.django_db]

ARGS = [
    "--format",
    "round-robin",
    "--bots",
    "random*12",
    "--games",
    "30",
    "--seed",
    "51",
    "--seeding",
    "order",
]


MATCHES = 12 * 11 // 2


class OwnRedis:
    """A redis-server of this test, without persistence (what it holds dies with it)."""

    def __init__(self, tmp_path):
        self.port = free_port()
        self.dir = tmp_path
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        import redis

        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.dir),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                if self.client().ping():
                    return
            except redis.ConnectionError:  # not listening yet
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def client(self):
        import redis

        return redis.Redis.from_url(self.url, socket_connect_timeout=0.5, retry_on_timeout=False)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def own_redis(tmp_path):
    import shutil

    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    server = OwnRedis(tmp_path)
    try:
        server.start()
    except Exception:
        server.kill()
        raise
    yield server
    server.kill()


def matches(url: str, tournament_name: str, status: str) -> int:
    rows = sql(
        url,
        "SELECT count(*) FROM tournaments_match m JOIN tournaments_tournament t "
        "ON t.id = m.tournament_id WHERE t.name = %s AND m.status = %s",
        tournament_name,
        status,
    )
    return rows[0][0]


def run_disturbed(postgres_url, tmp_path, own_redis, disturb, name: str) -> dict:
    env = services_environment(
        postgres_url,
        tmp_path / "var",
        CELERY_BROKER_URL=own_redis.url,
        TRUCO_SWEEP_SECONDS="1",
        TRUCO_QUEUED_RESEND_SECONDS="2",
        TRUCO_MATCH_LEASE_SECONDS="30",
        CELERY_VISIBILITY_TIMEOUT="30",
    )
    runner = subprocess.Popen(
        [
            sys.executable,
            "manage.py",
            "run_tournament",
            *ARGS,
            "--name",
            name,
            "--workers",
            "2",
            "--json",
            "--timeout",
            "150",
        ],
        cwd=PROJECT_DIR,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        # Past the first round (matches played), at a moment when the broker holds messages
        # no worker has taken yet (a round's matches are queued at once, two are played at
        # a time).
        while matches(postgres_url, name, "done") < 4 or matches(postgres_url, name, "queued") < 3:
            assert runner.poll() is None, runner.communicate()[1][-2000:]
            assert time.monotonic() < deadline, "no round was queued within a minute"
            time.sleep(0.01)
        disturb(own_redis)
        disturbed_at = matches(postgres_url, name, "done")
        out, err = runner.communicate(timeout=170)
    finally:
        if runner.poll() is None:
            runner.kill()
    assert runner.returncode == 0, err[-3000:]
    assert disturbed_at < MATCHES, "the tournament was over before the broker was disturbed"
    assert "messages in the queue: sending" in err, (err[-3000:], out[-3000:])
    return parse_json_output(out)


def assert_recorded_once(postgres_url, tournament_id: int) -> None:
    rows = sql(
        postgres_url,
        "SELECT m.status, m.games_played, count(g.id), count(DISTINCT g.index) "
        "FROM tournaments_match m LEFT JOIN tournaments_game g ON g.match_id = m.id "
        "WHERE m.tournament_id = %s AND m.entrant_b_id IS NOT NULL GROUP BY m.id",
        tournament_id,
    )
    assert len(rows) == MATCHES
    for status, games_played, stored, distinct in rows:
        assert status == "done"
        assert stored == distinct == games_played >= 30


def restart(server: OwnRedis) -> None:
    server.kill()  # SIGKILL: what it held is gone
    time.sleep(1.0)
    server.start()


def flush(server: OwnRedis) -> None:
    server.client().flushall()


@contextmanager
def busy_cores(count: int):
    """Loops that keep `count` cores busy (issue 19: the stall was seen with both cores taken
    by other work, where every commit and every reconnection takes longer)."""
    loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()


@functools.cache
def undisturbed_table() -> list[tuple]:
    """The standings of the same tournament played in this process: seeded, so the same for
    every parameter below; played once (2 s), not once per parameter."""
    return table(in_process(ARGS))


@pytest.mark.parametrize(
    "disturb, load",
    [(restart, 0), (flush, 0), (restart, 2)],
    ids=["killed-and-restarted", "flushed", "killed-and-restarted-under-load"],
)
def test_a_tournament_survives_its_broker_losing_the_queue(
    postgres_url, tmp_path, own_redis, disturb, load
):
    with busy_cores(load):
        report = run_disturbed(
            postgres_url, tmp_path, own_redis, disturb, f"loss {disturb.__name__} {load}"
        )
    assert report["status"] == "done"
    assert_recorded_once(postgres_url, report["tournament"])
    assert table(report) == undisturbed_table()
