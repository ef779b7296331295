"""A table built only to be shown (a page, a state), to deal its next game or to count a vote
starts no bot process (engine.seats.ShownPool): before, a table shown at a game's start started
its bots' processes (a jail, Node.js: tens of milliseconds each), told them the match and
stopped them at once, at every page and every state asked for. The table that plays starts them.

The robot here is a bot outside the process (as an uploaded bundle or a remote bot is) of an
isolation of the test's own, which counts its processes."""

from __future__ import annotations

import pytest

from engine import seats
from engine.bot_spec import BotSpec
from engine.seats import ShownPool
from tables import live as live_module
from tables.amicable import vote
from tables.quick import quick_match
from tables.services import act, open_match
from tables.views_state import table_state
from tests.factories import UserFactory
from tests.play.tables import table_now
from tournaments.models import Match

pytestmark = pytest.mark.django_db


class CountedProcess:
    started: list[int] = []

    def __init__(self, spec, context):
        self.started.append(1)
        self.seat = None

    def begin_game(self, *, game, seat, seed):
        self.seat = seat

    def act(self, observation):
        return observation.legal[0]

    def close(self):
        pass

    def log_since_last(self):
        return ""


@pytest.fixture
def counted(monkeypatch):
    CountedProcess.started = []
    monkeypatch.setitem(seats._FACTORIES, "counting", CountedProcess)
    counting = BotSpec("random", isolation="counting")
    side_spec = live_module.side_spec

    def counting_side(match, side):
        entrant = match.entrant_a if side == "a" else match.entrant_b
        return (
            counting if entrant is not None and entrant.bot is not None else side_spec(match, side)
        )

    monkeypatch.setattr(live_module, "side_spec", counting_side)
    return CountedProcess.started


def test_a_table_shown_starts_no_bot_process_the_table_that_plays_does(counted):
    user = UserFactory()
    match = quick_match(user, variant="paulista", bot="random", games=2, turn_seconds=0)
    open_match(match.pk, user, "10.0.0.1")
    assert counted  # the robot played up to the person's decision: its process started
    match = Match.objects.get(pk=match.pk)
    before = len(counted)
    for _ in range(3):
        state = table_state(match, user)
        assert state["your_turn"]
    table = table_now(match.pk)
    assert isinstance(table.session.pool, ShownPool)
    assert len(counted) == before  # shown four times: nothing started

    for _ in range(6):  # the person plays until the robot replies (it may not at once)
        seat = state["to_act"]
        act(match.pk, user, state["observations"][str(seat)]["legal"][0], seat, turn=state["turn"])
        if len(counted) > before:
            break
        state = table_state(Match.objects.get(pk=match.pk), user)
    assert len(counted) > before  # played: the robot replied from its process


def test_a_vote_at_a_players_table_starts_no_bot_process(counted):
    user = UserFactory()
    match = quick_match(user, variant="paulista", bot="random", games=2, turn_seconds=0)
    open_match(match.pk, user, "10.0.0.1")
    before = len(counted)
    try:
        vote(match.pk, user, True, "10.0.0.1")
    except Exception as exc:  # a quick table is no players' table: refused, as it should be
        assert "cannot end amicably" in str(exc)
    assert len(counted) == before
