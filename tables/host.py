"""A table host: the process that keeps tables in play in memory, with their bot processes (one
per robot seat for the whole match, kept across actions and games), runs their robots and their
turn timers, and pushes each change to the players' and spectators' connections.

How a table comes to a host, and leaves it: a host claims a table (a claim on `tables.hosts`,
tables/routing.py) by taking its lease on the live match row (`host`, `host_lease_until`: a
compare-and-set, so one host at a time), joins the table's group and renews its leases every
few seconds, in a thread of their own (tables/host_leases.py). A host that dies stops renewing: when its leases run out, the next command or the
tables' sweep has another host claim the table, which builds it again from the row (the match so
far) and starts its bots again, told the match so far. A table idle for a while gives its bots
back (they are started again when needed), and a host keeps at most TRUCO_TABLE_HOST_TABLES.

Every change is made under the live match's row lock and checked against the row's version
(tables/live.py): a host whose table changed elsewhere (a vote, a deal, another host) builds it
again before changing it. People's decisions are taken at once; robots think in a thread of
their table's own, outside any lock, so that one table's slow robot never holds another's.

Run: `python manage.py table_host` (the production shape: scalable); the embedded default's
web server runs one inside its own process (website/asgi).
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import uvloop
from django.conf import settings
from django.db import close_old_connections, connection, transaction
from django.db.models import Q
from django.utils import timezone, translation

from engine.session import OVER, PAUSED
from stack import metering
from stack.metering import Meter
from tables import routing
from tables.host_leases import Leases, Renewer
from tables.live import (
    ADVANCE_SLICE_SECONDS,
    LiveTable,
    TableError,
    human_ids,
    human_member,
    load_match,
)
from tables.models import LiveMatch, TableHostBeat
from tables.services import not_seated, touch
from tables.signals import writing_as_host
from tables.views_state import CannotWatch, render
from tournaments import dispatch

log = logging.getLogger(__name__)


# A thread's database connection is checked (and closed when broken or too old) at most this
# often: Django's check before each job cost a `SELECT 1` round trip per job, several a decision.
CONNECTION_CHECK_SECONDS = 5.0
_checked = threading.local()


def tidy_connection() -> None:
    """Django's request-start hygiene for a pool thread's connection, at most every
    CONNECTION_CHECK_SECONDS, and at once after a job whose query failed."""
    now = time.monotonic()
    if connection.errors_occurred or now - getattr(_checked, "at", 0.0) > CONNECTION_CHECK_SECONDS:
        close_old_connections()
        _checked.at = now


# A robot's reply that comes within this of a person's decision is pushed with it, one state
# instead of two (the person's card, then the robot's): half the pushes at a bot's table.
QUICK_REPLY_SECONDS = 0.15
# The outcome of a command that comes within this is its own acknowledgement (one message
# instead of two); a slower one is acknowledged first, so that the sender knows it was heard.
QUICK_ANSWER_SECONDS = 0.25
ANSWERS_KEPT = 16
_LIVE = LiveMatch._meta
_LOCK_ROW = (
    f"SELECT {_LIVE.get_field('host').column}, {_LIVE.get_field('version').column}{{also}} "
    f"FROM {_LIVE.db_table} WHERE {_LIVE.get_field('match').column} = %s"
)
# A table's writes at a host do not wait for the disk: PostgreSQL's synchronous_commit is off
# for their transaction (`set_config(..., true)` is `SET LOCAL`), said in the statement that
# locks the row, no round trip more. A durable commit waited for the write-ahead log's flush,
# 4 ms at p50 and 8 ms at p95 on the benchmark's machine: most of a decision's server time. A
# database crash may undo a table's last decisions (those of the last fraction of a second),
# each transaction whole or not at all (a game's end with its chips, say): the host then finds
# the row at an older version, builds the table again from it, and those turns are played
# again. A match's record (its games, result and ratings: TableHost.record) waits for the disk.
_NOT_WAITING = ", set_config('synchronous_commit', 'off', true)"
LOCK_ROW_SQL = {
    # (the database: PostgreSQL or SQLite, which locks the file; the commit waits for the disk)
    ("postgresql", False): _LOCK_ROW.format(also=_NOT_WAITING) + " FOR UPDATE",
    ("postgresql", True): _LOCK_ROW.format(also="") + " FOR UPDATE",
    ("sqlite", False): _LOCK_ROW.format(also=""),
    ("sqlite", True): _LOCK_ROW.format(also=""),
}
CHANGED_MEANWHILE = (
    "the table changed while you played (a vote, a deal, another host): your decision was "
    "not taken; the table is shown again, try again"
)


def host_name() -> str:
    return os.environ.get("TRUCO_HOST_NAME") or f"{socket.gethostname()}:{os.getpid()}"


class TableMoved(TableError):
    """The table's row names another host: this one lost it (its lease ran out)."""


@dataclass
class Watcher:
    """A connection watching a table: what it watches as, and when it was last heard from."""

    viewer: str
    language: str
    player: int | None
    heard: float = field(default_factory=time.monotonic)


@dataclass
class Held:
    """A table this host holds."""

    match_id: int
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    table: LiveTable | None = None
    views: Counter = field(default_factory=Counter)  # (viewer, language): connections
    connected: Counter = field(default_factory=Counter)  # player id: connections
    # The connections watching, by their channel: a connection told to watch again (a host that
    # took the table over asks them all: TableHost.claim) is counted once; one not heard from
    # for WATCH_LAPSE_SECONDS is forgotten (its server died without saying it left).
    watchers: dict[str, Watcher] = field(default_factory=dict)
    last_seen: dict[int, Any] = field(default_factory=dict)
    timer: asyncio.TimerHandle | None = None
    active: float = field(default_factory=time.monotonic)
    touched: dict[int, tuple[float, str]] = field(default_factory=dict)  # Presence written
    thinking: bool = False
    # The last commands' answers by id: a command its sender sent again (its host seemed gone)
    # is answered as the first time, not done twice.
    answers: dict[str, Any] = field(default_factory=dict)
    # Resolved (and replaced) when the host has pushed a change of the table: REST players'
    # `GET ?wait=` wait on it, the host's loop tells them, nobody polls (TableHost.robots_played).
    change: asyncio.Future | None = None

    def next_change(self) -> asyncio.Future:
        if self.change is None or self.change.done():
            self.change = asyncio.get_running_loop().create_future()
        return self.change

    def changed(self) -> None:
        if self.change is not None and not self.change.done():
            self.change.set_result(None)

    def remember(self, command_id: str | None, answer: Any) -> None:
        if command_id is None:
            return
        self.answers[command_id] = answer
        while len(self.answers) > ANSWERS_KEPT:
            del self.answers[next(iter(self.answers))]


class TableHost:
    def __init__(self, name: str | None = None, *, threads: int | None = None):
        self.name = name or host_name()
        self.held: dict[int, Held] = {}
        self.lease = float(settings.TRUCO_TABLE_LEASE_SECONDS)
        self.idle = float(settings.TRUCO_TABLE_IDLE_SECONDS)
        self.capacity = int(settings.TRUCO_TABLE_HOST_TABLES)
        # Two pools. The database's jobs (a decision written, a table rendered: milliseconds)
        # run in a few threads, each keeping its connection; the robots' thinking (a bot
        # process's reply: up to its time per decision) in many threads that keep none. One
        # pool of 64 for both held a connection a thread: two hosts under 500 people opened
        # more than PostgreSQL's 100 and their people were told "too many clients".
        self.pool = ThreadPoolExecutor(
            max_workers=threads or int(settings.TRUCO_TABLE_HOST_DB_THREADS),
            thread_name_prefix="table",
        )
        self.robots = ThreadPoolExecutor(
            max_workers=threads or int(settings.TRUCO_TABLE_HOST_THREADS),
            thread_name_prefix="robots",
        )
        self.channel: str | None = None
        self.stopping = False
        self.tasks: set[asyncio.Task] = set()
        self.leases = Leases(self.name, self.lease)  # tables/host_leases.py
        self.claiming: set[int] = set()  # claims under way: a table is claimed once
        self.renewer: Renewer | None = None

    # --- running ----------------------------------------------------------------------------
    async def serve(self) -> None:
        layer = routing.layer()
        self.channel = await layer.new_channel()
        await self.run(self.leases.beat)
        # Leases are renewed in a thread of their own: a loop busy with a hundred tables
        # starting at once never lets them lapse (tables/host_leases.py).
        loop = asyncio.get_running_loop()
        self.renewer = Renewer(
            self.leases,
            self.lease / 3,
            lambda gone: loop.call_soon_threadsafe(self.spawn, self.lost(gone)),
        )
        self.renewer.start()
        loops = [
            self._receive(self.channel),
            self._receive(routing.HOSTS_CHANNEL),
            self._every(10.0, self.tidy),
            self._every(self.lease / 2, self.adopt),
        ]
        try:
            await asyncio.gather(*loops)
        finally:
            await self.stop()

    async def stop(self) -> None:
        self.stopping = True
        if self.renewer is not None:
            await asyncio.get_running_loop().run_in_executor(None, self.renewer.stop)
        for match_id in list(self.held):
            await self.drop(match_id, release=True)
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.robots.shutdown(wait=False, cancel_futures=True)

    async def run(self, function, *args, meter: Meter | None = None):
        """`function` in a thread of the host's pool, with fresh database connections; its
        queries and time counted into `meter` if given (stack/metering.py)."""

        def job():
            tidy_connection()
            with writing_as_host():  # its own writes tell no host (tables/signals.py)
                if meter is None:
                    return function(*args)
                with meter.measuring():
                    return function(*args)

        return await asyncio.get_running_loop().run_in_executor(self.pool, job)

    async def think(self, table: LiveTable, until: float, meter: Meter | None = None) -> str:
        """The table's robots think (LiveTable.think) in the robots' pool, the time counted as
        the robot's. Thinking writes nothing and reads only who is away, read first in the
        database's pool; a connection it opened all the same is closed, so that the robots'
        threads hold none."""

        if table.presence_due():  # who is away: read here, where connections are kept
            await self.run(table.presence)

        def job():
            try:
                with writing_as_host():
                    if meter is None:
                        return table.think(until)
                    with meter.spending("bot"):
                        return table.think(until)
            finally:
                if connection.connection is not None:
                    connection.close()

        return await asyncio.get_running_loop().run_in_executor(self.robots, job)

    async def _receive(self, channel: str) -> None:
        layer = routing.layer()
        while not self.stopping:
            try:
                message = await layer.receive(channel)
            except Exception:  # Redis away a moment: hear again, never stop hearing
                log.exception("table host %s: the channel layer failed; hearing again", self.name)
                await asyncio.sleep(1.0)
                continue
            self.spawn(self.dispatch(message))

    def spawn(self, awaitable) -> None:
        """A task of its own, kept referenced until it ends (the loop keeps only weak ones)."""
        task = asyncio.create_task(self._safely(awaitable))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _every(self, seconds: float, function) -> None:
        while not self.stopping:
            await asyncio.sleep(seconds)
            await self._safely(function())

    async def _safely(self, awaitable) -> None:
        try:
            await awaitable
        except Exception:  # one table's trouble never stops the host
            log.exception("table host %s", self.name)

    # --- messages ---------------------------------------------------------------------------
    async def dispatch(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "table.claim":
            await self.claim(int(message["match"]))
        elif kind == "table.command":
            await self.command(message)

    async def reply(self, message: dict[str, Any], answer: dict[str, Any]) -> None:
        if message.get("reply"):
            # The command's id tells its sender's desk whose answer it is (routing.ReplyDesk).
            reply = {"type": "table.reply", **answer, "id": message.get("id")}
            await routing.layer().send(message["reply"], reply)

    async def command(self, message: dict[str, Any]) -> None:
        match_id = int(message["match"])
        held = self.held.get(match_id)
        if held is None:
            return  # not ours (any more): the sender claims it when nobody acknowledges
        message["_heard"] = time.time()  # the benchmark's stages (on_act)
        work = asyncio.ensure_future(self.outcome(held, message))
        done, _ = await asyncio.wait({work}, timeout=QUICK_ANSWER_SECONDS)
        if not done:
            await self.reply(message, {"ack": True, "id": message.get("id")})
        answer = await work
        if answer is not None:
            await self.reply(message, answer)

    async def outcome(self, held: Held, message: dict[str, Any]) -> dict[str, Any] | None:
        """What the command `message` answers: its handler's answer, or what went wrong."""
        command_id = message.get("id")
        if message.get("command") == "state" and message.get("wait"):
            # Outside the table's lock: the robots waited for play under it.
            await self.robots_played(held, float(message["wait"]))
            if self.held.get(held.match_id) is not held:
                return {"moved": True}  # dropped meanwhile: the next host answers
        try:
            async with held.lock:
                held.active = time.monotonic()
                message["_started"] = time.time()
                if command_id is not None and command_id in held.answers:
                    return held.answers[command_id]  # sent again: answered, not done again
                answer = await getattr(self, f"on_{message['command']}")(held, message)
                held.remember(command_id, answer)
                return answer
        except TableMoved:
            await self.drop(held.match_id, release=False)  # not ours any more
            return {"moved": True}
        except TableError as exc:
            answer = {"error": str(exc), "status": exc.status}
            held.remember(command_id, answer)
            return answer

    # --- holding tables ---------------------------------------------------------------------
    async def claim(self, match_id: int) -> None:
        if match_id in self.held or match_id in self.claiming or self.stopping:
            # Held, or being claimed: claims come from every sender that heard nothing and
            # from every host's look for orphans, and a second one taken while the first
            # built the table made a second table (and bot processes) for the same seats.
            return
        if len(self.held) >= self.capacity:
            await routing.claim(match_id)  # full here: another host takes it
            return
        self.claiming.add(match_id)
        try:
            if not await self.run(self.take_lease, match_id):
                return
            held = self.held[match_id] = Held(match_id)
            await routing.layer().group_add(routing.table_group(match_id), self.channel)
        finally:
            self.claiming.discard(match_id)
        async with held.lock:
            if not await self.run(self.rebuild, held):
                await self.drop(match_id, release=True)
                return
            # Pages that watched the table at a host that died or let it go are connected
            # still, but this host knows none of them: each is asked to watch again (all of a
            # table's connections are in its chat group), else none would hear another state
            # and their people would be taken for away.
            await routing.layer().group_send(
                routing.chat_group(match_id), {"type": "table.rewatch", "match": match_id}
            )
            await self.play_on(held)

    def take_lease(self, match_id: int) -> bool:
        """Take table `match_id`'s lease (tables/host_leases.py), renewed from then on."""
        if not self.leases.take(match_id):
            return False
        self.leases.hold(match_id)
        return True

    async def drop(self, match_id: int, *, release: bool) -> None:
        held = self.held.pop(match_id, None)
        if held is None:
            return
        held.changed()  # its waiting players ask again, of the next host
        self.leases.let_go(match_id)
        if held.timer is not None:
            held.timer.cancel()
        await routing.layer().group_discard(routing.table_group(match_id), self.channel)
        if held.table is not None:
            await self.run(held.table.close_bots)
        if release:
            await self.run(self.leases.release, match_id)

    async def lost(self, claims: dict[int, int]) -> None:
        """Tables whose lease the renewal could not renew (another host holds them now, or
        they are over) are dropped, their bots stopped: {table: the claim the renewal read}.
        A table dropped and taken again since then is held by a newer claim, and kept."""
        for match_id, claim in claims.items():
            if self.leases.claim_of(match_id) == claim:
                await self.drop(match_id, release=False)

    async def adopt(self) -> None:
        """Tables in play that no host holds (never claimed, or their host died: its leases ran
        out) are claimed, one host each: a dead host's tables go on without anyone asking."""
        for match_id in await self.run(self.orphans):
            await routing.claim(match_id)

    def orphans(self) -> list[int]:
        return list(
            LiveMatch.objects.filter(
                match__status="running",
                waiting__in=(LiveMatch.Waiting.HUMAN, LiveMatch.Waiting.BOTS),
            )
            .filter(Q(host_lease_until__isnull=True) | Q(host_lease_until__lt=timezone.now()))
            .values_list("match_id", flat=True)[: max(0, self.capacity - len(self.held))]
        )

    async def tidy(self) -> None:
        """Tables idle for a while give their bots back; tables over and unwatched go."""
        now = time.monotonic()
        for match_id, held in list(self.held.items()):
            if held.lock.locked():
                continue  # its views are being rendered, in a thread: counted later
            self.forget_lapsed_watchers(held, now)
            if now - held.active < self.idle:
                continue
            table = held.table
            if table is None or table.game is None and not held.views:
                await self.drop(match_id, release=True)
            elif not held.connected:
                await self.run(table.close_bots)

    # --- building and playing -------------------------------------------------------------
    def rebuild(self, held: Held) -> bool:
        """The table from its rows, keeping the bots of its seats (one process per seat)."""
        try:
            match = load_match(held.match_id)
        except TableError:
            return False
        live = LiveMatch.objects.filter(match=match).first()
        if live is None or live.host != self.name:
            return False
        if held.table is None:
            held.table = LiveTable(match, live)
        else:
            held.table.refresh(match, live)
        held.table.record_later = True  # after the reply: `record_match`
        held.table.seen(held.connected, held.last_seen)
        return True

    def locked_row(self, held: Held) -> None:
        """The table's row locked for the caller's transaction; the table built again if it
        changed elsewhere since this host wrote it."""
        host, version = self.lock_row(held)
        if host != self.name:
            raise TableMoved("this table moved to another host: try again", 503)
        if held.table is None or version != held.table.version:
            self.rebuild(held)
        held.table.seen(held.connected, held.last_seen)

    def lock_row(self, held: Held, *, durable: bool = False) -> tuple[str | None, int | None]:
        """The table's row locked for the caller's transaction: (its host, its version). Only
        those two columns are read: the row's games and logs are what this host holds. Its
        commit waits for the disk only if `durable` (LOCK_ROW_SQL says why)."""
        with connection.cursor() as cursor:
            # Two columns by primary key, at every decision: the ORM's compiling of this query
            # was a tenth of a busy host's time (py-spy), so it is written out once.
            cursor.execute(LOCK_ROW_SQL[connection.vendor, durable], [held.match_id])
            row = cursor.fetchone()
        return (row[0], row[1]) if row is not None else (None, None)

    async def play_on(self, held: Held, *, pushed: bool = False) -> None:
        """After a change: push it (unless `pushed` already); robots to play think, outside
        any lock, slice by slice, and what they played is written under it; a person's turn
        gets its timer."""
        if not pushed:
            await self.push(held)
        while held.table is not None and held.table.game is not None:
            table = held.table
            game = table.game
            written = table.live.waiting == LiveMatch.Waiting.HUMAN  # a fresh row says "bots"
            if game.waiting_for_person and written and not await self.anyone_absent(held):
                break
            version = table.version
            status = await self.think(table, time.monotonic() + ADVANCE_SLICE_SECONDS)
            # What the robots played written and the table rendered in one job (two before).
            kept, states = await self.run(self.keep_and_render, held, version, status)
            if not kept:
                break
            await self.send(states)
            held.changed()
            if status not in (OVER, PAUSED) and game.waiting_for_person:
                break
        if held.table is not None and held.table.to_record and await self.run(self.record, held):
            await self.push(held)  # the match's result
        held.changed()
        self.set_timer(held)
        if held.table is not None and held.table.recorded:
            await self.run(dispatch.continue_tournament, held.table.tournament.pk)
            held.table.recorded = False

    def record(self, held: Held) -> bool:
        """The match whose last game a decision (or a robot) ended, recorded after the reply
        (record_match: games, result, ratings, once), under the live match's lock."""
        with transaction.atomic():
            host, version = self.lock_row(held, durable=True)
            if host != self.name:
                return False
            if version != held.table.version:
                self.rebuild(held)
            if not held.table.to_record:
                return False
            held.table.record()
            held.table.save()
        return True

    async def anyone_absent(self, held: Held) -> bool:
        """Whether a person of the table is away past the grace (a robot stands in). With every
        person connected to this host the answer is no, without a thread's hop for it."""
        table = held.table
        people = {s.player for s in table.seats if s.is_human}
        if people <= held.connected.keys():
            return False
        return bool(await self.run(table.absent_seats))

    def keep_and_render(
        self, held: Held, version: int, status: str
    ) -> tuple[bool, list[tuple[str, dict[str, Any]]]]:
        """`keep_thinking`, then the table's views rendered (the robots' moves, or the table
        built again): in one job, one thread hop."""
        kept = self.keep_thinking(held, version, status)
        return kept, self.render_views(held) if held.table is not None else []

    def keep_thinking(self, held: Held, version: int, status: str) -> bool:
        with transaction.atomic():
            host, written = self.lock_row(held)
            if host != self.name or written != version:
                self.rebuild(held)  # the table moved meanwhile: its moves are dropped
                return False
            if status == OVER:
                held.table.end_game()
            held.table.save()
        return True

    def set_timer(self, held: Held) -> None:
        if held.timer is not None:
            held.timer.cancel()
            held.timer = None
        table = held.table
        if table is None or table.game is None:
            return
        live = table.live
        loop = asyncio.get_running_loop()
        due = None
        if live.turn_deadline is not None and table.game.waiting_for_person:
            due = (live.turn_deadline - timezone.now()).total_seconds() + 0.05
            args = ("time_out", live.game_no, table.game.ply)
        elif table.game.waiting_for_person:
            # No timer: a person away past the grace is played for once it has passed.
            grace = table.settings.disconnect_grace_seconds
            due, args = grace + 0.5, ("absent", live.game_no, table.game.ply)
        if due is not None:
            held.timer = loop.call_later(max(0.0, due), lambda: self.spawn(self.due(held, *args)))

    async def due(self, held: Held, kind: str, game_no: int, ply: int) -> None:
        if self.held.get(held.match_id) is not held:
            return
        async with held.lock:
            if kind == "time_out":
                if await self.run(self.expire, held, game_no, ply):
                    await self.play_on(held)
            else:
                await self.play_on(held)

    def expire(self, held: Held, game_no: int, ply: int) -> bool:
        with transaction.atomic():
            self.locked_row(held)
            if not held.table.time_out(game_no, ply):
                return False
            held.table.save()
        return True

    # --- pushing -----------------------------------------------------------------------------
    async def push(self, held: Held, meter: Meter | None = None) -> None:
        """The table as it is, to every view of it."""
        if held.table is not None:
            await self.send(await self.run(self.render_views, held, meter=meter))

    def render_views(self, held: Held) -> list[tuple[str, dict[str, Any]]]:
        """(group, state) for every view of the table, rendered in one job."""
        states = []
        for viewer, language in list(held.views):
            state = self.render(held, viewer, language)
            if state is not None:
                states.append((routing.view_group(held.match_id, viewer, language), state))
        return states

    async def send(self, states: list[tuple[str, dict[str, Any]]]) -> None:
        layer = routing.layer()
        for group, state in states:
            await layer.group_send(group, {"type": "table.state", "state": state})

    def render(self, held: Held, viewer: str, language: str) -> dict[str, Any] | None:
        player = None
        # Viewers are `p<player id>`, `staff` and `public` (tables/push.py): "public" starts
        # with a p too, and read as a player it raised, which broke every push of a table a
        # spectator watched.
        if viewer.startswith("p") and viewer[1:].isdigit():
            # A person of the table is a member of the match, read with it (no query); anyone
            # else sees what a spectator sees (whose seats are whose is all render reads).
            player = human_member(held.table.match, int(viewer[1:]))
        with translation.override(language):
            try:
                return render(held.table.match, held.table, player, staff=viewer == "staff")
            except CannotWatch:
                return None

    # --- the commands ------------------------------------------------------------------------
    async def on_act(self, held: Held, message: dict[str, Any]) -> dict[str, Any]:
        meter = Meter() if metering.enabled() else None
        if meter is not None:
            # Where the decision's time goes (bench_play's stages): the ASGI server heard it
            # (`received`), this host's loop did (`heard`), the table's turn came (`started`),
            # the state with the next decision was pushed (`pushed`); the robot's thinking.
            for name, key in (
                ("received", "received"),
                ("heard", "_heard"),
                ("started", "_started"),
            ):
                if message.get(key) is not None:
                    meter.stamps[name] = float(message[key])
        table = held.table
        if table is None or table.bots_reply_at_once():
            # Built-in robots of a millisecond a decision reply in the decision's transaction.
            await self.send(await self.run(self.act_at_once, held, message, meter, meter=meter))
            if meter is not None:
                meter.stamp("pushed")
        else:
            await self.act_then_reply(held, message, meter)
        # Robots still to play (a slice's end, more robots) think after the answer, and what
        # they play is pushed too; a person's turn gets its timer.
        self.then_play_on(held, pushed=True)
        answer = {"ok": True, "version": held.table.version if held.table else None}
        if message.get("viewer") and held.table is not None:
            # A REST request's person: their state, so that the request reads nothing again.
            answer["state"] = await self.run(
                self.render, held, message["viewer"], message["language"], meter=meter
            )
        if meter is not None:
            meter.stamp("answered")
            answer["meter"] = meter.to_json()
        return answer

    async def act_then_reply(self, held: Held, message: dict[str, Any], meter) -> None:
        """A person's decision at a table of bot processes. The decision is taken in memory
        and the robot to reply starts thinking at once: a reply within QUICK_REPLY_SECONDS is
        written with the decision in one transaction and pushed with it as one state (half
        the writes and pushes of a decision); else the decision is written and pushed first,
        the reply after it. Until it is written the decision is not answered, so a host that
        dies meanwhile loses nothing: its sender sends it again to the next host."""
        table = held.table
        version = table.version
        values, rendered = await self.run(self.act_in_memory, held, message, meter=meter)
        game = table.game
        if game is None or game.waiting_for_person or game.over:
            await self.run(self.write_decision, held, version, values, meter=meter)
            await self.send(rendered)
            if meter is not None:
                meter.stamp("pushed")
            return
        # The table was rendered before the robot thinks, never while (its game changes in
        # the robot's thread), and nothing rebuilds it until the robot is done.
        thinking = asyncio.ensure_future(
            self.think(table, time.monotonic() + ADVANCE_SLICE_SECONDS, meter)
        )
        done, _ = await asyncio.wait({thinking}, timeout=QUICK_REPLY_SECONDS)
        if not done:
            written = await self.run(self.write_decision, held, version, values, False, meter=meter)
            if written:
                await self.send(rendered)
                version = table.version
        # The reply written and the table rendered (the reply, or the table built again) in
        # one job: one thread hop, not two.
        kept, states = await self.run(
            self.keep_and_render, held, version, await thinking, meter=meter
        )
        await self.send(states)
        if meter is not None:
            meter.stamp("pushed")
        if not kept:
            raise TableError(CHANGED_MEANWHILE, 409)

    def act_at_once(
        self, held: Held, message: dict[str, Any], meter: Meter | None = None
    ) -> list[tuple[str, Any]]:
        """The person's decision and the instant robots' replies, written in one transaction;
        the table's views rendered then."""
        with transaction.atomic():
            self.locked_row(held)
            self.take_decision(held, message)
            if held.table.bots_reply_at_once():
                # A millisecond a decision: in this transaction.
                if meter is None:
                    held.table.advance()
                else:  # counted in the server's time too: bench_play takes it out
                    with meter.spending("instant_bot"):
                        held.table.advance()
            held.table.save()
        return self.render_views(held)

    def act_in_memory(self, held: Held, message: dict[str, Any]) -> tuple[dict, list]:
        """The person's decision taken on the table in memory, not written: (the row's values
        then, the table's views rendered then)."""
        held.table.seen(held.connected, held.last_seen)
        self.take_decision(held, message)
        return held.table.row_values(), self.render_views(held)

    def take_decision(self, held: Held, message: dict[str, Any]) -> None:
        player = int(message["player"])
        table = held.table
        if player not in human_ids(table.match):
            raise TableError(not_seated(table.settings), 403)
        table.act(player, message.get("action"), message.get("seat"), message.get("turn"))
        self.seen_here(held, player, message.get("ip"))

    def seen_here(self, held: Held, player: int, ip: str | None) -> None:
        """A person's decision or request at the table: they are here. Presence rows (the
        shared-address rule, REST players' absence) need not be written at every one: the
        host knows who is here meanwhile; at most every 10 s, or from a new address."""
        written = held.touched.get(player)
        if ip and (written is None or written[1] != ip or time.monotonic() - written[0] > 10):
            touch(held.match_id, player, ip)
            held.touched[player] = (time.monotonic(), ip)
        held.last_seen[player] = timezone.now()

    def write_decision(
        self, held: Held, version: int, values: dict[str, Any], rebuild: bool = True
    ) -> bool:
        """Write a decision taken in memory at `version` of the row, if the row is still at
        it; else (a vote, a deal, another host changed it meanwhile) the decision is dropped:
        the table is built again (`rebuild`, when no robot is thinking on it) and the person
        told to try again, or False."""
        with transaction.atomic():
            host, written = self.lock_row(held)
            if host == self.name and written == version:
                held.table.save(values=values)
                return True
        if not rebuild:
            return False
        if host != self.name:
            raise TableMoved("this table moved to another host: try again", 503)
        self.rebuild(held)
        raise TableError(CHANGED_MEANWHILE, 409)

    def then_play_on(self, held: Held, *, pushed: bool = False) -> None:
        async def later():
            async with held.lock:
                if self.held.get(held.match_id) is held:
                    await self.play_on(held, pushed=pushed)

        self.spawn(later())

    async def on_changed(self, held: Held, message: dict[str, Any]) -> None:
        await self.run(self.rebuild, held)
        await self.play_on(held)

    async def on_watch(self, held: Held, message: dict[str, Any]) -> dict[str, Any]:
        viewer, language = message["viewer"], message["language"]
        player = message.get("player")
        connection = message.get("connection")
        if connection is None or connection not in held.watchers:
            if connection is not None:
                held.watchers[connection] = Watcher(viewer, language, player)
            held.views[(viewer, language)] += 1
            if player is not None:
                held.connected[player] += 1
        else:
            held.watchers[connection].heard = time.monotonic()
        if player is not None:
            held.last_seen[player] = timezone.now()
        state = await self.run(self.render, held, viewer, language)
        if player is not None and held.table is not None and held.table.stood_in:
            self.then_play_on(held)  # back: the robot standing in hands the seat back
        return {"state": state}

    async def on_still(self, held: Held, message: dict[str, Any]) -> None:
        """A connection still watching (tables/push.py says so every WATCH_RENEW_SECONDS)."""
        watcher = held.watchers.get(message.get("connection"))
        if watcher is not None:
            watcher.heard = time.monotonic()

    async def on_unwatch(self, held: Held, message: dict[str, Any]) -> None:
        connection = message.get("connection")
        if connection is not None:
            if connection not in held.watchers:
                return  # it watched another host (before this one took the table over)
            del held.watchers[connection]
        self.unwatched(held, message["viewer"], message["language"], message.get("player"))
        return None

    def unwatched(self, held: Held, viewer: str, language: str, player: int | None) -> None:
        key = (viewer, language)
        held.views[key] -= 1
        if held.views[key] <= 0:
            del held.views[key]
        if player is not None:
            held.connected[player] -= 1
            held.last_seen[player] = timezone.now()
            if held.connected[player] <= 0:
                del held.connected[player]
                self.set_timer(held)  # away: played for once the grace has passed

    def forget_lapsed_watchers(self, held: Held, now: float) -> None:
        """The connections not heard from for WATCH_LAPSE_SECONDS: their server died without
        saying they left. Counted on, they kept a person who had gone from being taken for
        away, and a table over from ever being let go (`tidy`)."""
        for channel, watcher in list(held.watchers.items()):
            if now - watcher.heard > routing.WATCH_LAPSE_SECONDS:
                del held.watchers[channel]
                self.unwatched(held, watcher.viewer, watcher.language, watcher.player)

    async def robots_played(self, held: Held, seconds: float) -> None:
        """A REST player's `GET ?wait=`: until the table waits no more for its robots (as its
        row says, which the web server read every 50 ms before: a query each time, and up to 50
        ms late), at most `seconds`. Woken by each change this host pushes."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + min(seconds, routing.MAX_WAIT_SECONDS)
        while (
            self.held.get(held.match_id) is held
            and held.table is not None
            and held.table.live.waiting == LiveMatch.Waiting.BOTS
        ):
            left = deadline - loop.time()
            if left <= 0:
                return
            try:
                await asyncio.wait_for(asyncio.shield(held.next_change()), left)
            except TimeoutError:
                return

    async def on_state(self, held: Held, message: dict[str, Any]) -> dict[str, Any]:
        """The table as one viewer sees it, from memory (a REST player's `GET`: they are here)."""
        state = await self.run(self.state_for, held, message)
        if state is None:
            raise TableError("this table does not allow spectators", 403)
        return {"state": state}

    def state_for(self, held: Held, message: dict[str, Any]) -> dict[str, Any] | None:
        player = message.get("player")
        table = held.table
        if player is not None and table is not None and int(player) in human_ids(table.match):
            self.seen_here(held, int(player), message.get("ip"))
        return self.render(held, message["viewer"], message["language"])


def serve_forever() -> None:
    """Run a table host in this process until SIGTERM or SIGINT (manage.py table_host): on
    either it gives its tables back at once (their leases released) for another host to take."""

    async def main() -> None:
        task = asyncio.create_task(TableHost().serve())
        loop = asyncio.get_running_loop()
        for stop in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(stop, task.cancel)
        try:
            await task
        except asyncio.CancelledError:
            pass

    # uvloop: the host's loop carries every command, push and bot's reply of its tables.
    uvloop.run(main())


def alive_here() -> bool:
    """Whether a table host of this machine beat lately (the container's health check)."""
    recent = timezone.now() - timedelta(seconds=3 * settings.TRUCO_TABLE_LEASE_SECONDS)
    prefix = os.environ.get("TRUCO_HOST_NAME") or f"{socket.gethostname()}:"
    return TableHostBeat.objects.filter(name__startswith=prefix, seen_at__gte=recent).exists()
