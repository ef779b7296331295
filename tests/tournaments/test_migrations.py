"""Data survives the move to an app per concern: a database made by the migrations of before
(tournaments, bots and their versions, ratings, table settings, a table in play, a person's
chips and the ledger, games) is migrated to today's, every row is still there where today's
models look for it, and its tournament plays. On SQLite (the embedded default) and on
PostgreSQL (the production shape)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from .conftest import PROJECT_DIR


def story(database_url: str, tmp_path) -> dict:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": database_url,
        "TRUCO_VAR_DIR": str(tmp_path / "var"),
    }

    def run(*args):
        done = subprocess.run(
            [sys.executable, *args], cwd=PROJECT_DIR, env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr[-3000:]
        return done.stdout

    ids = run("-m", "tests.tournaments.migration_story", "old").strip().splitlines()[-1]
    run("manage.py", "migrate", "--noinput", "-v", "0")
    return json.loads(
        run("-m", "tests.tournaments.migration_story", "check", ids).strip().splitlines()[-1]
    )


def assert_survived(report: dict) -> None:
    assert report["ana"] == ["ana", "alice", 1234, 45]  # chips and points moved to her wallet
    assert report["bots"] == ["alice/greedy v1", "alice/greedy v2"]
    assert report["bot players"] == report["bots"]
    assert report["rating"] == [[27.5, 3]]
    # The table settings' time and `competitive` became the tournament's.
    assert report["cup"] == ["Old Cup", 12, False, "competition"]
    assert report["cup table settings"] == 1
    assert report["table"] == ["table", 60, True]  # a player's own table is of kind table
    assert report["table settings"] == [10, "ana"]
    assert report["entrants"] == ["greedy1", "greedy2", "house"]
    assert report["games"] == [[12, "a"], [12, "a"]]
    assert report["live"] == "bots"
    assert report["presence"] == [["ana", ["10.0.0.1"]]]
    assert report["ledger"] == [["ana", 234]]
    # The admin's history and permissions follow the models to their new apps.
    assert report["content types"] == [
        "play.chiptransfer",
        "play.tablesettings",
        "players.player",
        "players.rating",
        "submitted_bots.bot",
    ]
    assert report["specs"] == ["random", "random"]
    assert report["played"] == ["done"]


def test_data_survives_the_move_on_sqlite(tmp_path):
    assert_survived(story(f"sqlite:///{tmp_path / 'old.sqlite3'}", tmp_path))


@pytest.mark.services
def test_data_survives_the_move_on_postgresql(tmp_path):
    import psycopg

    from tests.e2e_support import (
        TEST_DATABASE_URL,
        _admin_sql,
        _admin_url,
        _with_database,
        require_service,
    )

    require_service("PostgreSQL", lambda: psycopg.connect(_admin_url(), connect_timeout=3).close())
    name = f"truco_migration_story_{os.getpid()}"
    _admin_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)', f'CREATE DATABASE "{name}"')
    try:
        assert_survived(story(_with_database(TEST_DATABASE_URL, name), tmp_path))
    finally:
        _admin_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
