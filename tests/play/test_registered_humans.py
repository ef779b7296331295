"""A human who entered a tournament through registration plays their match at the table: the
match waits for them (workers leave it alone), shows on their play page, and is recorded like
any match once they play it to the end; the standings show them."""

from __future__ import annotations

import pytest

from tests.factories import BotFactory, UserFactory
from tests.surface import client_for
from tournaments.models import Game, Match, Tournament

from .test_human_play import play_to_end

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("players", [2, 4], ids=["1v1", "2v2"])
def test_a_registered_human_plays_their_bracket_match_at_the_table(staff_api, no_broker, players):
    cup = staff_api.post(
        "/api/tournaments/",
        {
            "name": "Open",
            "variant": "paulista",
            "players": players,
            "format": "single-elimination",
            "games_per_match": 1,
            "registration_open": True,
        },
        format="json",
    ).json()
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    me = client_for(alice)
    assert me.post(f"/api/tournaments/{cup['id']}/enter/", {"human": True}).status_code == 201
    bot = BotFactory(name="bobs-bot", owner=bob, plugin="random")
    entered = client_for(bob).post(f"/api/tournaments/{cup['id']}/enter/", {"bot": bot.pk})
    assert entered.status_code == 201
    assert staff_api.post(f"/api/tournaments/{cup['id']}/start/").status_code == 200

    match = Match.objects.get(tournament_id=cup["id"])
    assert match.status == Match.Status.PENDING and no_broker == []  # waits for alice
    mine = me.get("/api/play/matches/").json()
    assert [(m["match"], m["opponent"], m["waiting"]) for m in mine] == [
        (match.pk, "bob/bobs-bot", "start")
    ]

    state = me.post(f"/api/play/matches/{match.pk}/open/").json()
    assert state["status"] == "running" and state["you"]
    state = play_to_end(me, match.pk, state)
    match.refresh_from_db()
    assert match.status == Match.Status.DONE and match.winner_id is not None
    assert Game.objects.filter(match=match).count() == match.games_played >= 1
    assert Tournament.objects.get(pk=cup["id"]).status == Tournament.Status.DONE
    rows = staff_api.get(f"/api/tournaments/{cup['id']}/standings/").json()["rows"]
    assert {row["entrant"]["name"] for row in rows} == {"alice", "bob/bobs-bot"}
