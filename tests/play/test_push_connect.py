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
