"""The hostile bots in a tournament on a real Celery worker (Redis, PostgreSQL), the worker
run as root and as an ordinary user: every match is played once and recorded, the worker
survives whatever the bots do, no record holds a secret, and nothing of the bots is left."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile

import pytest

from stack.workers import stop_worker, worker_command

from ..e2e_support import PROJECT_DIR, parse_json_output, sql
from .conftest import (
    SYSTEM_PYTHON,
    as_ordinary_user,
    hostile_processes,
    jail_or_skip,
    ordinary_user_env,
    written_on_the_host,
)
from .expectations import EXPECTED, TIMEOUT
from .hostile_plugin import MARKER

pytestmark = [pytest.mark.services, pytest.mark.django_db]

# Sixteen entrants for a single elimination: the plain illegal answers are left to the CLI.
ENTRANTS = sorted(set(EXPECTED) - {"hostile-illegal", "hostile-nonstring"})


def start_worker_as(user: str, env: dict[str, str]) -> subprocess.Popen:
    command = worker_command(1, loglevel="WARNING")
    if user == "ordinary":
        command = as_ordinary_user([SYSTEM_PYTHON, *command[1:]])
    return subprocess.Popen(
        command,
        cwd=PROJECT_DIR,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


@pytest.mark.parametrize("user", ["root", "ordinary"])
def test_hostile_bots_on_a_celery_worker_are_contained(
    user, services_env, postgres_url, hostile_bots, secrets, request
):
    jail_or_skip()
    env = {**services_env, "TRUCO_TEST_SECRET": MARKER, "PYTHONPATH": os.environ["PYTHONPATH"]}
    if user == "ordinary":
        request.getfixturevalue("ordinary_user")
        var = tempfile.mkdtemp(prefix="truco-hostile-var-")
        os.chmod(var, 0o777)
        request.addfinalizer(lambda: shutil.rmtree(var, ignore_errors=True))
        keep = ("DATABASE_URL", "CELERY_BROKER_URL", "TRUCO_QUEUE", "CELERY_VISIBILITY_TIMEOUT")
        worker_env = {**ordinary_user_env(hostile_bots), **{k: env[k] for k in keep}}
        worker_env["TRUCO_VAR_DIR"] = var
    else:
        worker_env = env
    worker = start_worker_as(user, worker_env)
    try:
        done = subprocess.run(
            [sys.executable, "manage.py", "run_tournament", "--external", "--json"]
            + ["--format", "single-elimination", "--seeding", "order", "--games", "2"]
            + ["--turn-seconds", "1", "--seed", "424242", "--timeout", "150", "--bots"]
            + ENTRANTS,
            cwd=PROJECT_DIR,
            env=env,
            capture_output=True,
            text=True,
            timeout=200,
        )
        assert worker.poll() is None, "the worker died"
    finally:
        stop_worker(worker, idle=True)
    assert done.returncode == 0, done.stderr[-3000:]
    report = parse_json_output(done.stdout)
    assert report["status"] == "done"
    matches = sql(
        postgres_url,
        "SELECT status, attempts FROM tournaments_match "
        "WHERE tournament_id = %s AND entrant_b_id IS NOT NULL",
        report["tournament"],
    )
    assert len(matches) == len(ENTRANTS) - 1
    assert all(status == "done" and attempts == 1 for status, attempts in matches), matches
    games = sql(
        postgres_url,
        "SELECT b.plugin, g.termination, g.fault_seat, g.a_team, "
        "(e.id = m.entrant_a_id), g.record::text "
        "FROM tournaments_game g JOIN tournaments_match m ON g.match_id = m.id "
        "JOIN tournaments_entrant e ON e.id IN (m.entrant_a_id, m.entrant_b_id) "
        "JOIN tournaments_bot b ON b.id = e.bot_id WHERE m.tournament_id = %s",
        report["tournament"],
    )
    assert games
    for plugin, termination, fault_seat, a_team, is_side_a, record in games:
        assert MARKER not in record and "LEAKED" not in record
        if termination == "normal" or fault_seat is None:
            continue
        faulty_is_a = fault_seat % 2 == a_team
        if faulty_is_a == is_side_a:  # this row's bot forfeited: with what it may get
            allowed = EXPECTED[plugin] | ({TIMEOUT} if plugin == "hostile-hog" else set())
            assert termination in allowed, (plugin, termination)
    assert secrets.poll() is None, "the sentinel process was killed"
    assert hostile_processes() == []
    assert written_on_the_host() == []
