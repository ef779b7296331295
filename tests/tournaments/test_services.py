"""End to end on the real services: Celery workers in their own processes, a Redis broker, a
PostgreSQL database. The standings must equal those of the same tournament (same seeds) played
in this process, undisturbed or with a worker killed half-way."""

from __future__ import annotations

import io
import subprocess
import sys
import time

import pytest
from django.core.management import call_command

from stack.workers import kill_worker, start_worker, stop_worker

from .conftest import PROJECT_DIR, parse_json_output, sql

pytestmark = [pytest.mark.services, pytest.mark.django_db]


def in_process(args: list[str]) -> dict:
    out = io.StringIO()
    call_command("run_tournament", *args, "--json", stdout=out)
    return parse_json_output(out.getvalue())


def table(report: dict) -> list[tuple]:
    """Ranks, entrants and tiebreak values; ratings aside (they depend on the order in which
    concurrent matches finish)."""
    return [(row["rank"], row["entrant"], row["values"]) for row in report["standings"]]


def manage(*args) -> list[str]:
    return [sys.executable, "manage.py", *args]


@pytest.mark.parametrize(
    ("fmt", "entrants"), [("single-elimination", 16), ("swiss", 8)], ids=["se16", "swiss8"]
)
def test_a_tournament_on_celery_workers_ends_as_the_same_tournament_in_process(
    services_env, postgres_url, fmt, entrants
):
    args = [
        "--format",
        fmt,
        "--bots",
        f"random*{entrants}",
        "--games",
        "6",
        "--seed",
        "21",
        "--seeding",
        "order",
    ]
    result = subprocess.run(
        manage("run_tournament", *args, "--workers", "2", "--json", "--timeout", "120"),
        cwd=PROJECT_DIR,
        env=services_env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    on_workers = parse_json_output(result.stdout)
    assert on_workers["status"] == "done"
    assert table(on_workers) == table(in_process(args))
    assert len(on_workers["standings"]) == entrants

    matches = sql(
        postgres_url,
        "SELECT status, attempts, worker, games_played, "
        "(SELECT count(*) FROM tournaments_game g WHERE g.match_id = m.id) "
        "FROM tournaments_match m WHERE tournament_id = %s AND entrant_b_id IS NOT NULL",
        on_workers["tournament"],
    )
    expected = {"single-elimination": entrants - 1, "swiss": 3 * entrants // 2}[fmt]
    assert len(matches) == expected
    for status, attempts, worker, games_played, stored in matches:
        assert status == "done" and attempts == 1 and worker
        assert stored == games_played >= 6


def test_a_worker_killed_mid_match_loses_no_match_and_records_none_twice(
    services_env, postgres_url
):
    args = [
        "--format",
        "swiss",
        "--bots",
        "random*8",
        "--games",
        "300",
        "--seed",
        "33",
        "--seeding",
        "order",
        "--format-option",
        "rounds=3",
    ]
    runner = subprocess.Popen(
        manage("run_tournament", *args, "--external", "--json", "--timeout", "150"),
        cwd=PROJECT_DIR,
        env=services_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    first = start_worker(1, env=services_env)
    second = None
    try:
        # Kill the worker just after it claimed a match: well before that match can finish.
        deadline = time.monotonic() + 60
        victim = []
        while not victim and time.monotonic() < deadline:
            victim = sql(
                postgres_url,
                "SELECT id, worker FROM tournaments_match WHERE status = 'running' "
                "AND started_at > now() - interval '40 milliseconds'",
            )
            time.sleep(0.003)
        assert victim, "no match was claimed within a minute"
        kill_worker(first)
        match_id, killed_worker = victim[0]
        assert sql(
            postgres_url, "SELECT status FROM tournaments_match WHERE id = %s", match_id
        ) == [("running",)]
        second = start_worker(1, env=services_env)
        out, err = runner.communicate(timeout=170)
    finally:
        if runner.poll() is None:
            runner.kill()
        kill_worker(first)
        if second is not None:
            stop_worker(second, idle=True)  # its tournament is over: nothing to finish
    assert runner.returncode == 0, err[-2000:]
    report = parse_json_output(out)

    ((status, attempts, worker),) = sql(
        postgres_url,
        "SELECT status, attempts, worker FROM tournaments_match WHERE id = %s",
        match_id,
    )
    assert status == "done" and attempts == 2 and worker != killed_worker
    matches = sql(
        postgres_url,
        "SELECT m.status, m.games_played, count(g.id), count(DISTINCT g.index) "
        "FROM tournaments_match m LEFT JOIN tournaments_game g ON g.match_id = m.id "
        "WHERE m.tournament_id = %s AND m.entrant_b_id IS NOT NULL GROUP BY m.id",
        report["tournament"],
    )
    assert len(matches) == 3 * 4
    for status, games_played, stored, distinct in matches:
        assert status == "done"
        assert stored == distinct == games_played >= 300
    assert report["games"] == sum(row[1] for row in matches)
    assert table(report) == table(in_process(args))
