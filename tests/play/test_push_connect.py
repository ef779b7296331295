"""A table's push connection when no host can take the table just now, or when the table is
not in play (tables/push.py): it is closed with a code that tells the page what to do (poll
and connect again, quietly while a table of people waits for its deal, or stop: over). Left
open but unwatched, it would hear nothing while the page, connected, would not poll."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.testing import ApplicationCommunicator

from tables import push, routing
from tables.live import TableError
from tables.quick import quick_match
from tables.services import open_match
from tests.factories import UserFactory
from tournaments.models import Match

pytestmark = pytest.mark.django_db(transaction=True)


def closing_code(match_id: int, user) -> int:
    """The close code the table's consumer answers a connection of `user` with."""
    scope = {
        "type": "websocket",
        "path": f"/ws/play/matches/{match_id}/",
        "headers": [],
        "subprotocols": [],
        "user": user,
        "client": ("127.0.0.1", 5000),
        "url_route": {"args": (), "kwargs": {"match_id": match_id}},
    }

    async def scene():
        connection = ApplicationCommunicator(push.TableConsumer.as_asgi(), scope)
        await connection.send_input({"type": "websocket.connect"})
        while True:
            message = await connection.receive_output(10)
            if message["type"] == "websocket.close":
                return message["code"]
            assert message["type"] in ("websocket.accept",), message

    return asyncio.run(scene())


def test_a_table_no_host_can_take_now_closes_the_connection_to_be_tried_again(
    settings, monkeypatch
):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    user = UserFactory()
    match = quick_match(user, variant="paulista", bot="heuristic", turn_seconds=0)
    open_match(match.pk, user, "10.0.0.1")

    async def busy(*args, **kwargs):
        raise TableError("the table's host is too busy to answer: try again", 503)

    monkeypatch.setattr(routing, "ask_async", busy)
    assert closing_code(match.pk, user) == push.TRY_AGAIN


def test_a_table_not_dealt_yet_or_over_closes_with_what_the_page_should_do(settings):
    user = UserFactory()
    waiting = quick_match(user, variant="paulista", bot=None, turn_seconds=0)  # people's table
    assert waiting.status == Match.Status.PENDING
    assert closing_code(waiting.pk, user) == push.NOT_YET
    Match.objects.filter(pk=waiting.pk).update(status=Match.Status.DONE)
    assert closing_code(waiting.pk, user) == push.GONE


def test_a_watching_connection_tells_the_host_it_still_watches_until_it_leaves(
    settings, monkeypatch
):
    """Its renewals keep it counted by the table's host (a host forgets a connection it has
    not heard from: its server died); after it leaves, nothing more is said."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    monkeypatch.setattr(routing, "WATCH_RENEW_SECONDS", 0.05)
    user = UserFactory()
    match = quick_match(user, variant="paulista", bot="heuristic", turn_seconds=0)
    open_match(match.pk, user, "10.0.0.1")

    async def watched(match_id, command, **who):
        return {"state": None}

    monkeypatch.setattr(routing, "ask_async", watched)
    scope = {
        "type": "websocket",
        "path": f"/ws/play/matches/{match.pk}/",
        "headers": [],
        "subprotocols": [],
        "user": user,
        "client": ("127.0.0.1", 5000),
        "url_route": {"args": (), "kwargs": {"match_id": match.pk}},
    }

    async def scene() -> list[str]:
        from channels.layers import get_channel_layer

        layer = get_channel_layer()
        host = await layer.new_channel()
        await layer.group_add(routing.table_group(match.pk), host)
        connection = ApplicationCommunicator(push.TableConsumer.as_asgi(), scope)
        await connection.send_input({"type": "websocket.connect"})
        assert (await connection.receive_output(10))["type"] == "websocket.accept"
        heard = [(await layer.receive(host))["command"] for _ in range(3)]
        await connection.send_input({"type": "websocket.disconnect", "code": 1000})
        await connection.wait(5)
        heard.append((await layer.receive(host))["command"])
        await asyncio.sleep(0.2)  # longer than a renewal: none comes after it left
        try:
            heard.append((await asyncio.wait_for(layer.receive(host), 0.1))["command"])
        except TimeoutError:
            pass
        return heard

    assert asyncio.run(scene()) == ["still", "still", "still", "unwatch"]
