"""A spectator watches a running bot match in a real browser, end to end: a live ASGI server and
a real Celery worker on PostgreSQL, the live view in Redis (the production shape's cache). The
tournament page lists the match as playing now; its page draws the table decision by decision
from the pushes of /ws/matches/<id>/watch/ (never a hand's cards), then, once the match is over,
shows its games and their replays."""

from __future__ import annotations

import json
import time

import pytest
import requests
from rest_framework.authtoken.models import Token

from tests.e2e_support import TEST_REDIS_URL
from tests.factories import BotFactory, StaffFactory, TournamentFactory
from tournaments.models import Entrant, Match

pytestmark = pytest.mark.services


@pytest.mark.live_stack_env(CHANNELS_REDIS_URL=TEST_REDIS_URL)
def test_a_spectator_watches_a_bot_match_decision_by_decision(browser, live_stack):
    # A quarter of a second a searched decision: a match of two games, 5-15 s (at 50 ms, 1.5 s
    # on CI's machine: over before the page could show it). Two games, not four: the page still
    # shows one game after another, and the test waits for the match's end.
    cup = TournamentFactory(name="Watched Cup", format="round-robin", games_per_match=2)
    for name in ("slow-a", "slow-b"):
        bot = BotFactory(name=name, plugin="mcts", params={"time_ms": 250})
        Entrant.objects.create(tournament=cup, name=bot.label, bot=bot)
    token = Token.objects.create(user=StaffFactory()).key
    started = requests.post(
        f"{live_stack.url}/api/tournaments/{cup.pk}/start/",
        headers={"Authorization": f"Token {token}"},
        timeout=30,
    )
    assert started.status_code == 200, started.text[:500]
    deadline = time.monotonic() + 60
    while not Match.objects.filter(tournament=cup, status=Match.Status.RUNNING).exists():
        assert time.monotonic() < deadline, "no worker took the match"
        time.sleep(0.1)

    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(30_000)
    pushed: list[dict] = []

    def heard(socket):
        if "/ws/matches/" in socket.url:
            socket.on("framereceived", lambda frame: pushed.append(json.loads(frame)))

    page.on("websocket", heard)
    page.goto(f"{live_stack.url}/tournaments/{cup.pk}/")
    page.click("#playing-now a.watch-link")
    page.wait_for_selector("#live-board .seat")
    seqs = set()
    while len(seqs) < 3 and page.locator("#live").count():  # the board moves on by itself
        seq = page.get_attribute("#live", "data-seq")
        if seq:
            seqs.add(seq)
        time.sleep(0.05)
    assert len(seqs) >= 3, seqs
    # Once the match is over the page shows its games, each with its replay.
    page.wait_for_selector("#games a:has-text('replay')", timeout=120_000)
    assert page.locator("#live").count() == 0
    views = [m["live"] for m in pushed if m.get("type") == "view"]
    assert len(views) >= 3 and any(m.get("type") == "done" for m in pushed)
    plies = [(v["game"], v["ply"]) for v in views]
    assert plies == sorted(plies)  # decision after decision, game after game
    for v in views:
        assert "hands" not in v["view"] and "hand" not in v["view"]
        assert {s["name"] for s in v["seats"]} == {"slow-a", "slow-b"}
    context.close()
