"""Ending a game amicably (RULES.md section 5): when every human at the table agrees (robots do
not vote), the game is cancelled: nobody scores, no rating or ranking changes, and the stakes
stay with their owners, except a player who abandoned the table (away past the disconnection
grace, a robot playing for them) who loses theirs to the bank. A vote lasts until the game ends.

It is an agreement between opponents: a competitive or staked game ends by vote only when every
side (team) has a person present who agrees, so that nobody can void a game they are losing
against robots or against an opponent who stepped away. Against a side of robots only, only
practice games end by vote.

Only a player's own table ends this way: a tournament match must have a result."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from tables import chips
from tables.models import LiveMatch, settings_of
from tables.seating import game_from_json
from tables.services import (
    PlayError,
    Table,
    absent_seats,
    close,
    locked_match,
    seated_player,
    table_of,
    touch_and_read,
)
from tournaments import execution, lifecycle

ROBOTS_DO_NOT_AGREE = (
    "a competitive or staked game against robots is played out: only practice games end by vote"
)


def counts(table: Table) -> bool:
    """Whether the game in play moves ranking points or chips (then opponents must agree)."""
    settings = settings_of(table.tournament)
    return bool(settings.competitive or settings.stake)


def robots_only_side(table: Table) -> bool:
    """Whether a side (team) of the table has no person seated, only robots."""
    return any(not any(s.is_human for s in table.seats if s.seat & 1 == team) for team in (0, 1))


def vote_state(table: Table) -> dict[str, Any]:
    """Who has agreed, and whose agreement is still needed (the humans present); nobody votes
    where the game cannot end by vote (a game that counts, against robots)."""
    if counts(table) and robots_only_side(table):
        return {"agreed": [], "voters": []}
    absent = absent_seats(table)
    voters = sorted({s.player for s in table.seats if s.is_human and s.seat not in absent})
    agreed = [p for p in table.live.end_votes if p in voters]
    return {"agreed": agreed, "voters": voters}


def agreed_to_end(table: Table, state: dict[str, Any]) -> bool:
    """Every human present agreed and, for a game that counts, every side has one of them."""
    voters, agreed = set(state["voters"]), set(state["agreed"])
    if not voters or not voters <= agreed:
        return False
    if not counts(table):
        return True
    return all(any(s.player in agreed for s in table.seats if s.seat & 1 == t) for t in (0, 1))


def vote(match_id: int, user, agree: bool = True, ip: str | None = None) -> dict[str, Any]:
    """Agree (or withdraw the agreement) to end the game amicably; the vote as it stands, with
    `ended` true once everyone agreed and the match is cancelled."""
    with transaction.atomic():
        match = locked_match(match_id)
        if not settings_of(match.tournament).is_players_table:
            raise PlayError("a tournament match cannot end amicably: it is played out", 409)
        live = None
        if match.status == match.Status.RUNNING:
            live = LiveMatch.objects.select_for_update().filter(match=match).first()
        if live is None:
            raise PlayError("no game is in play at this table", 409)
        table = table_of(match, live)  # to count the vote: its bots never play
        player = seated_player(match, user)  # among the members read with the match
        if player is None or not any(s.player == player.pk for s in table.seats):
            raise PlayError("only the players at the table vote", 403)
        # Who else is here (whose agreement is needed) is read with the touch.
        table.presence_read(touch_and_read(match.pk, player.pk, ip))
        if counts(table) and robots_only_side(table):
            raise PlayError(ROBOTS_DO_NOT_AGREE, 409)
        votes = [p for p in live.end_votes if p != player.pk]
        live.end_votes = [*votes, player.pk] if agree else votes
        state = vote_state(table)
        ended = agreed_to_end(table, state)
        if ended:
            end_amicably(table)  # the row's last write, the vote with it
        else:
            live.save(update_fields=["end_votes", "updated_at"])
    return {**state, "ended": ended}


def end_amicably(table: Table) -> None:
    """Cancel the game in play and the match (its finished games are kept, already paid)."""
    match, live, settings = table.match, table.live, settings_of(table.tournament)
    in_play = live.waiting != LiveMatch.Waiting.NEXT
    if in_play and settings.competitive and settings.stake:
        for seat in sorted(absent_seats(table)):
            player = next(s.player for s in table.seats if s.seat == seat)
            chips.forfeit(player, settings.stake, match_id=match.pk, game_index=live.game_no)
    finished = [game_from_json(g) for g in live.games]
    if finished:
        execution.insert_games(execution.game_rows(match.pk, finished))
    match.summary = {"ended": "amicably", "game": live.game_no}
    match.finished_at = timezone.now()
    match.status = match.Status.CANCELLED
    match.lease_until = None
    match.save(update_fields=["summary", "finished_at", "status", "lease_until"])
    close(table)
    lifecycle.cancel_table(table.tournament)  # the table's own tournament: its only match
