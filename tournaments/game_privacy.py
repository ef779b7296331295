"""What the public learns of a forfeit: its typed termination and a fixed phrase. The bot's own
error text and its log (anything it printed: possibly the host's secrets, if it found any) are
kept apart in `Game.private` and shown only to the owner of that bot and to staff."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from engine.bot_logs import bounded
from engine.runner import CRASH, ILLEGAL, TIMEOUT, GameResult

PUBLIC_DETAIL = {
    CRASH: "the bot failed (it raised an error or its process ended)",
    TIMEOUT: "a second decision past the deadline",
    ILLEGAL: "the bot answered an action that is not legal",
}
# A bot's own text is kept, but bounded: a log is for its owner to debug, not a file store.
MAX_MESSAGE_CHARS = 2_000
MAX_LOG_CHARS = 64_000


# The engine's own words for a bank run dry (engine/session.py), made of the time control alone:
# kept, so that a game lost on time says which limit it was.
BANK_EMPTY = re.compile(r"used up its time bank of the [0-9.]+\+[0-9.]+ time control")


def public_detail(termination: str, detail: Any = "") -> str:
    if termination == TIMEOUT and isinstance(detail, str) and BANK_EMPTY.fullmatch(detail):
        return detail
    return PUBLIC_DETAIL.get(termination, "")


def public_record(record: Mapping[str, Any]) -> dict[str, Any]:
    """The record as everyone may see it: a forfeit's `detail` replaced by its fixed phrase
    (records stored before this rule included the bot's own text)."""
    result = record.get("result")
    if not isinstance(result, Mapping) or "detail" not in result:
        return dict(record)
    termination = str(result.get("termination", ""))
    safe = {**result, "detail": public_detail(termination, result.get("detail"))}
    return {**record, "result": safe}


def private_part(result: GameResult) -> dict[str, Any]:
    """What goes to `Game.private`: the bot's message and each seat's log, bounded."""
    out: dict[str, Any] = {}
    if result.fault_message:
        out["fault_message"] = result.fault_message[:MAX_MESSAGE_CHARS]
    logs = {str(seat): bounded(text, MAX_LOG_CHARS) for seat, text in result.logs.items() if text}
    if logs:
        out["logs"] = logs
    return out


def owned_seats(game, user) -> set[int]:
    """The seats of `game` played by a bot that `user` owns (side A sat on team `a_team`)."""
    if not user.is_authenticated:
        return set()
    match = game.match
    players = game.record.get("players", 2) if isinstance(game.record, Mapping) else 2
    seats = set()
    for seat in range(players):
        entrant = match.entrant_a if seat % 2 == game.a_team else match.entrant_b
        bot = entrant.bot if entrant is not None else None
        if bot is not None and bot.owner_id == user.pk:
            seats.add(seat)
    return seats


def private_view(game, user) -> dict[str, Any] | None:
    """What `user` may read of the game's private part: everything for staff; the fault
    message and the logs of the seats of their own bots for an owner; None for anyone else."""
    private = game.private or {}
    logs = private.get("logs", {})
    if user.is_staff:
        seats = set(range(game.record.get("players", 2)))
    else:
        seats = owned_seats(game, user)
        if not seats:
            return None
    at_fault = game.fault_seat is not None and game.fault_seat in seats
    return {
        "game": game.pk,
        "termination": game.termination,
        "fault_seat": game.fault_seat,
        "seats": sorted(seats),
        "fault_message": private.get("fault_message", "") if at_fault else "",
        "logs": {seat: text for seat, text in logs.items() if int(seat) in seats},
    }
