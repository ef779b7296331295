"""A table's chat (RULES.md section 5): the players talk, and so do the spectators of a table that
lets others watch. Messages are plain text, stored, and shown escaped by the page."""

from __future__ import annotations

import unicodedata
from typing import Any

from django.db import transaction

from players.people import player_for, player_of
from tables import routing
from tables.models import ChatMessage, settings_of
from tables.services import PlayError, human_ids
from tournaments.models import Match

HISTORY = 100  # messages a reader gets at once


def clean_text(text: Any) -> str:
    """One line of plain text: control characters (newlines, escapes) become spaces."""
    if not isinstance(text, str):
        raise PlayError("`text` must be a string")
    line = "".join(" " if unicodedata.category(c).startswith("C") else c for c in text)
    line = " ".join(line.split())
    if not line:
        raise PlayError("say something: the message is empty")
    if len(line) > ChatMessage.MAX_LENGTH:
        raise PlayError(f"a message has at most {ChatMessage.MAX_LENGTH} characters")
    return line


def may_read(match: Match, user) -> bool:
    player = player_of(user)
    if player is not None and player.pk in human_ids(match):
        return True
    return bool(user and user.is_staff) or settings_of(match.tournament).spectators


def post(match: Match, user, text: Any) -> dict[str, Any]:
    """A player of the match, or anyone signed in if the table has spectators, says `text`."""
    player = player_of(user)
    seated = player is not None and player.pk in human_ids(match)
    if not seated and not settings_of(match.tournament).spectators:
        raise PlayError("this table has no spectators: only its players chat", 403)
    line = clean_text(text)
    message = ChatMessage.objects.create(match=match, author=player or player_for(user), text=line)
    said = message_json(message, match)
    # Pushed to whoever watches the table (tables/push.py), once it is written.
    transaction.on_commit(lambda: routing.chat_said(match.pk, said))
    return said


def history(match: Match, after: int | None = None) -> list[dict[str, Any]]:
    """The latest messages, oldest first (only those after message id `after`, if given)."""
    rows = ChatMessage.objects.filter(match=match).select_related("author")
    if after is not None:
        rows = rows.filter(pk__gt=after)
    latest = list(rows.order_by("-id")[:HISTORY])
    players = human_ids(match)
    return [message_json(m, match, players) for m in reversed(latest)]


def message_json(message: ChatMessage, match: Match, players: set[int] | None = None):
    if players is None:
        players = human_ids(match)
    return {
        "id": message.pk,
        "author": message.author.name,
        "player": message.author_id in players,
        "text": message.text,
        "posted_at": message.posted_at.isoformat(),
    }
