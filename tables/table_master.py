"""A player's own table (RULES.md section 5): its master (the first seated) changes its options
before a game or between two games, and invites players; others take its free seats, only the
invited ones if the table is private. The tables of a tournament are set by staff instead."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.db import transaction

from players.models import Player
from players.people import player_for
from tables.checks import check_table_settings
from tables.live import has_no_live_row, keep_members, load_match
from tables.models import LiveMatch, TableSettings, settings_of
from tables.services import (
    PlayError,
    Written,
    check_covers_stake,
    human_ids,
    locked_match,
    touch_and_read,
)
from tournaments.models import Entrant, Match

# What a master may change: the table options of the source site (seed 000). The rules and the
# deals (`daily`) are chosen when the table is opened.
MASTER_OPTIONS = ("turn_seconds", "competitive", "stake", "private", "spectators")
# Of those, the tournament's own (bots play by them too); the rest are the table's.
TOURNAMENT_OPTIONS = ("turn_seconds", "competitive")
FREE_SEATS = "(free seats)"  # the name of a team nobody sits at yet


def between_games(match: Match) -> bool:
    """Before the first game is dealt, or while the table waits for the next one (its live row
    as cached with the match, `live_now`, else read)."""
    if match.status == Match.Status.PENDING:
        return True
    if match.status != Match.Status.RUNNING:
        return False
    if Match.live.is_cached(match):
        live = getattr(match, "live", None)
        return live is not None and live.waiting == LiveMatch.Waiting.NEXT
    return LiveMatch.objects.filter(match=match, waiting=LiveMatch.Waiting.NEXT).exists()


def live_now(match: Match) -> LiveMatch | None:
    """The live row of `match` (locked by the caller, read with its live row: `load_match`'s
    `live`) as it is now, cached as `match.live`. A pending match's is the one read with it:
    only a deal makes one, under the match's lock, and it leaves the match running (a match
    dealt and then re-run while the caller waited for the lock is left out). A running match's
    is read again: the one read with the match may be older than the lock, when a deal held it
    meanwhile."""
    if match.status != Match.Status.PENDING:
        live = LiveMatch.objects.filter(match=match).first()
        if live is None:
            has_no_live_row(match)  # (`match.live = None` would forget it, not cache it)
        else:
            match.live = live
    return getattr(match, "live", None)


def players_table(match: Match) -> TableSettings:
    table = settings_of(match.tournament)
    if not table.is_players_table:
        raise PlayError("staff set the tables of a tournament; this one has no table master", 403)
    return table


def check_master(table: TableSettings, user) -> None:
    """Whether `user` is the table's master (read with the match: their player is not read)."""
    if table.master is None or table.master.user_id != user.pk:
        raise PlayError(f"only the table master, {table.master}, changes this table", 403)


def table_options(table: TableSettings) -> dict[str, Any]:
    out: dict[str, Any] = {name: getattr(table, name) for name in MASTER_OPTIONS}
    out["daily"] = table.daily
    control = table.tournament.time_control  # the bots' bank and increment, if any
    out["time_control"] = str(control) if control is not None else None
    out["master"] = {"id": table.master_id, "name": table.master.name} if table.master_id else None
    if table.pk is not None:
        # Read with the match on PostgreSQL (tables.live.with_invited_names), else now.
        names = getattr(table, "invited_names", None)
        if names is None:
            names = table.invited.values_list("name", flat=True)
        out["invited"] = sorted(names)
    else:
        out["invited"] = []
    return out


def change_options(match_id: int, user, changes: Mapping[str, Any]) -> dict[str, Any]:
    """The master's new options for the table (already validated in type and range)."""
    with transaction.atomic():
        match = locked_match(match_id)
        table = players_table(match)
        check_master(table, user)
        if not between_games(match):
            raise PlayError(
                "the table's options change only before a game starts or between two games", 409
            )
        wanted = {k: v for k, v in changes.items() if k in MASTER_OPTIONS}
        if table.daily and wanted.get("competitive"):
            raise PlayError(
                "a daily table is practice: everyone gets its deals today, so they are known"
            )
        tournament = match.tournament
        for name, value in wanted.items():
            setattr(tournament if name in TOURNAMENT_OPTIONS else table, name, value)
        for messages in check_table_settings(tournament.competitive, table.stake).values():
            raise PlayError(messages[0])
        own = [name for name in wanted if name in TOURNAMENT_OPTIONS]
        if own:
            tournament.save(update_fields=own)
        rest = [name for name in wanted if name not in TOURNAMENT_OPTIONS]
        if rest:
            table.save(update_fields=rest)
        return table_options(table)


def invite(match_id: int, user, names: Iterable[str]) -> dict[str, Any]:
    """The master invites players by name: they may sit at the table even when it is private."""
    names = sorted(set(names))
    with transaction.atomic():
        match = locked_match(match_id)
        table = players_table(match)
        check_master(table, user)
        found = list(Player.objects.filter(name__in=names, kind=Player.Kind.HUMAN))
        unknown = sorted(set(names) - {p.name for p in found})
        if unknown:
            raise PlayError(f"no human player named {', '.join(map(repr, unknown))}")
        table.invited.add(*found)
        if getattr(table, "invited_names", None) is not None:  # read with the match: add these
            table.invited_names = sorted({*table.invited_names, *(p.name for p in found)})
        return table_options(table)


def free_teams(match: Match) -> list[tuple[str, Entrant]]:
    """(side, entrant) of each human team with a seat nobody sits at (a robot plays it)."""
    per_side = match.tournament.players // 2
    out = []
    for side, entrant in (("a", match.entrant_a), ("b", match.entrant_b)):
        human_team = entrant is not None and entrant.bot_id is None
        if human_team and len(entrant.members.all()) < per_side:
            out.append((side, entrant))
    return out


def sit(match_id: int, user, side: str | None = None, ip: str | None = None) -> Written:
    """Take a free seat of a player's table, before a game or between two games."""
    player = player_for(user)
    with transaction.atomic():
        match = load_match(match_id, lock=True, live=True)
        table = players_table(match)
        if player.pk in human_ids(match):
            raise PlayError("you already sit at this table", 409)
        if table.private and not (player.pk == table.master_id or is_invited(table, player)):
            raise PlayError("this table is private: only invited players may sit", 403)
        check_covers_stake(player, table, match.pk)
        live = live_now(match)
        if not between_games(match):
            raise PlayError("a game is being played: sit down when it ends", 409)
        teams = [(s, e) for s, e in free_teams(match) if side in (None, s)]
        if not teams:
            raise PlayError(
                "no free seat at this table" + (f" on side {side}" if side else ""), 409
            )
        entrant = teams[0][1]
        seated = [*entrant.members.all(), player]  # read with the match (add forgets them)
        entrant.members.add(player)
        if len(seated) == 1:  # their order is known: the state reads them back otherwise
            keep_members(entrant, seated)
        entrant.name = " & ".join(sorted(p.name for p in seated))[:120]
        entrant.save(update_fields=["name"])
        presence = touch_and_read(match.pk, player.pk, ip) if live is not None else None
    return Written(match, player, presence)


def is_invited(table: TableSettings, player: Player) -> bool:
    """Whether `player` is invited to the table: among the names read with the match
    (`with_invited_names`: names are unique), else asked."""
    names = getattr(table, "invited_names", None)
    if names is not None:
        return player.name in names
    return table.invited.filter(pk=player.pk).exists()
