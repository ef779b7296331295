from __future__ import annotations

import os
import shutil

import pytest

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


# --- the browser tests (Debian's Chromium driven by Playwright) ---------------------------
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_found() -> bool:
    return bool(os.path.exists(CHROMIUM) or shutil.which(CHROMIUM))


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
    if not chromium_found():
        pytest.skip(f"Chromium not found at {CHROMIUM} (apt-get install -y chromium)")
    # Playwright's sync API runs an event loop: Django must allow its ORM calls around it.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            yield browser
            browser.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous
