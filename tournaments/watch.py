"""Watching a running bot match live: a WebSocket per spectator (`/ws/matches/<id>/watch/`),
served by the ASGI server like the tables' (tables/push.py).

The worker playing the match writes its view to the `live` cache (tournaments/live_feed.py); a
connection reads it every POLL_SECONDS and sends each new one, then `{"type": "done"}` once the
match is over (its games are then in their replays) and closes. Messages to the page:
`{"type": "view", "live": {...}}` (what `GET /api/matches/<id>/live/` answers as `live`),
`{"type": "status", "status": "queued"}` while it waits for a worker, `{"type": "done"}`.
Only the spectator's view is ever sent: never a card a spectator may not see. A match where
people play is watched at its table instead (4404 here).
"""

from __future__ import annotations

import asyncio

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.urls import path

from tournaments import live_feed
from tournaments.models import Match

POLL_SECONDS = 0.25
STATUS_EVERY = 8  # polls between two reads of the match's status
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


class WatchConsumer(AsyncJsonWebsocketConsumer):
    task: asyncio.Task | None = None

    async def connect(self):
        match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        match = await database_sync_to_async(bot_match)(match_id)
        if match is None:
            await self.close(code=NOT_HERE)
            return
        await self.accept()
        self.task = asyncio.create_task(self.follow(match))

    async def disconnect(self, code):
        if self.task is not None:
            self.task.cancel()

    async def receive_json(self, content, **kwargs):
        await self.send_json({"type": "error", "detail": "spectators only listen", "status": 400})

    async def follow(self, match: Match) -> None:
        status = match.status
        seen = None
        seats: dict[int, list[dict]] = {}  # by the team side A plays
        polls = 0
        read = database_sync_to_async(live_feed.latest)
        if status != Match.Status.RUNNING:
            await self.send_json({"type": "status", "status": status})
        while status not in Match.FINISHED:
            feed = await read(match.pk) if status == Match.Status.RUNNING else None
            if feed is not None and feed.get("seq") != seen:
                seen = feed.get("seq")
                a_team = feed.get("a_team", 0)
                if a_team not in seats:
                    seats[a_team] = await database_sync_to_async(seats_for)(match, a_team)
                await self.send_json({"type": "view", "live": {**feed, "seats": seats[a_team]}})
            await asyncio.sleep(POLL_SECONDS)
            polls += 1
            if polls % STATUS_EVERY == 0:
                new = await database_sync_to_async(status_of)(match.pk)
                if new != status:
                    status = new
                    await self.send_json({"type": "status", "status": status})
        await self.send_json({"type": "done", "status": status})
        await self.close()


websocket_urls = [path("ws/matches/<int:match_id>/watch/", WatchConsumer.as_asgi())]
