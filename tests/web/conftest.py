from __future__ import annotations

import pytest

from tests.browser_support import CHROMIUM, browser, chromium_found, page  # noqa: F401 (fixtures)
from tests.surface import *  # noqa: F401,F403 (shared fixtures)
from tournaments import lifecycle
from tournaments.builders import bots_named, create_tournament
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
