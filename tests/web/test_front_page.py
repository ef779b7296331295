"""The front page says what this is: what is being played now, the top of each ladder, how to
submit a bot (the kit's three commands) and how to sit at a table; on a phone too."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.browser_support import chromium_found
from tests.factories import BotFactory, UserFactory
from tournaments import execution, ladder_scheduler, lifecycle
from tournaments.builders import bots_named, create_tournament
from tournaments.models import Ladder, Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def busy_site(db, make_tournament_here):
    for k in range(3):
        BotFactory(name=f"greedy{k}", plugin="random", owner=UserFactory(username=f"author{k}"))
    ladder_scheduler.tick()
    first = Match.objects.filter(status=Match.Status.QUEUED).order_by("id")
    execution.execute(first[0].pk)  # one played: the board has a leader
    ladder_scheduler.tick()
    Match.objects.filter(status=Match.Status.QUEUED).update(status=Match.Status.RUNNING)
    return make_tournament_here()


@pytest.fixture
def make_tournament_here(db):
    def make():
        cup = create_tournament(
            name="Spring Cup",
            variant="paulista",
            format="round-robin",
            bots=bots_named(["random"] * 3),
            games_per_match=2,
            seed=1,
            seeding="order",
        )
        lifecycle.start(cup, publish=False)
        return cup

    return make


def test_the_front_page_says_what_is_played_and_how_to_join(busy_site):
    page = Client().get("/").content.decode()
    assert "Spring Cup" in page  # a running tournament
    running = Match.objects.filter(tournament__kind="ladder", status="running").first()
    assert running is not None and f'/matches/{running.pk}/"' in page  # a ladder match now
    board = Ladder.objects.get(variant="paulista", players=2)
    assert f'/ladder/{board.pk}/"' in page and "author" in page  # the top of a ladder
    for command in ("python -m engine new-bot", "python -m engine check-bot", "/api/bots/"):
        assert command in page
    assert "/play/" in page and "/accounts/signup/" in page


def test_the_tournament_list_moved_and_leaves_the_ladder_out(busy_site):
    listing = Client().get("/tournaments/").content.decode()
    assert "Spring Cup" in listing and "Ladder:" not in listing


@pytest.mark.skipif(not chromium_found(), reason="Chromium not found")
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", ["/", "/tournaments/", "/ratings/"])
def test_the_front_page_fits_a_phone(browser, live_server, busy_site, path):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(live_server.url + path)
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    context.close()
