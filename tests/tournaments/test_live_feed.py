"""Watching a running bot match (tournaments/live_feed.py, tournaments/watch.py): the worker
writes the spectator's view as the match is played, decision by decision, never with a card
still hidden in a hand or played face down; the API and the match page give it to anyone while
the match runs, and nothing once it is over or when people play in it."""

from __future__ import annotations

import os

import pytest
from django.core.cache import caches

from tests.factories import StaffFactory
from tests.surface import client_for
from tournaments import execution, lifecycle, live_feed
from tournaments.models import Match

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("live_cache")]


def strings_in(value) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings_in(v) for v in value.values())) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*(strings_in(v) for v in value)) if value else set()
    return set()


def test_the_feed_follows_each_decision_and_never_shows_a_hidden_card(
    make_tournament, monkeypatch, settings
):
    settings.TRUCO_WATCH_SECONDS = 0  # every decision is written
    tournament = make_tournament(2, games_per_match=2)
    lifecycle.start(tournament, publish=False)
    (match,) = Match.objects.filter(tournament=tournament)
    written: list[tuple[dict, set[str]]] = []
    feed_call = live_feed.LiveFeed.__call__

    def watched(feed, session):
        state = session.state
        hidden = {c for hand in state.hands or () for c in hand if c is not None}
        hidden |= {card for _, card in state.covered or ()}
        before = caches["live"].get(live_feed.key(feed.match_id))
        feed_call(feed, session)
        after = caches["live"].get(live_feed.key(feed.match_id))
        if after is not None and after != before:
            written.append((after, hidden))

    monkeypatch.setattr(live_feed.LiveFeed, "__call__", watched)
    assert execution.execute(match.pk).kind == "recorded"
    match.refresh_from_db()
    actions = sum(g.actions for g in match.games.all())
    assert len(written) == actions  # one view a decision
    assert [w["seq"] for w, _ in written] == list(range(1, actions + 1))
    # every game of the match is followed: its two, and a decider when they split
    played = {g.index for g in match.games.all()}
    assert {0, 1} <= played
    assert {w["game"] for w, _ in written} == played
    for view, hidden in written:
        # (the last hand's cards, shown with it, may be dealt again in this one)
        shown = strings_in({k: v for k, v in view["view"].items() if k != "previous_hand"})
        assert not shown & hidden, (view["ply"], hidden)
        assert "hands" not in view["view"] and "covered_cards" not in view["view"]
    # the match is over: its feed is gone, the replays show the games
    assert live_feed.latest(match.pk) is None


def test_anyone_reads_a_running_bot_matchs_view_with_its_seats_named(make_tournament, live_cache):
    tournament = make_tournament(2, games_per_match=2)
    lifecycle.start(tournament, publish=False)
    (match,) = Match.objects.filter(tournament=tournament)
    live_cache.set(
        live_feed.key(match.pk),
        {"seq": 3, "game": 1, "a_team": 1, "ply": 5, "over": False, "view": {"score": [1, 0]}},
    )
    anonymous = client_for(None)
    url = f"/api/matches/{match.pk}/live/"
    assert anonymous.get(url).json()["live"] is None  # not running: nothing to watch
    Match.objects.filter(pk=match.pk).update(status=Match.Status.RUNNING)
    body = anonymous.get(url).json()
    assert body["status"] == "running" and body["live"]["seq"] == 3
    a, b = match.entrant_a.name, match.entrant_b.name
    assert [s["name"] for s in body["live"]["seats"]] == [b, a]  # side A plays team 1 here
    page = anonymous.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="live"' in page and f"/ws/matches/{match.pk}/watch/" in page
    assert "watch live" in anonymous.get(f"/tournaments/{tournament.pk}/").content.decode()
    Match.objects.filter(pk=match.pk).update(status=Match.Status.DONE)
    assert anonymous.get(url).json()["live"] is None
    assert 'id="live"' not in anonymous.get(f"/matches/{match.pk}/").content.decode()
    assert client_for(StaffFactory()).get(url).status_code == 200


def test_without_redis_the_worker_and_the_web_server_share_the_view_through_files(tmp_path):
    """The embedded default: no Redis, so the worker (one process) writes the view under
    var/live and the web server (another) reads it there."""
    import subprocess
    import sys

    from tests.tournaments.conftest import PROJECT_DIR

    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "CHANNELS_REDIS_URL")}
    env |= {"TRUCO_VAR_DIR": str(tmp_path), "DJANGO_SETTINGS_MODULE": "config.settings"}

    def django(code: str) -> str:
        done = subprocess.run(
            [sys.executable, "-c", "import django; django.setup()\n" + code],
            cwd=PROJECT_DIR,
            env=env,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout.strip()

    django(
        "from django.core.cache import caches\n"
        "from tournaments.live_feed import key\n"
        "caches['live'].set(key(7), {'seq': 1, 'ply': 3}, 60)\n"
    )
    assert (tmp_path / "live").is_dir()
    assert django("from tournaments.live_feed import latest\nprint(latest(7))") == (
        "{'seq': 1, 'ply': 3}"
    )
