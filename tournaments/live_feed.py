"""A running bot match as its spectators see it, decision by decision.

The worker that plays a match hands the engine a `LiveFeed` (engine.match.play_match's
`on_action`): after an action, at most every TRUCO_WATCH_SECONDS (the first one that long after
the match started: a shorter match writes nothing) and at the end of a game being watched, it
writes the game's spectator view (engine/spectator.py: never a card a spectator may not see)
to the `live` cache (Redis in the production shape, files under var/ in the embedded default,
settings.CACHES). The watchers' connections (tournaments/watch.py) and
`GET /api/matches/{id}/live/` read it. The feed of a finished match is dropped: its games have
their replays.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.conf import settings
from django.core.cache import caches

from engine.session import GameSession
from tournaments.models import Match
from tournaments.seat_labels import seat_labels
from tournaments.seating import seating

log = logging.getLogger(__name__)

# A feed outlives a worker that died mid-match by this much at most.
KEEP_SECONDS = 600


def key(match_id: int) -> str:
    return f"match-view:{match_id}"


def latest(match_id: int) -> dict[str, Any] | None:
    """The last view written of the match, or None (not running, or no action yet)."""
    try:
        return caches["live"].get(key(match_id))
    except Exception:  # a cache down costs the spectators their view, never a page
        log.warning("the live cache cannot be read", exc_info=True)
        return None


def named_seats(match: Match, players: int, a_team: int) -> list[dict[str, Any]]:
    """Who sits where when side A plays team `a_team`: [{seat, name}], each name distinct."""
    if match.entrant_a is None or match.entrant_b is None:
        return [{"seat": seat, "name": "?"} for seat in range(players)]
    seats = [s.to_json() for s in seating(match, players, a_team)]
    labels = seat_labels(seats, [])
    return [{"seat": s["seat"], "name": labels[s["seat"]]} for s in seats]


def bots_only(match: Match) -> bool:
    """Whether bots play every side of the match (a feed is for those: people's matches are
    watched at their tables)."""
    return match.entrant_a.bot_id is not None and (
        match.entrant_b is None or match.entrant_b.bot_id is not None
    )


def for_spectators(match: Match) -> dict[str, Any] | None:
    """The feed of a running bot-only match with its seats named, or None."""
    if not bots_only(match) or match.status != Match.Status.RUNNING:
        return None  # people's matches are watched at their table; a dead worker's feed stays
    feed = latest(match.pk)
    if feed is None:
        return None
    players = match.tournament.players
    return {**feed, "seats": named_seats(match, players, feed.get("a_team", 0))}


class LiveFeed:
    """Writes a match's view as it is played (see the module's docstring)."""

    def __init__(self, match_id: int, every: float | None = None):
        self.match_id = match_id
        self.every = settings.TRUCO_WATCH_SECONDS if every is None else every
        # A match over within its first interval writes nothing: short matches cost nothing.
        self.next_write = time.monotonic() + self.every
        self.seq = 0
        self.broken = False

    def __call__(self, session: GameSession) -> None:
        now = time.monotonic()
        if self.broken or (now < self.next_write and not (session.over and self.seq)):
            return  # (a watched game's last view is always written)
        self.next_write = now + self.every
        self.seq += 1
        maker = session.maker
        keys = (maker.seat_keys if maker is not None else None) or []
        view = {
            "seq": self.seq,
            "game": maker.game_index if maker is not None else 0,
            # the team side A plays in this game (seat keys are (side, place))
            "a_team": next((seat % 2 for seat, k in enumerate(keys) if k[0] == "a"), 0),
            "ply": session.ply,
            "over": session.over,
            # When it was written (seconds since the epoch): how late a spectator's view is.
            "written": round(time.time(), 3),
            # The view only: the actions themselves would name a card played face down.
            "view": session.public_view(),
        }
        try:
            caches["live"].set(key(self.match_id), view, timeout=KEEP_SECONDS)
        except Exception:  # a spectator's feed never stops a match
            self.broken = True
            log.warning("match %s: the live cache cannot be written", self.match_id, exc_info=True)

    def close(self) -> None:
        if self.seq == 0:  # nothing written (a short match): nothing to drop
            return
        try:
            caches["live"].delete(key(self.match_id))
        except Exception:
            log.warning("match %s: the live cache cannot be written", self.match_id, exc_info=True)
