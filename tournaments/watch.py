"""Watching a running bot match live: a WebSocket per spectator (`/ws/matches/<id>/watch/`),
served by the ASGI server like the tables' (tables/push.py).

The worker playing the match writes its view to the `live` cache (tournaments/live_feed.py); one
reader a match and process (MatchFollower) reads it every POLL_SECONDS and hands each new one
to every connection watching the match there, which sends it, then `{"type": "done"}` once the
match is over (its games are then in their replays) and closes. Messages to the page:
`{"type": "view", "live": {...}}` (what `GET /api/matches/<id>/live/` answers as `live`),
`{"type": "status", "status": "queued"}` while it waits for a worker, `{"type": "done"}`.
Only the spectator's view is ever sent: never a card a spectator may not see. A match where
people play is watched at its table instead (4404 here).
"""

from __future__ import annotations

import asyncio
import logging
import weakref

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.urls import path

from tournaments import live_feed
from tournaments.models import Match

log = logging.getLogger(__name__)

POLL_SECONDS = 0.1  # one reader a match and process: looks are cheap, views come sooner
STATUS_EVERY = 20  # looks between two reads of the match's status (2 s)
NOT_HERE = 4404


def bot_match(match_id: int) -> Match | None:
    """A bot-only match with what naming its seats needs, or None (no such match, or people
    play in it)."""
    match = (
        Match.objects.select_related("tournament", "entrant_a", "entrant_b")
        .filter(pk=match_id)
        .first()
    )
    return match if match is not None and live_feed.bots_only(match) else None


def status_of(match_id: int) -> str:
    return (
        Match.objects.filter(pk=match_id).values_list("status", flat=True).first()
        or Match.Status.CANCELLED
    )


def seats_for(match: Match, a_team: int) -> list[dict]:
    return live_feed.named_seats(match, match.tournament.players, a_team)


class MatchFollower:
    """One running match's feed, read for every spectator of it that this process serves: one
    look at the cache every POLL_SECONDS and one at the match's status every STATUS_EVERY
    looks, whatever the number of spectators, each new message handed to each of them. With a
    reader for each connection, five hundred spectators of a final made two thousand cache reads
    and 250 queries a second."""

    _followers: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # loop -> {id: it}
    KEPT = 32  # messages waiting for a spectator too slow to take them: the oldest go

    def __init__(self, match: Match, here: dict[int, MatchFollower]):
        self.match = match
        self.here = here  # this loop's followers, by match
        self.status = match.status
        self.last_view: dict | None = None
        self.listeners: set[asyncio.Queue] = set()
        self.task: asyncio.Task | None = None

    @classmethod
    def join(cls, match: Match) -> tuple[MatchFollower, asyncio.Queue]:
        """The match's follower in this event loop (started if none runs) and a queue of the
        messages for one more spectator, beginning with what a newcomer needs: the status of
        a match not running, the latest view."""
        here = cls._followers.setdefault(asyncio.get_running_loop(), {})
        follower = here.get(match.pk)
        if follower is None or follower.task is None or follower.task.done():
            follower = here[match.pk] = cls(match, here)
            follower.task = asyncio.create_task(follower.run())
        queue: asyncio.Queue = asyncio.Queue()
        if follower.status != Match.Status.RUNNING:
            queue.put_nowait({"type": "status", "status": follower.status})
        if follower.last_view is not None:
            queue.put_nowait(follower.last_view)
        follower.listeners.add(queue)
        return follower, queue

    def leave(self, queue: asyncio.Queue) -> None:
        self.listeners.discard(queue)
        if not self.listeners and self.task is not None:
            self.task.cancel()  # nobody watches here any more: the next spectator starts anew
            self.forget()

    def forget(self) -> None:
        if self.here.get(self.match.pk) is self:
            del self.here[self.match.pk]

    def tell(self, message: dict) -> None:
        for queue in self.listeners:
            if queue.qsize() >= self.KEPT:
                queue.get_nowait()
            queue.put_nowait(message)

    async def run(self) -> None:
        match = self.match
        seen = None
        seats: dict[int, list[dict]] = {}  # by the team side A plays
        polls = 0
        read = database_sync_to_async(live_feed.latest)
        try:
            while self.status not in Match.FINISHED:
                try:
                    feed = await read(match.pk) if self.status == Match.Status.RUNNING else None
                    if feed is not None and feed.get("seq") != seen:
                        a_team = feed.get("a_team", 0)
                        if a_team not in seats:
                            seats[a_team] = await database_sync_to_async(seats_for)(match, a_team)
                        seen = feed.get("seq")
                        self.last_view = {"type": "view", "live": {**feed, "seats": seats[a_team]}}
                        self.tell(self.last_view)
                    polls += 1
                    if polls % STATUS_EVERY == 0:
                        new = await database_sync_to_async(status_of)(match.pk)
                        if new != self.status:
                            self.status = new
                            self.tell({"type": "status", "status": new})
                except Exception:
                    # The database away a moment: every spectator waits, none is left hanging.
                    log.warning(
                        "match %s: its spectators' view could not be read", match.pk, exc_info=True
                    )
                await asyncio.sleep(POLL_SECONDS)
            self.tell({"type": "done", "status": self.status})
        finally:
            self.forget()


class WatchConsumer(AsyncJsonWebsocketConsumer):
    task: asyncio.Task | None = None
    follower: MatchFollower | None = None
    queue: asyncio.Queue | None = None

    async def connect(self):
        match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        match = await database_sync_to_async(bot_match)(match_id)
        if match is None:
            await self.close(code=NOT_HERE)
            return
        await self.accept()
        self.follower, self.queue = MatchFollower.join(match)
        self.task = asyncio.create_task(self.follow(self.queue))

    async def disconnect(self, code):
        if self.task is not None:
            self.task.cancel()
        if self.follower is not None:
            self.follower.leave(self.queue)

    async def receive_json(self, content, **kwargs):
        await self.send_json({"type": "error", "detail": "spectators only listen", "status": 400})

    async def follow(self, queue: asyncio.Queue) -> None:
        while True:
            message = await queue.get()
            await self.send_json(message)
            if message["type"] == "done":
                await self.close()
                return


websocket_urls = [path("ws/matches/<int:match_id>/watch/", WatchConsumer.as_asgi())]
