"""The push channel of a table: a WebSocket per viewer (`/ws/play/matches/<id>/`), served by the
ASGI server (Django Channels), which holds hundreds of idle connections without a thread each.

A connection joins the group of its view (`view.<match>.<viewer>.<language>`: a player's own
seats' view, or the spectators'), tells the table's host it watches (the host renders that view
after every change and sends it to the group), and forwards its person's actions to the host.
Messages, as JSON:

- from the page: `{"type": "act", "action": "play 4c", "turn": 12, "seat": 0}`;
- to the page: `{"type": "state", "state": {...}}` (what `GET /api/play/matches/<id>/` answers),
  `{"type": "acted", "turn": 12}`, `{"type": "error", "detail": ..., "status": 409}`,
  `{"type": "chat", "message": {...}}`.

A spectator's stream carries only the spectator's view (engine/spectator.py): never a card a
spectator may not see. The page falls back to polling the REST API when the connection drops,
and says that it reconnects (tables/static/tables/play.js).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import orjson
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.urls import path
from django.utils import translation

from players.people import player_of
from stack import metering
from tables import routing
from tables.live import TableError, human_ids, load_match
from tables.models import settings_of
from tables.services import touch
from tournaments.models import Match

log = logging.getLogger(__name__)

FORBIDDEN = 4403  # a WebSocket close code: not yours to watch
GONE = 4404  # no such table, or its match is over: nothing more will be pushed
# Not dealt yet (a table of people waiting for them): no host keeps it, nothing is pushed; the
# page polls until it is dealt and connects again (tables/static/tables/play.js).
NOT_YET = 4409
TRY_AGAIN = 1013  # WebSocket's "try again later": no host could take the table just now


def viewer_of(match_id: int, user) -> tuple[str, int | None, str] | None:
    """(viewer key, player id, the match's status) of `user` at the table, or None: not
    allowed to watch."""
    try:
        match = load_match(match_id)
    except TableError:
        return None
    player = player_of(user) if user is not None else None
    if player is not None and player.pk in human_ids(match):
        return f"p{player.pk}", player.pk, match.status
    if user is not None and user.is_authenticated and user.is_staff:
        return "staff", None, match.status
    if settings_of(match.tournament).spectators:
        return "public", None, match.status
    return None


def language_of(scope) -> str:
    """The viewer's language, one of settings.LANGUAGES as written there: the site's cookie,
    else the browser's first supported choice by its weights (`Accept-Language`), else the
    site's. A language the site does not have once raised here (Django's lookup of the
    variant), and the browser's page never connected; and every spelling of one (pt-BR, pt-br)
    was a view the host rendered apart."""
    supported = {code.lower(): code for code, _ in settings.LANGUAGES}
    chosen = (scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME)
    if chosen and chosen.lower() in supported:
        return supported[chosen.lower()]
    for name, value in scope.get("headers", []):
        if name == b"accept-language":
            for code in accepted_languages(value.decode("latin-1")):
                try:
                    variant = translation.get_supported_language_variant(code)
                except LookupError:
                    continue
                if variant.lower() in supported:
                    return supported[variant.lower()]
    return settings.LANGUAGE_CODE


def accepted_languages(header: str) -> list[str]:
    """The language codes of an `Accept-Language` header, most wanted first (`*` and malformed
    weights left out)."""
    weighed = []
    for order, part in enumerate(header[:500].split(",")):
        code, _, params = part.strip().partition(";")
        code = code.strip()
        if not code or code == "*":
            continue
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                continue
        if weight > 0:
            weighed.append((-weight, order, code))
    return [code for _, _, code in sorted(weighed)]


def client_address(scope) -> str | None:
    client = scope.get("client")
    return client[0] if client else None


class TableConsumer(AsyncJsonWebsocketConsumer):
    viewer: str
    player: int | None = None
    watching = False
    renewing: asyncio.Task | None = None

    async def dispatch(self, message):
        """As Channels' own, without closing old database connections before every message:
        Channels does that in a thread hop per message (a pushed state, an action), the largest
        cost of a connection under load, and this consumer's few queries run through
        `database_sync_to_async`, which closes old connections around each of them anyway."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self):
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        who = await database_sync_to_async(viewer_of)(self.match_id, self.scope.get("user"))
        if who is None:
            await self.close(code=FORBIDDEN)
            return
        self.viewer, self.player, status = who
        if status != Match.Status.RUNNING:
            # Pending, or over: no host keeps it. Asking one to made every page of a table of
            # people waiting for them fail here (its presence written for a live row not
            # there yet), and the page connected again and again.
            await self.accept()
            await self.close(code=GONE if status in Match.FINISHED else NOT_YET)
            return
        self.language = language_of(self.scope)
        self.ip = client_address(self.scope)
        self.group = routing.view_group(self.match_id, self.viewer, self.language)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.channel_layer.group_add(routing.chat_group(self.match_id), self.channel_name)
        await self.accept()
        if self.player is not None:
            await database_sync_to_async(touch)(self.match_id, self.player, self.ip)
        try:
            answer = await routing.ask_async(self.match_id, "watch", **self.who())
        except TableError:
            # No host could take it now (busy, or between two hosts). Open but unwatched, the
            # connection would hear nothing and the page would not poll: closed instead, the
            # page polls and connects again a moment later (tables/static/tables/play.js).
            await self.close(code=TRY_AGAIN)
            return
        self.watching = True
        self.renewing = asyncio.ensure_future(self.renew())
        if answer.get("state") is not None:
            await self.send_json({"type": "state", "state": answer["state"]})

    async def renew(self) -> None:
        """Tell the table's host, every WATCH_RENEW_SECONDS, that this connection still
        watches: if this server dies, saying nothing, the host forgets it after a lapse."""
        while True:
            await asyncio.sleep(routing.WATCH_RENEW_SECONDS)
            try:
                await self.tell_host("still")
            except Exception:  # the layer away a moment: said again at the next renewal
                log.warning("could not tell table %s's host it is still watched", self.match_id)

    async def tell_host(self, command: str) -> None:
        await self.channel_layer.group_send(
            routing.table_group(self.match_id),
            {"type": "table.command", "match": self.match_id, "command": command, **self.who()},
        )

    def who(self) -> dict[str, Any]:
        return {
            "viewer": self.viewer,
            "language": self.language,
            "player": self.player,
            "connection": self.channel_name,  # one watcher however often it says it watches
        }

    async def table_rewatch(self, event):
        """A host took the table over: it knows nobody watches; this connection does."""
        if not self.watching:
            return
        try:
            answer = await routing.ask_async(self.match_id, "watch", **self.who())
        except TableError:
            return  # the next host asks again
        if answer.get("state") is not None:
            await self.send_json({"type": "state", "state": answer["state"]})

    async def disconnect(self, code):
        if not hasattr(self, "group"):
            return
        await self.channel_layer.group_discard(self.group, self.channel_name)
        await self.channel_layer.group_discard(routing.chat_group(self.match_id), self.channel_name)
        if self.renewing is not None:
            self.renewing.cancel()
        if self.watching:
            await self.tell_host("unwatch")

    async def receive_json(self, content, **kwargs):
        received = time.time()  # the benchmark's stages: when this server heard the decision
        if not isinstance(content, dict) or content.get("type") != "act":
            await self.send_json({"type": "error", "detail": "unknown message", "status": 400})
            return
        if self.player is None:
            await self.send_json(
                {"type": "error", "detail": "you do not play in this match", "status": 403}
            )
            return
        try:
            answer = await routing.ask_async(
                self.match_id,
                "act",
                player=self.player,
                action=content.get("action"),
                seat=content.get("seat"),
                turn=content.get("turn"),
                ip=self.ip,
                received=received,
            )
        except TableError as exc:
            await self.send_json({"type": "error", "detail": str(exc), "status": exc.status})
            return
        acted = {"type": "acted", "turn": content.get("turn")}
        if "meter" in answer:  # the load benchmark's figures (TRUCO_BENCH_METRICS)
            acted["meter"] = answer["meter"]
        await self.send_json(acted)

    @classmethod
    async def encode_json(cls, content):
        """orjson, not json: every state pushed is encoded here, a few kilobytes each."""
        return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS).decode()

    async def table_state(self, event):
        message = {"type": "state", "state": event["state"]}
        if metering.enabled():  # the benchmark's stages: when this server had it to send
            message["at"] = time.time()
        await self.send_json(message)

    async def table_chat(self, event):
        await self.send_json({"type": "chat", "message": event["message"]})


websocket_urls = [path("ws/play/matches/<int:match_id>/", TableConsumer.as_asgi())]
