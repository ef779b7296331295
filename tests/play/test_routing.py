"""How a command reaches a table's host (tables/routing.py) and how a host answers one sent
twice (tables/host.py), over the in-memory channel layer with a stand-in host: a busy host is
waited for and never sent the command twice; a table that no host holds is claimed and the
command sent again; a command its sender sent again is answered as the first time, not done
twice (a person's decision taken twice answered "already answered" under load)."""

from __future__ import annotations

import asyncio
import time

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


def hosts_hold(monkeypatch, held: bool) -> None:
    """Whether a host holds the tables' leases, as a sender that heard nothing asks it (from its
    event loop: the patched answer without database_sync_to_async, whose look at the database
    connection these tests, without the database, may not make)."""

    async def answer(match_id):
        return held

    monkeypatch.setattr(routing, "held_by_a_host_async", answer)


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
            await layer.send(
                message["reply"], {"type": "table.reply", "ok": True, "id": message["id"]}
            )
    finally:
        if claimed is not None:
            claimed.cancel()


def asked_with_a_host(layer, match_id: int, heard: list, *, delay: float, joined: bool):
    """The answer to a command sent to table `match_id` once a stand-in host runs."""

    async def scene():
        host = asyncio.ensure_future(
            stand_in_host(layer, match_id, delay=delay, heard=heard, joined=joined)
        )
        await asyncio.sleep(0)  # the host is there before the command is sent
        try:
            return await routing.ask_async(match_id, "act", action="play 4c")
        finally:
            host.cancel()

    return asyncio.run(scene())


def test_a_busy_host_is_waited_for_and_not_given_up_on(layer, monkeypatch):
    hosts_hold(monkeypatch, True)  # it renews its lease
    heard: list[str] = []
    answer = asked_with_a_host(layer, 7, heard, delay=1.0, joined=True)
    assert answer["ok"] is True
    assert len(heard) == 1  # five times its ack's wait, and heard once: not claimed again


def test_a_command_a_living_host_missed_is_sent_again_with_the_same_id(layer, monkeypatch):
    hosts_hold(monkeypatch, True)
    monkeypatch.setattr(routing, "RESEND_SECONDS", 0.4)
    heard: list[str] = []
    sent: list[str] = []
    group_send = layer.group_send

    async def sending(group, message):
        sent.append(message["id"])
        await group_send(group, message)

    monkeypatch.setattr(layer, "group_send", sending)

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
    assert len(sent) == 2 and sent[0] == sent[1]  # lost once, sent again with its id
    assert heard == [sent[0]]


def test_a_table_nobody_holds_is_claimed_and_the_command_sent_again(layer, monkeypatch):
    hosts_hold(monkeypatch, False)
    heard: list[str] = []
    answer = asked_with_a_host(layer, 8, heard, delay=0.0, joined=False)
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


class SlowClaimHost(TableHost):
    """A host whose lease takes a moment and whose tables build without a database."""

    def __init__(self):
        super().__init__("host-claims", threads=2)
        self.taken = 0
        self.built = 0

    def take_lease(self, match_id):
        time.sleep(0.1)  # the database's round trip: other claims arrive meanwhile
        self.taken += 1
        self.leases.hold(match_id)
        return True

    def rebuild(self, held):
        self.built += 1
        return True

    async def play_on(self, held, *, pushed=False):
        return None


def test_a_table_claimed_by_many_senders_at_once_is_taken_once(layer):
    """Every sender that heard nothing claims the table, and so does every host's look for
    orphans: a host took each claim that came while the first was under way, built the table
    again in a second Held, and started its bots twice."""
    host = SlowClaimHost()

    async def scene():
        host.channel = await layer.new_channel()
        await asyncio.gather(*(host.claim(12) for _ in range(5)))
        first = host.held[12]
        await host.claim(12)  # held already: nothing
        return first

    try:
        first = asyncio.run(scene())
    finally:
        host.pool.shutdown(wait=False)
    assert (host.taken, host.built) == (1, 1)
    assert list(host.held) == [12] and host.held[12] is first
    assert host.leases.owned() == [12]


def test_a_table_whose_lease_was_lost_is_dropped_and_no_longer_renewed(layer):
    host = SlowClaimHost()

    async def scene():
        host.channel = await layer.new_channel()
        await host.claim(13)
        await host.claim(14)
        await host.lost({13: host.leases.claim_of(13)})  # what the renewal thread hands the loop

    try:
        asyncio.run(scene())
    finally:
        host.pool.shutdown(wait=False)
    assert list(host.held) == [14]
    assert host.leases.owned() == [14]


def test_a_table_taken_again_while_a_renewal_read_the_old_claim_is_kept(layer):
    """The renewal thread read the host's claims; meanwhile the host dropped a table and took
    it again; the renewal, not finding the old claim's lease, said it was lost. Dropping the
    table then dropped the new claim, and its person waited a whole lease for another host."""
    host = SlowClaimHost()

    async def scene():
        host.channel = await layer.new_channel()
        await host.claim(15)
        read = host.leases.claims()  # what a renewal under way read
        await host.drop(15, release=False)
        await host.claim(15)  # taken again, under a new claim
        await host.lost({15: read[15]})  # the renewal's news about the old claim
        again = host.held.get(15)
        await host.lost({15: host.leases.claim_of(15)})  # news about the claim that holds it
        return again

    try:
        again = asyncio.run(scene())
    finally:
        host.pool.shutdown(wait=False)
    assert again is not None, "the new claim was dropped on the old claim's news"
    assert host.taken == 2
    assert list(host.held) == [] and host.leases.owned() == []


def test_a_late_answer_reaches_its_sender_on_a_layer_that_forgets_a_read_it_gave_up(
    layer, monkeypatch
):
    """The pub/sub channel layer (TRUCO_CHANNEL_LAYER=pubsub) unsubscribes a channel whose
    read is cancelled: a sender that waited for an answer with a timeout on the read itself
    lost the answer of a busy host, and told its person that the host did not answer."""
    hosts_hold(monkeypatch, True)
    forgotten: set[str] = set()
    receive, send = layer.receive, layer.send

    async def forgetful_receive(channel):
        try:
            return await receive(channel)
        except asyncio.CancelledError:
            forgotten.add(channel)  # unsubscribed: what comes now is lost
            raise

    async def forgetful_send(channel, message):
        if channel not in forgotten:
            await send(channel, message)

    monkeypatch.setattr(layer, "receive", forgetful_receive)
    monkeypatch.setattr(layer, "send", forgetful_send)
    heard: list[str] = []
    answer = asked_with_a_host(layer, 15, heard, delay=0.5, joined=True)
    assert answer["ok"] is True
    assert len(heard) == 1


@pytest.mark.django_db
def test_a_table_changed_outside_its_host_is_claimed_only_when_no_host_holds_its_lease(
    monkeypatch,
):
    """`changed` tells the table's host and claims the table when no host holds its lease
    (the same question as a sender's that hears nothing: `held_by_a_host`)."""
    from datetime import timedelta

    from django.utils import timezone

    from tables.models import LiveMatch
    from tables.quick import quick_match
    from tables.services import open_match
    from tests.factories import UserFactory

    user = UserFactory()
    match = quick_match(user, variant="paulista", bot="heuristic", turn_seconds=0)
    open_match(match.pk, user, "10.0.0.1")
    called: list = []
    monkeypatch.setattr(routing.loop_thread, "call", lambda fn, *args, **kw: called.append(fn))

    def claimed(**lease) -> bool:
        LiveMatch.objects.filter(match=match).update(**lease)
        called.clear()
        routing.changed(match.pk)
        assert len(called) in (1, 2)  # the host told, then the claim if any
        return routing.claim in called

    assert not claimed(host="host-x", host_lease_until=timezone.now() + timedelta(seconds=10))
    assert claimed(host="host-x", host_lease_until=timezone.now())  # its lease ran out
    assert claimed(host="", host_lease_until=None)  # given back


@pytest.mark.django_db(transaction=True)
def test_a_change_whose_host_cannot_be_told_never_fails_the_request_that_made_it(
    settings, monkeypatch, caplog
):
    """500 people opening tables at once: a publish to Redis timed out after the commit, and a
    table opened and committed was answered 500. The notice is best effort: the table stays
    opened, and hosts adopt tables nobody holds."""
    import redis
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    from tables.models import LiveMatch
    from tests.factories import UserFactory

    settings.TRUCO_TABLES = "hosts"

    def timed_out(*args, **kwargs):
        raise redis.exceptions.TimeoutError("Timeout reading from 127.0.0.1:6379")

    monkeypatch.setattr(routing.loop_thread, "call", timed_out)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=UserFactory()).key}")
    answer = client.post("/api/play/quick/", {"variant": "paulista", "bot": "heuristic"})
    assert answer.status_code == 201, answer.content[:300]
    assert LiveMatch.objects.filter(match_id=answer.json()["match"]).exists()
    assert "its host could not be told" in caplog.text
    said = client.post(f"/api/play/matches/{answer.json()['match']}/chat/", {"text": "hi"})
    assert said.status_code == 201, said.content[:300]  # the line written, its push failed
