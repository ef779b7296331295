"""How a command reaches a table's host (tables/routing.py) and how a host answers one sent
twice (tables/host.py), over the in-memory channel layer with a stand-in host: a busy host is
waited for and never sent the command twice; a table that no host holds is claimed and the
command sent again; a command its sender sent again is answered as the first time, not done
twice (a person's decision taken twice answered "already answered" under load)."""

from __future__ import annotations

import asyncio

import pytest
from channels.layers import get_channel_layer

from tables import routing
from tables.host import Held, TableHost

IN_MEMORY = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.fixture
def layer(settings, monkeypatch):
    settings.CHANNEL_LAYERS = IN_MEMORY
    monkeypatch.setattr(routing, "ACK_SECONDS", 0.2)
    return get_channel_layer()


async def stand_in_host(layer, match_id: int, *, delay: float, heard: list, joined=True):
    """A host that holds table `match_id` (or takes it when claimed) and answers each command
    `delay` seconds after hearing it."""
    channel = await layer.new_channel()
    if joined:
        await layer.group_add(routing.table_group(match_id), channel)

    async def claims():
        await layer.receive(routing.HOSTS_CHANNEL)
        await layer.group_add(routing.table_group(match_id), channel)

    claimed = None if joined else asyncio.ensure_future(claims())
    try:
        while True:
            message = await layer.receive(channel)
            heard.append(message["id"])
            await asyncio.sleep(delay)
            await layer.send(message["reply"], {"type": "table.reply", "ok": True})
    finally:
        if claimed is not None:
            claimed.cancel()


def test_a_busy_host_is_waited_for_and_not_given_up_on(layer, monkeypatch):
    monkeypatch.setattr(routing, "held_by_a_host", lambda match_id: True)  # it renews its lease
    heard: list[str] = []

    async def scene():
        host = asyncio.ensure_future(stand_in_host(layer, 7, delay=1.0, heard=heard))
        await asyncio.sleep(0)  # the host holds the table before the command is sent
        try:
            return await routing.ask_async(7, "act", action="play 4c")
        finally:
            host.cancel()

    answer = asyncio.run(scene())
    assert answer["ok"] is True
    assert len(heard) == 1  # five times its ack's wait, and heard once: not claimed again


def test_a_command_a_living_host_missed_is_sent_again_with_the_same_id(layer, monkeypatch):
    monkeypatch.setattr(routing, "held_by_a_host", lambda match_id: True)
    monkeypatch.setattr(routing, "RESEND_SECONDS", 0.4)
    heard: list[str] = []

    async def scene():
        asking = asyncio.ensure_future(routing.ask_async(11, "act", action="play 4c"))
        await asyncio.sleep(0.1)  # sent before the host joined the table's group: lost
        host = asyncio.ensure_future(stand_in_host(layer, 11, delay=0.0, heard=heard))
        try:
            return await asyncio.wait_for(asking, 5)
        finally:
            host.cancel()

    answer = asyncio.run(scene())
    assert answer["ok"] is True
    assert len(heard) == 1 and heard[0]  # the resent command carries the first one's id


def test_a_table_nobody_holds_is_claimed_and_the_command_sent_again(layer, monkeypatch):
    monkeypatch.setattr(routing, "held_by_a_host", lambda match_id: False)
    heard: list[str] = []

    async def scene():
        host = asyncio.ensure_future(stand_in_host(layer, 8, delay=0.0, heard=heard, joined=False))
        try:
            return await routing.ask_async(8, "act", action="play 4c")
        finally:
            host.cancel()

    answer = asyncio.run(scene())
    assert answer["ok"] is True
    assert len(heard) == 1  # heard once: after the claim, the command sent again


class CountingHost(TableHost):
    done = 0

    async def on_count(self, held, message):
        self.done += 1
        return {"ok": True, "done": self.done}


def test_a_command_sent_again_is_answered_as_the_first_time_and_not_done_twice():
    host = CountingHost("host-test", threads=1)
    held = Held(9)
    message = {"type": "table.command", "match": 9, "command": "count", "id": "abc"}

    async def scene():
        first = await host.outcome(held, message)
        again = await host.outcome(held, dict(message))
        other = await host.outcome(held, {**message, "id": "def"})
        return first, again, other

    try:
        first, again, other = asyncio.run(scene())
    finally:
        host.pool.shutdown(wait=False)
    assert first == again == {"ok": True, "done": 1}
    assert other == {"ok": True, "done": 2}
