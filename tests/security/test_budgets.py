"""A tournament or table sets the time per decision; a bot's own time-like parameters may not
ask for more: refused with the reason when the bot is saved or entered, clamped when it plays
(a user's mcts with time_ms=60000 held a worker 60 s per decision)."""

from __future__ import annotations

import random
import time

import pytest

from engine.plugins import registry
from submitted_bots.budgets import clamped, decision_budget
from submitted_bots.models import Bot
from submitted_bots.playing import spec_for
from tests.factories import BotFactory, PlayerFactory, TournamentFactory, human_entrant
from tournaments import lifecycle
from tournaments.execution import match_spec
from tournaments.models import Entrant, Match

pytestmark = pytest.mark.django_db


def test_a_bot_asking_more_than_the_servers_cap_is_a_400_with_the_reason(user_api):
    for params, reason in (
        ({"time_ms": 60000}, "time_ms=60000 asks 60s per decision, more than the 10s"),
        ({"iterations": 1_000_000}, "iterations=1000000 asks 500s per decision"),
        ({"think_seconds": 11}, "think_seconds=11 asks 11s"),  # any time-like name
    ):
        response = user_api.post(
            "/api/bots/", {"name": "slow", "plugin": "mcts", "params": params}, format="json"
        )
        assert response.status_code == 400, params
        assert reason in str(response.json()["params"])
    ok = user_api.post(
        "/api/bots/", {"name": "ok", "plugin": "mcts", "params": {"time_ms": 5000}}, format="json"
    )
    assert ok.status_code == 201, ok.json()


def test_a_bot_asking_more_than_the_tables_turn_is_refused_when_entered(staff_api, user_api):
    slow = BotFactory(plugin="mcts", params={"time_ms": 5000})
    body = {
        "name": "Blitz",
        "variant": "paulista",
        "format": "single-elimination",
        "games_per_match": 1,
        "table": {"turn_seconds": 2},
        "entrants": [{"bot": slow.pk}, {"bot": BotFactory(plugin="random").pk}],
    }
    refused = staff_api.post("/api/tournaments/", body, format="json")
    assert refused.status_code == 400
    assert "more than the 2s a turn of 2s allows: 2000 at most" in str(refused.json()["entrants"])

    body["table"] = {"turn_seconds": 10}
    created = staff_api.post("/api/tournaments/", body, format="json")
    assert created.status_code == 201, created.json()
    tournament_id = created.json()["id"]
    lowered = staff_api.patch(
        f"/api/tournaments/{tournament_id}/", {"table": {"turn_seconds": 1}}, format="json"
    )
    assert lowered.status_code == 400 and "time_ms=5000" in str(lowered.json())

    other = TournamentFactory(table__turn_seconds=3)
    added = staff_api.post(
        "/api/entrants/", {"tournament": other.pk, "bot": slow.pk}, format="json"
    )
    assert added.status_code == 400 and "time_ms=5000" in str(added.json()["entrants"])

    table = user_api.post(
        "/api/play/quick/",
        {"variant": "paulista", "bot": str(slow.pk), "turn_seconds": 3},
        format="json",
    )
    assert table.status_code == 400 and "time_ms=5000" in str(table.json())


def test_starting_a_tournament_whose_bot_outgrew_its_table_is_a_400(staff_api):
    tournament = TournamentFactory(table__turn_seconds=1)
    for bot in (BotFactory(plugin="mcts", params={"time_ms": 3000}), BotFactory()):
        Entrant.objects.create(tournament=tournament, name=bot.label, bot=bot)
    response = staff_api.post(f"/api/tournaments/{tournament.pk}/start/")
    assert response.status_code == 400
    assert "time_ms=3000" in response.json()["detail"]


def test_a_bot_written_past_the_checks_is_clamped_to_the_tables_budget_when_it_plays():
    tournament = TournamentFactory(table__turn_seconds=1)
    bot = BotFactory(plugin="mcts")
    Bot.objects.filter(pk=bot.pk).update(params={"time_ms": 60000})  # past every check
    bot.refresh_from_db()
    other = BotFactory(plugin="mcts")
    Bot.objects.filter(pk=other.pk).update(params={"iterations": 1_000_000, "time_ms": None})
    other.refresh_from_db()
    spec = match_spec(tournament, 1, bot, other)
    assert spec.side_a.params == {"time_ms": 1000}
    assert spec.side_b.params == {"iterations": 2000, "time_ms": None}
    # And it does stop in time: one decision of the clamped bot, on a real game.
    variant = registry().variant("paulista")
    state = variant.new_game(2, None, seed=3)
    mcts = registry().bot("mcts")(
        variant="paulista",
        options=variant.resolve_options(),
        seat=state.to_act,
        players=2,
        rng=random.Random(1),
        **spec.side_a.params,
    )
    started = time.monotonic()
    mcts.act(state.observation(state.to_act))
    assert time.monotonic() - started < 3  # asked 60 s, given 1 s


def test_a_bot_at_a_human_table_is_clamped_to_its_turn_seconds():
    from tournaments.seating import seating

    tournament = TournamentFactory(table__turn_seconds=2, players=2)
    human_entrant(tournament, PlayerFactory())
    bot = BotFactory(plugin="mcts")
    Entrant.objects.create(tournament=tournament, name=bot.label, bot=bot)
    lifecycle.start(tournament)
    Bot.objects.filter(pk=bot.pk).update(params={"time_ms": 60000})  # changed after the start
    match = Match.objects.get(tournament=tournament)
    seats = seating(match, 2, 0)
    assert [s.bot.params for s in seats if not s.is_human] == [{"time_ms": 2000}]


def test_the_servers_cap_holds_at_a_table_without_a_turn_limit(settings):
    settings.TRUCO_MAX_BOT_DECISION_SECONDS = 4
    assert decision_budget(0) == 4 and decision_budget(30) == 4 and decision_budget(2) == 2
    assert clamped("mcts", {"time_ms": 9000.5}, decision_budget(0)) == {"time_ms": 4000.0}
    assert clamped("random", {"exploration": 9}, 1) == {"exploration": 9}
    bot = BotFactory(plugin="random")
    assert spec_for(bot, 0).params == {}
