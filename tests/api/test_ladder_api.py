"""The ladder's API: the boards best first by mu - 3 sigma, a version's history on a board as
its matches are recorded, and its owner (only) taking it off the board."""

from __future__ import annotations

import pytest

from players.models import Rating
from tests.factories import BotFactory, UserFactory
from tests.surface import client_for
from tournaments import execution, ladder_scheduler
from tournaments.models import Ladder, LadderEntry, Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(db):
    """Three versions of three owners on the ladders, after a few ladder matches."""
    bots = [
        BotFactory(name=f"v{k}", plugin="random", owner=UserFactory(username=f"author{k}"))
        for k in range(3)
    ]
    for _ in range(3):
        ladder_scheduler.tick()
        for match in Match.objects.filter(status=Match.Status.QUEUED):
            execution.execute(match.pk)
    return bots


def test_the_list_shows_each_ladder_with_its_top(api, played):
    body = api.get("/api/ladders/", {"variant": "paulista"}).json()
    ladders = {(row["variant"], row["players"]): row for row in body["results"]}
    one = ladders[("paulista", 2)]
    assert one["on_board"] == 3 and one["matches_made"] >= 1
    ordinals = [row["ordinal"] for row in one["top"]]
    assert ordinals == sorted(ordinals, reverse=True)
    assert [row["rank"] for row in one["top"]] == [1, 2, 3]


def test_a_board_is_ranked_by_mu_minus_three_sigma(api, played):
    ladder = Ladder.objects.get(variant="paulista", players=2)
    board = api.get(f"/api/ladders/{ladder.pk}/").json()["board"]
    assert len(board) == 3
    for row in board:
        assert row["ordinal"] == pytest.approx(row["mu"] - 3 * row["sigma"])
    assert [r["ordinal"] for r in board] == sorted((r["ordinal"] for r in board), reverse=True)


def test_a_versions_history_has_a_point_per_ladder_match(api, played):
    entry = LadderEntry.objects.filter(matches__gt=0).first()
    body = api.get(f"/api/ladder-entries/{entry.pk}/history/").json()
    points = body["results"]
    assert len(points) == entry.matches
    assert [p["matches"] for p in points] == list(range(1, entry.matches + 1))
    last = points[-1]
    assert last["mu"] == pytest.approx(entry.mu) and last["sigma"] == pytest.approx(entry.sigma)
    assert last["low"] == pytest.approx(entry.mu - 2 * entry.sigma)


def test_entries_are_filtered_by_bot_and_owner(api, played):
    bot = played[0]
    rows = api.get("/api/ladder-entries/", {"bot": bot.pk}).json()["results"]
    assert rows and {r["bot"] for r in rows} == {bot.pk}
    rows = api.get("/api/ladder-entries/", {"owner": "author1"}).json()["results"]
    assert rows and {r["owner"] for r in rows} == {"author1"}
    assert api.get("/api/ladder-entries/", {"variant": "bisca"}).status_code == 400


def test_only_the_owner_takes_a_version_off_the_board(api, played):
    bot = played[0]
    entry = bot.ladder_entries.first()
    url = f"/api/ladder-entries/{entry.pk}/withdraw/"
    assert api.post(url).status_code in (401, 403)
    assert client_for(played[1].owner).post(url).status_code == 403
    answer = client_for(bot.owner).post(url)
    assert answer.status_code == 200 and answer.json()["on_board"] is False
    ladder = entry.ladder
    board = api.get(f"/api/ladders/{ladder.pk}/").json()["board"]
    assert bot.pk not in {row["bot"] for row in board}
    back = client_for(bot.owner).post(f"/api/ladder-entries/{entry.pk}/rejoin/")
    assert back.json()["on_board"] is True


def test_a_players_rating_history_is_served(api, played):
    rating = Rating.objects.filter(player=played[0].player).first()
    points = api.get(f"/api/ratings/{rating.pk}/history/").json()["results"]
    assert len(points) == rating.matches and points[-1]["mu"] == pytest.approx(rating.mu)
