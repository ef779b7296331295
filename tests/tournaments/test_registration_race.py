"""Entries near the cap, on PostgreSQL without the per-test transaction (committed as in
production): two requests for the last place at the same moment give one entrant and one 409,
never one entrant too many."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection
from rest_framework.test import APIClient

from tests.factories import BotFactory, TournamentFactory, UserFactory
from tournaments import registration
from tournaments.models import Entrant

pytestmark = pytest.mark.postgres


def concurrently(*calls):
    """Run the calls in threads released together; their results in order."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait()
            results[index] = call()
        finally:
            connection.close()  # each thread's own connection

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return results


def test_two_requests_for_the_last_place_do_not_overshoot_the_cap(monkeypatch):
    cup = TournamentFactory(registration_open=True, max_entrants=2)
    Entrant.objects.create(tournament=cup, name="first", bot=BotFactory(name="first"))
    # Each entry dawdles between counting the entrants and adding its own: without the row lock
    # both would count one entrant, and both would get in.
    check = registration._check_room

    def slow_check(tournament):
        check(tournament)
        time.sleep(0.3)

    monkeypatch.setattr(registration, "_check_room", slow_check)

    def enter(user):
        client = APIClient()
        client.force_authenticate(user)
        response = client.post(f"/api/tournaments/{cup.pk}/enter/", {"human": True})
        return response.status_code, response.json()

    users = [UserFactory(), UserFactory()]
    results = concurrently(*(lambda u=u: enter(u) for u in users))
    assert sorted(status for status, _ in results) == [201, 409]
    refused = next(body for status, body in results if status == 409)
    assert refused["detail"] == "the tournament is full (2 entrants)"
    assert cup.entrants.count() == 2


def test_one_bot_entered_twice_at_once_is_entered_once():
    cup = TournamentFactory(registration_open=True)
    owner = UserFactory()
    v1, v2 = (BotFactory(name="twin", version=v, owner=owner) for v in ("1", "2"))
    results = concurrently(
        lambda: _status(lambda: registration.enter_bot(cup.pk, owner, v1.pk)),
        lambda: _status(lambda: registration.enter_bot(cup.pk, owner, v2.pk)),
    )
    assert sorted(results) == [201, 409]
    assert cup.entrants.filter(bot__name="twin").count() == 1


def _status(call) -> int:
    try:
        call()
    except registration.RegistrationError as exc:
        return exc.status
    return 201
