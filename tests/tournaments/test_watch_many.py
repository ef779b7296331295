"""Many spectators of one running bot match (tournaments/watch.py): each connection read the
live cache four times a second and the match's status every two seconds on its own, so five
hundred spectators of a final were two thousand cache reads and 250 queries a second. One
reader a match and process hands each new view to all of them."""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.testing import ApplicationCommunicator
from channels.db import database_sync_to_async
from django.core.cache import caches

from tournaments import lifecycle, live_feed, watch
from tournaments.models import Match

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_cache")]

SPECTATORS = 30


class Spectator(ApplicationCommunicator):
    """One spectator's WebSocket to the watch consumer (channels.testing's communicator needs
    daphne, which this project does not install)."""

    def __init__(self, match_id: int):
        app = watch.WatchConsumer.as_asgi()
        path = f"/ws/matches/{match_id}/watch/"
        scope = {
            "type": "websocket",
            "path": path,
            "headers": [],
            "subprotocols": [],
            "url_route": {"args": (), "kwargs": {"match_id": match_id}},
        }
        super().__init__(app, scope)

    async def connect(self) -> bool:
        await self.send_input({"type": "websocket.connect"})
        return (await self.receive_output(5))["type"] == "websocket.accept"

    async def receive_json_from(self, timeout: float) -> dict:
        message = await self.receive_output(timeout)
        assert message["type"] == "websocket.send", message
        return json.loads(message["text"])

    async def disconnect(self) -> None:
        await self.send_input({"type": "websocket.disconnect", "code": 1000})
        await self.wait(1)


def running_match(make_tournament, first_view: int) -> Match:
    """A bot match of a started tournament, running, its spectators' view number `first_view`
    written."""
    tournament = make_tournament(2, games_per_match=2)
    lifecycle.start(tournament, publish=False)
    (match,) = Match.objects.filter(tournament=tournament)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.RUNNING)
    caches["live"].set(live_feed.key(match.pk), feed(first_view))
    return match


def feed(seq: int) -> dict:
    return {"seq": seq, "game": 1, "a_team": 0, "ply": seq, "over": False, "view": {}}


def test_thirty_spectators_share_one_reader_and_each_sees_every_view_then_the_end(
    make_tournament, live_cache, monkeypatch
):
    match = running_match(make_tournament, first_view=1)
    reads = {"feed": 0, "status": 0}
    latest, status_of = live_feed.latest, watch.status_of

    def counted_latest(match_id):
        reads["feed"] += 1
        return latest(match_id)

    def counted_status(match_id):
        reads["status"] += 1
        return status_of(match_id)

    monkeypatch.setattr(live_feed, "latest", counted_latest)
    monkeypatch.setattr(watch, "status_of", counted_status)
    monkeypatch.setattr(watch, "POLL_SECONDS", 0.05)

    async def scene():
        people = []
        for _ in range(SPECTATORS):
            person = Spectator(match.pk)
            connected = await person.connect()
            assert connected
            people.append(person)
        firsts = [await p.receive_json_from(timeout=5) for p in people]
        live_cache.set(live_feed.key(match.pk), feed(2))
        seconds = [await p.receive_json_from(timeout=5) for p in people]
        looked = dict(reads)
        await database_sync_to_async(Match.objects.filter(pk=match.pk).update)(
            status=Match.Status.DONE
        )
        lasts = []
        for p in people:
            message = await p.receive_json_from(timeout=5)
            while message["type"] != "done":  # the status changed, then the end
                message = await p.receive_json_from(timeout=5)
            lasts.append(message)
        for p in people:
            await p.disconnect()
        return firsts, seconds, lasts, looked

    start = asyncio.new_event_loop()
    try:
        firsts, seconds, lasts, looked = start.run_until_complete(scene())
    finally:
        start.close()
    assert all(m["type"] == "view" and m["live"]["seq"] == 1 for m in firsts)
    assert all(len(m["live"]["seats"]) == 2 for m in firsts)  # named, as the page shows them
    assert all(m["type"] == "view" and m["live"]["seq"] == 2 for m in seconds)
    assert all(m == {"type": "done", "status": "done"} for m in lasts)
    # One reader for thirty: a few looks while they connected and the next view came (each
    # spectator reading on its own made at least one look each, thirty, before the first view).
    assert looked["feed"] < SPECTATORS / 2, looked


def test_a_spectator_who_comes_late_gets_the_latest_view_at_once(make_tournament, monkeypatch):
    match = running_match(make_tournament, first_view=7)
    monkeypatch.setattr(watch, "POLL_SECONDS", 0.05)

    async def scene():
        first = Spectator(match.pk)
        await first.connect()
        await first.receive_json_from(timeout=5)
        late = Spectator(match.pk)
        await late.connect()
        seen = await late.receive_json_from(timeout=1)
        await first.disconnect()
        # The last spectator gone, the reader stops; the next one starts a new reader.
        await late.disconnect()
        again = Spectator(match.pk)
        await again.connect()
        anew = await again.receive_json_from(timeout=5)
        await again.disconnect()
        return seen, anew

    loop = asyncio.new_event_loop()
    try:
        seen, anew = loop.run_until_complete(scene())
    finally:
        loop.close()
    assert seen["type"] == "view" and seen["live"]["seq"] == 7
    assert anew["type"] == "view" and anew["live"]["seq"] == 7


def test_a_view_that_cannot_be_read_a_moment_leaves_the_spectators_watching(
    make_tournament, monkeypatch
):
    """One reader serves every spectator of the match in the process: a failed read (the
    database or the cache away a moment) must not end it, or all of them would hear nothing."""
    match = running_match(make_tournament, first_view=3)
    monkeypatch.setattr(watch, "POLL_SECONDS", 0.05)
    latest, failures = live_feed.latest, [1]

    def failing_once(match_id):
        if failures:
            failures.pop()
            raise ConnectionError("the cache is away")
        return latest(match_id)

    monkeypatch.setattr(live_feed, "latest", failing_once)

    async def scene():
        person = Spectator(match.pk)
        await person.connect()
        seen = await person.receive_json_from(timeout=5)
        await person.disconnect()
        return seen

    loop = asyncio.new_event_loop()
    try:
        seen = loop.run_until_complete(scene())
    finally:
        loop.close()
    assert not failures and seen["type"] == "view" and seen["live"]["seq"] == 3
