"""Two schedulers at the same moment (two beat deliveries, or beat and a supervisor), on
PostgreSQL without the per-test transaction: the ladder's row lock makes them start the budget's
matches once."""

from __future__ import annotations

import time

import pytest

from tests.factories import BotFactory, UserFactory
from tournaments import dispatch, ladder, ladder_policy, ladder_scheduler
from tournaments.models import Ladder, Match

from .test_registration_race import concurrently

pytestmark = pytest.mark.postgres


def test_two_schedulers_at_once_start_the_budget_once(monkeypatch, settings):
    settings.TRUCO_LADDER_IN_FLIGHT = 1
    monkeypatch.setattr(dispatch, "send", lambda batches: None)
    for k in range(6):
        BotFactory(name=f"v{k}", plugin="random", owner=UserFactory(username=f"owner{k}"))
    ladder.sync_boards()
    Ladder.objects.exclude(variant="paulista", players=2).update(paused=True)
    # Each scheduler dawdles between reading what is in flight and creating its matches:
    # without the lock both would see nothing in flight, and both would start one.
    pairs = ladder_policy.next_pairs

    def slow_pairs(*args, **kwargs):
        chosen = pairs(*args, **kwargs)
        time.sleep(0.3)
        return chosen

    monkeypatch.setattr(ladder_scheduler, "next_pairs", slow_pairs)
    started = concurrently(ladder_scheduler.tick, ladder_scheduler.tick)
    assert sorted(started) == [0, 1]
    matches = Match.objects.filter(tournament__kind="ladder")
    assert matches.count() == 1
