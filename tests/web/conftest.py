from __future__ import annotations

import pytest

from tests.browser_support import CHROMIUM, browser, chromium_found, page  # noqa: F401 (fixtures)
from tests.factories import finish, started_bots_tournament
from tests.surface import *  # noqa: F401,F403 (shared fixtures)
from tournaments import lifecycle, scheduling
from tournaments.builders import bots_named, create_tournament
from tournaments.models import Match
from tournaments.runner import run_in_process


@pytest.fixture
def played(db):
    """A finished 4-bot single elimination: matches, games, ratings, a bracket."""
    tournament = create_tournament(
        name="Played Cup",
        variant="paulista",
        format="single-elimination",
        bots=bots_named(["random"] * 4),
        games_per_match=1,
        seed=5,
        seeding="order",
    )
    run_in_process(tournament)
    tournament.refresh_from_db()
    return tournament


@pytest.fixture
def league(db):
    """A round robin that is running, nothing played yet."""
    tournament = create_tournament(
        name="League",
        variant="paulista",
        format="round-robin",
        bots=bots_named(["heuristic"] * 3),
        games_per_match=1,
        seed=9,
        seeding="order",
    )
    lifecycle.start(tournament)
    return tournament


@pytest.fixture
def swiss(db):
    """Makes a running Swiss of `entrants` bots whose first round is played (the first side
    won each match) and whose second is paired: a page shows round 2."""

    def make(entrants: int, name: str = "Big Swiss"):
        tournament = started_bots_tournament(name, "swiss", entrants, "{name} bot {i:03}")
        for match in Match.objects.filter(tournament=tournament, entrant_b__isnull=False):
            finish(match, wins=(1, 0), points=(12, 5))
        scheduling.advance(tournament.pk)
        return tournament

    return make
