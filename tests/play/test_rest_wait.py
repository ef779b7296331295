"""A REST player's `GET ?wait=` at a table a host keeps (docs/api-and-play.md: "answers as soon
as the robots have replied"). The web server read the table's row every 50 ms meanwhile: a wait
of a second was twenty queries (15 at most in a run of 100 people, against the 6 a request of
issue 20), and up to 50 ms late. The host that keeps the table answers it once its robots have
played, told by its own loop; the web server asks once."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tables import routing
from tables.host import Held, TableHost
from tables.models import LiveMatch
from tables.quick import quick_match
from tables.services import open_match
from tests.factories import UserFactory


class StateHost(TableHost):
    async def on_state(self, held, message):
        return {"state": {"waiting": held.table.live.waiting}}


def table_waiting(kind: str) -> SimpleNamespace:
    return SimpleNamespace(live=SimpleNamespace(waiting=kind))


def scene_of(host: TableHost, held: Held, message: dict, meanwhile):
    """The outcome of `message` at `held`, with `meanwhile(held)` run 0.2 s after it was sent;
    and how long it took."""

    async def scene():
        start = time.monotonic()
        work = asyncio.ensure_future(host.outcome(held, message))
        await asyncio.sleep(0.2)
        meanwhile(held)
        answer = await work
        return answer, time.monotonic() - start

    try:
        return asyncio.run(scene())
    finally:
        host.pool.shutdown(wait=False)


def robots_played(held: Held) -> None:  # what play_on does once its robots have played
    held.table.live.waiting = LiveMatch.Waiting.HUMAN
    held.changed()


def state_command(wait: float | None) -> dict:
    message = {"type": "table.command", "match": 5, "command": "state", "id": "w1"}
    return message if wait is None else {**message, "wait": wait}


def test_a_wait_is_answered_the_moment_the_robots_have_played():
    host = StateHost("host-test", threads=1)
    held = host.held[5] = Held(5, table=table_waiting(LiveMatch.Waiting.BOTS))
    answer, took = scene_of(host, held, state_command(5), robots_played)
    assert answer == {"state": {"waiting": LiveMatch.Waiting.HUMAN}}
    assert 0.2 <= took < 1.0  # woken by the change, not at the end of the 5 s


def test_a_wait_ends_after_its_seconds_when_the_robots_are_still_thinking():
    host = StateHost("host-test", threads=1)
    held = host.held[5] = Held(5, table=table_waiting(LiveMatch.Waiting.BOTS))
    answer, took = scene_of(host, held, state_command(0.5), lambda held: held.changed())
    assert answer == {"state": {"waiting": LiveMatch.Waiting.BOTS}}  # as it is then
    assert 0.5 <= took < 2.0


def test_a_table_that_waits_for_a_person_is_answered_at_once():
    host = StateHost("host-test", threads=1)
    held = host.held[5] = Held(5, table=table_waiting(LiveMatch.Waiting.HUMAN))

    async def scene():
        start = time.monotonic()
        answer = await host.outcome(held, state_command(5))
        return answer, time.monotonic() - start

    try:
        answer, took = asyncio.run(scene())
    finally:
        host.pool.shutdown(wait=False)
    assert answer == {"state": {"waiting": LiveMatch.Waiting.HUMAN}}
    assert took < 0.2


def test_a_wait_at_a_table_dropped_meanwhile_is_sent_on_to_the_next_host():
    host = StateHost("host-test", threads=1)
    held = host.held[5] = Held(5, table=table_waiting(LiveMatch.Waiting.BOTS))

    def dropped(held):  # its lease lost (TableHost.drop, without its database work)
        host.held.pop(5)
        held.changed()

    answer, took = scene_of(host, held, state_command(5), dropped)
    assert answer == {"moved": True}  # the sender claims the table and asks again
    assert took < 1.0


@pytest.mark.django_db
def test_a_rest_wait_at_a_hosted_table_asks_its_host_once_and_reads_nothing_meanwhile(
    settings, monkeypatch
):
    settings.TRUCO_TABLES = "hosts"
    user = UserFactory()
    match = quick_match(user, variant="paulista", bot="heuristic", games=1, turn_seconds=0)
    open_match(match.pk, user, "10.0.0.1")
    LiveMatch.objects.filter(match=match).update(
        host="host-x",
        host_lease_until=timezone.now() + timedelta(seconds=10),
        waiting=LiveMatch.Waiting.BOTS,
    )
    asked: list[dict] = []

    def ask(match_id, command, **fields):  # the host: answers once its robots have played
        asked.append({"command": command, **fields})
        time.sleep(0.3)
        return {"state": {"from": "the host"}}

    monkeypatch.setattr(routing, "ask", ask)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    with CaptureQueriesContext(connection) as captured:
        answer = client.get(f"/api/play/matches/{match.pk}/?wait=5")
    assert answer.status_code == 200 and answer.json() == {"from": "the host"}
    assert [a["command"] for a in asked] == ["state"] and asked[0]["wait"] == 5.0
    sql = [q["sql"] for q in captured.captured_queries]
    # The token, the match, its members, the live row: none while the host waited (a look at
    # the row every 50 ms before), and at most 6 in all (throttling is in the cache).
    assert len(sql) <= 6, sql
    assert sum('"waiting"' in q and "LIMIT 1" in q for q in sql) <= 1

    plain = client.get(f"/api/play/matches/{match.pk}/")  # no wait asked: none passed on
    assert plain.status_code == 200 and "wait" not in asked[-1]


@pytest.mark.django_db
def test_a_wait_at_a_table_no_host_keeps_that_waits_for_no_robot_costs_a_plain_get():
    """Without hosts (inline), a wait looks at the table's row until its robots have played;
    at a table that waits for nobody's robots (the person's own turn, a game's end) it is
    answered as a plain GET: no look, no second read (it was 8 queries in a run of 100 people,
    against a plain GET's 5)."""
    user = UserFactory()
    match = quick_match(user, variant="paulista", bot="heuristic", games=1, turn_seconds=0)
    open_match(match.pk, user, "10.0.0.1")
    assert LiveMatch.objects.get(match=match).waiting == LiveMatch.Waiting.HUMAN
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    path = f"/api/play/matches/{match.pk}/"
    client.get(path)  # the presence row written once: both counts below are the steady ones
    counts = []
    for query in ("", "?wait=5"):
        with CaptureQueriesContext(connection) as captured:
            answer = client.get(path + query)
        assert answer.status_code == 200 and answer.json()["your_turn"]
        counts.append(len(captured.captured_queries))
    assert counts[1] == counts[0], counts
