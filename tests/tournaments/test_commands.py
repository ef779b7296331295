"""`manage.py run_tournament`: headless, with standings at the end; bad input exits 2."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tournaments.models import Game, Match, Tournament

from .conftest import PROJECT_DIR

pytestmark = pytest.mark.django_db


def run(*args) -> str:
    out = io.StringIO()
    call_command("run_tournament", *args, stdout=out)
    return out.getvalue()


def test_run_tournament_plays_a_single_elimination_and_prints_the_standings():
    out = run(
        "--variant",
        "paulista",
        "--format",
        "single-elimination",
        "--bots",
        "random*8",
        "--games",
        "3",
        "--seed",
        "4",
    )
    tournament = Tournament.objects.get()
    assert tournament.status == Tournament.Status.DONE
    assert Game.objects.count() >= 7 * 3
    lines = out.splitlines()
    assert "done, paulista, single-elimination, seed 4" in lines[0]
    assert lines[1].split() == ["#", "entrant", "placement", "game_diff", "point_diff", "rating"]
    assert len(lines) == 2 + 8
    champion = Match.objects.get(key="W3-1").winner.name
    first = lines[2].split()
    assert first[0] == "1" and " ".join(first[1 : 1 + len(champion.split())]) == champion
    assert first[1 + len(champion.split())] == "1"  # placement


def test_run_tournament_json_lists_every_entrant_once_in_rank_order():
    out = run(
        "--format",
        "swiss",
        "--bots",
        "random*5",
        "--games",
        "2",
        "--json",
        "--format-option",
        "rounds=3",
        "--metrics",
        "match_points",
        "game_diff",
    )
    report = json.loads(out)
    assert report["status"] == "done" and report["games"] == 3 * 2 * 2
    names = [row["entrant"] for row in report["standings"]]
    assert sorted(names) == sorted(["random", *(f"random #{i}" for i in range(2, 6))])
    assert [row["rank"] for row in report["standings"]] == sorted(
        row["rank"] for row in report["standings"]
    )
    assert list(report["standings"][0]["values"]) == ["match_points", "game_diff"]


def test_run_tournament_reuses_the_bots_so_their_ratings_accumulate():
    run("--bots", "random", "heuristic", "--games", "2")
    run("--bots", "random", "heuristic", "--games", "2")
    report = json.loads(run("--bots", "random", "heuristic", "--games", "2", "--json"))
    assert all(row["rating"] for row in report["standings"])
    assert Tournament.objects.count() == 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "random", "nobot"], "unknown bot 'nobot'; registered bots: "),
        (["--bots", "random*4", "--option", "target=99"], "option 'target' must be an integer"),
        (["--bots", "random*4", "--option", "colour=red"], "unknown option 'colour'"),
        (["--bots", "random*4", "--preset", "nope"], "unknown preset 'nope'"),
        (["--bots", "random*4", "--variant", "nope"], "unknown variant 'nope'"),
        (["--bots", "random*4", "--players", "3"], "played by 2 or 4 players, not 3"),
        (["--bots", "random*4", "--format-option", "rounds=3"], "unknown option(s) rounds"),
        (["--bots", "random*4", "--metrics", "luck"], "unknown metric(s) 'luck'"),
        (["--bots", "random*4", "--games", "0"], "at least one game or one duplicate pair"),
        (["--bots", "random"], "at least 2 entrants, it has 1"),
        (["--bots", "random*2", "--games", "100001"], "at most 100,000 games"),
        (["--bots", "random*2", "--seed", str(2**63)], "the seed must be an integer from 0"),
        (["--bots", "random*2", "--seed", "-1"], "the seed must be an integer from 0"),
        (["--bots", "random*0"], "write NAME or NAME*COUNT"),
        (
            ["--bots", "random*4", "--format", "swiss", "--format-option", "rounds=9"],
            "4 entrants can play at most 3 Swiss rounds",
        ),
    ],
)
def test_run_tournament_bad_input_exits_2_with_a_message(args, message):
    with pytest.raises(CommandError) as error:
        run(*args)
    assert error.value.returncode == 2
    assert message in str(error.value)
    assert not Tournament.objects.exists()  # no draft left behind for the admin to show


def test_run_tournament_bad_arguments_exit_2_from_the_command_line():
    result = subprocess.run(
        [sys.executable, "manage.py", "run_tournament", "--bots", "random", "--games", "-1"],
        cwd=PROJECT_DIR,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2
    assert "argument --games: '-1' must be 0 or more" in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize(
    "command", [["run_tournament", "--bots", "random*2"], ["bench_stack", "--skip-stack"]]
)
def test_a_command_on_a_database_not_yet_migrated_says_what_to_do(tmp_path, command):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")}
    result = subprocess.run(
        [sys.executable, "manage.py", *command],
        cwd=PROJECT_DIR,
        env={**env, "TRUCO_VAR_DIR": str(tmp_path)},
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2
    assert "run `python manage.py migrate` first" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.services
def test_run_tournament_refused_on_the_services_leaves_no_draft_in_postgresql(
    services_env, postgres_url
):
    """On PostgreSQL with a real worker on Redis: the refused run's draft is really gone (what
    the admin would have listed as "0/0"), not only rolled back with a test transaction."""
    from .conftest import sql

    name = f"lonely-{os.getpid()}"
    result = subprocess.run(
        [sys.executable, "manage.py", "run_tournament", "--bots", "heuristic", "--name", name]
        + ["--workers", "1"],
        cwd=PROJECT_DIR,
        env=services_env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2, result.stderr[-2000:]
    assert "at least 2 entrants, it has 1" in result.stderr
    assert sql(postgres_url, "SELECT id FROM tournaments_tournament WHERE name = %s", name) == []


def test_soak_refuses_bad_settings_with_exit_code_2():
    result = subprocess.run(
        [sys.executable, "manage.py", "soak", "--minutes", "0"],
        cwd=PROJECT_DIR,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2 and "--minutes must be positive" in result.stderr
