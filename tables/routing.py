"""How commands reach the table host that keeps a table (TRUCO_TABLES=hosts), over the Channels
layer (Redis in the production shape, in memory in the embedded default's one process).

- Each table host reads the claims channel `tables.hosts` (each message goes to one host) and
  its own channel; a host that holds table N is the member of the group `table.N`.
- A command to a table goes to its group, with the channel its answer goes to (one a sender's
  event loop, `ReplyDesk`) and its id. The host answers with the outcome, or first that it
  has it (`ack`) when the outcome takes longer than a moment. With no answer in ACK_SECONDS,
  the sender asks the database whether a host holds the table's lease: if one does, it is busy,
  not gone, and the sender waits on (sending the command again would have it done twice); if
  none does (never claimed, or its host died and its lease ran out), the table is claimed on
  `tables.hosts` and the command sent again.
- The states a host renders go to the groups `view.N.<viewer>.<language>` that the players' and
  spectators' connections joined (tables/push.py).
"""

from __future__ import annotations

import asyncio
import logging
import uuid
import weakref
from typing import Any

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.utils import timezone

from tables import loop_thread
from tables.live import TableError
from tables.models import LiveMatch

log = logging.getLogger(__name__)

# Where claims go: a fixed name, which the layers do not prefix (settings.TRUCO_CHANNEL_PREFIX).
HOSTS_CHANNEL = f"{settings.TRUCO_CHANNEL_PREFIX}.tables.hosts"
ACK_SECONDS = 1.5  # a host answers at once that it has the command; past this, ask who holds it
ANSWER_SECONDS = 30.0  # robots may think a slice before the outcome is known
TRIES = 3
# The longest a REST player's `GET ?wait=` waits for the table's robots (the web server refuses
# more: each waiting request holds one of its threads).
MAX_WAIT_SECONDS = 5.0
# A page's connection tells the table's host it still watches this often; a host forgets one
# it has not heard from for the lapse (its server died without saying the page left).
WATCH_RENEW_SECONDS = 30.0
WATCH_LAPSE_SECONDS = 3 * WATCH_RENEW_SECONDS + 10
RESEND_SECONDS = 5.0  # a command unanswered this long by a living host is sent again


def table_group(match_id: int) -> str:
    return f"table.{match_id}"


def view_group(match_id: int, viewer: str, language: str) -> str:
    return f"view.{match_id}.{viewer}.{language.replace('_', '-')}"


def chat_group(match_id: int) -> str:
    return f"chat.{match_id}"


def layer():
    return get_channel_layer()


async def claim(match_id: int) -> None:
    """Ask the hosts that one of them takes the table (the one that reads this first)."""
    await layer().send(HOSTS_CHANNEL, {"type": "table.claim", "match": match_id})


async def ask_async(match_id: int, command: str, **fields: Any) -> dict[str, Any]:
    """Send `command` to the table's host and wait for its outcome: a dict, or TableError (the
    host's refusal, with its HTTP status)."""
    channels = layer()
    desk = ReplyDesk.of(channels)
    command_id = uuid.uuid4().hex
    replies = Replies(desk, command_id)
    try:
        reply = await desk.open()
        return await _ask(channels, replies, reply, command_id, match_id, command, fields)
    finally:
        replies.close()


class ReplyDesk:
    """The replies to one event loop's commands: one channel, read by one task as long as the
    loop runs, each reply handed to the command that waits for it by its id (hosts answer
    with the command's id).

    A channel a command, subscribed and read for it alone, cost the pub/sub layer a subscribe
    and an unsubscribe under its connection's lock; and in a process where no other channel
    was subscribed (a gunicorn worker between requests) channels_redis' reader slept 100 ms
    between looks, so a REST request waited 100 ms for an answer already there. The one read
    is never cancelled: the pub/sub layer unsubscribes a channel whose read is, and an answer
    that came after was lost."""

    _desks: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def __init__(self, channels):
        self.channels = channels
        self.channel: str | None = None
        self.reader: asyncio.Task | None = None
        self.waiting: dict[str, asyncio.Queue] = {}
        self.opening = asyncio.Lock()

    @classmethod
    def of(cls, channels) -> ReplyDesk:
        """The running loop's desk on the layer `channels`."""
        loop = asyncio.get_running_loop()
        desk = cls._desks.get(loop)
        if desk is None or desk.channels is not channels:
            desk = cls._desks[loop] = cls(channels)
        return desk

    async def open(self) -> str:
        """The desk's channel, its reader running."""
        async with self.opening:
            if self.channel is None or self.reader is None or self.reader.done():
                self.channel = await self.channels.new_channel()
                self.reader = asyncio.ensure_future(self._read(self.channel))
        return self.channel

    async def _read(self, channel: str) -> None:
        failing = False
        while True:
            try:
                message = await self.channels.receive(channel)
            except asyncio.CancelledError:
                raise
            except Exception:  # Redis away a moment: read again, never stop reading
                # The traceback once an outage, not every half second while Redis is away.
                if not failing:
                    log.exception("the replies of table commands could not be read; reading again")
                failing = True
                await asyncio.sleep(0.5)
                continue
            if failing:
                log.warning("the replies of table commands are read again")
                failing = False
            waiting = self.waiting.get(message.get("id"))
            if waiting is not None:  # else its command gave up waiting: nobody to tell
                waiting.put_nowait(message)


class Replies:
    """The answers to one command, as its loop's desk hands them over."""

    def __init__(self, desk: ReplyDesk, command_id: str):
        self.desk = desk
        self.command_id = command_id
        self.queue: asyncio.Queue = asyncio.Queue()
        desk.waiting[command_id] = self.queue

    async def get(self, seconds: float) -> dict[str, Any]:
        return await asyncio.wait_for(self.queue.get(), seconds)

    def close(self) -> None:
        self.desk.waiting.pop(self.command_id, None)


async def _ask(
    channels,
    replies: Replies,
    reply: str,
    command_id: str,
    match_id: int,
    command: str,
    fields: dict[str, Any],
) -> dict[str, Any]:
    message = {
        "type": "table.command",
        "match": match_id,
        "command": command,
        "reply": reply,
        "id": command_id,
        **fields,
    }
    for _attempt in range(TRIES):
        await channels.group_send(table_group(match_id), message)
        answer = await first_answer(channels, replies, match_id, message)
        if answer is None:  # nobody holds it: a host takes it, and hears it again
            await claim(match_id)
            continue
        if answer.get("ack"):
            try:
                answer = await replies.get(ANSWER_SECONDS)
            except TimeoutError:
                raise TableError("the table's host is too busy to answer: try again", 503) from None
        if answer.get("moved"):  # its host lost it meanwhile: the next host hears it again
            await claim(match_id)
            continue
        if answer.get("error") is not None:
            raise TableError(answer["error"], answer.get("status", 400))
        return answer
    raise TableError("no table host answered: the table is being moved, try again", 503)


async def first_answer(
    channels, replies: Replies, match_id: int, message: dict[str, Any]
) -> dict[str, Any] | None:
    """The host's first answer (its ack or its outcome), or None when no host holds the table.
    A host that holds the table's lease but answers late is busy (under load its commands
    queue): it is waited for as long as it renews the lease (a dead host's runs out) and at
    most ANSWER_SECONDS, the command sent again every RESEND_SECONDS in case it was lost (a
    host that took the table a moment after it was sent); the host answers a command it heard
    already as the first time, without doing it again (tables/host.py). Before this, a busy
    host's tables were claimed again and their people told "the table is being moved" (3,290
    times in a run of 100 people)."""
    waited = since_sent = 0.0
    while True:
        try:
            return await replies.get(ACK_SECONDS)
        except TimeoutError:
            waited += ACK_SECONDS
            since_sent += ACK_SECONDS
            if not await held_by_a_host_async(match_id):
                return None
            if waited > ANSWER_SECONDS:
                raise TableError("the table's host is too busy to answer: try again", 503) from None
            if since_sent >= RESEND_SECONDS:
                await channels.group_send(table_group(match_id), message)
                since_sent = 0.0


async def held_by_a_host_async(match_id: int) -> bool:
    """`held_by_a_host` from an event loop (its query in a thread)."""
    return await database_sync_to_async(held_by_a_host)(match_id)


def held_by_a_host(match_id: int) -> bool:
    """Whether a host holds the table's lease now (it renews it while it lives)."""
    return (
        LiveMatch.objects.filter(match_id=match_id, host_lease_until__gt=timezone.now())
        .exclude(host="")
        .exists()
    )


def ask(match_id: int, command: str, **fields: Any) -> dict[str, Any]:
    """`ask_async` from synchronous code (a REST request), on the process's event loop
    (tables/loop_thread.py)."""
    return loop_thread.call(ask_async, match_id, command, **fields)


def changed(match_id: int, *, held: bool | None = None) -> None:
    """The table changed outside its host (opened, dealt, its options, a vote): its host builds
    it again from the database and pushes it; a table nobody holds is claimed. `held`: whether a
    host holds it, if the caller knows (a row it just made is held by nobody: a claim heard by
    a host that took it meanwhile changes nothing, tables/host_leases.py); None: asked of the
    row.

    Only a notice, sent once the change is committed: it never fails the request that made the
    change (500 people sitting down at once: a publish timed out, and a table opened and
    committed was answered 500). Unheard, the table is still taken: hosts adopt tables in play
    that nobody holds every half lease (TableHost.adopt), and the next command claims it."""
    try:
        loop_thread.call(
            layer().group_send,
            table_group(match_id),
            {"type": "table.command", "match": match_id, "command": "changed"},
        )
        if not (held_by_a_host(match_id) if held is None else held):
            loop_thread.call(claim, match_id)
    except Exception:
        log.warning("table %s changed; its host could not be told now", match_id, exc_info=True)


def chat_said(match_id: int, message: dict[str, Any]) -> None:
    """A line of the table's chat, pushed to whoever watches the table (a notice: the line is
    written already, and pages whose push is down read it at their next look)."""
    try:
        loop_thread.call(
            layer().group_send, chat_group(match_id), {"type": "table.chat", "message": message}
        )
    except Exception:
        log.warning("table %s: a chat line could not be pushed now", match_id, exc_info=True)
