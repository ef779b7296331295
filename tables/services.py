"""What people do at a table, as commands: open it (sit down and start), act, deal the next
game; and what the table does by itself: its robots reply, a turn timer runs out, the match is
recorded when its last game ends (tables/live.py holds the table; this module checks who may do
what and writes the change back).

Two ways to run them (TRUCO_TABLES):
- `hosts` (the site): a table host keeps each table in play in memory, with one bot process per
  robot seat for the whole match, and runs its robots and timers (tables/host.py); a person's
  action goes to the table's host (tables/routing.py) and the state is pushed to the players'
  and spectators' connections (tables/push.py). The commands here that change a table outside
  play (open, deal) write it and tell its host.
- `inline` (the tests, a site without a host): the request loads the table, changes it, runs
  its robots and writes it back, all under the live match's row lock; robots that do not
  reply at once think outside the lock and their moves are kept only if nobody moved the table
  meanwhile (its row's version).

Every change happens under the live match's row lock and moves its version on, so that a
person's action, a timer and the robots never interleave, and a late one changes nothing.
"""

from __future__ import annotations

import json
import logging
import time
import uuid
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from engine.session import OVER, WAITING
from players.models import Player
from players.people import player_of
from stack import metering
from tables import routing
from tables.chips import locked_wallets, wallet_of
from tables.live import (
    ADVANCE_SLICE_SECONDS,
    LiveTable,
    TableError,
    has_humans,
    human_ids,
    load_match,
)
from tables.models import LiveMatch, Presence, TableSettings, settings_of
from tournaments import dispatch
from tournaments.models import Entrant, Match, Tournament

log = logging.getLogger(__name__)

__all__ = [
    "PlayError",
    "Written",
    "act",
    "advance",
    "deal_first",
    "expire",
    "has_humans",
    "human_ids",
    "open_match",
    "player_of",
    "start_match",
    "started",
    "sweep",
]

PlayError = TableError  # the name the API and the pages catch
Table = LiveTable

WORKER = "human-play"
# The addresses kept per player and live match, for the shared-IP rule of ranking points.
MAX_ADDRESSES = 8
# Robots waiting this long with nobody advancing them were lost (a host gone between two
# advances): the sweep advances them (inline) or gives the table to a host.
BOT_STALL_SECONDS = 5.0
# How long a process remembers the address it last wrote of a player at a table (`touch`).
TOUCH_MEMORY_SECONDS = 300


def hosted() -> bool:
    """Whether table hosts keep the tables in play (TRUCO_TABLES=hosts), else the requests do."""
    return getattr(settings, "TRUCO_TABLES", "inline") == "hosts"


def inline() -> bool:
    return not hosted()


def locked_match(match_id: int) -> Match:
    return load_match(match_id, lock=True)


def load(match: Match) -> LiveTable:
    """The table of `match`, its live match row locked for the caller's transaction (to
    count a vote, or end the match: its bots never play, and none starts)."""
    return LiveTable(match, LiveMatch.objects.select_for_update().get(match=match), shown=True)


def table_of(match: Match, live: LiveMatch) -> LiveTable:
    """The table of rows already read (to show it: no lock needed), starting no bot."""
    return LiveTable(match, live, shown=True)


def absent_seats(table: LiveTable) -> set[int]:
    return table.absent_seats()


def turn_of(table: LiveTable) -> int | None:
    return table.turn


def close(table: LiveTable) -> None:
    """The table's game over for good (an amicable end), the caller holding the match's lock:
    its match, as the caller changed it, is not read back."""
    table.close()
    table.save(match_is_current=True)


# --- opening a match --------------------------------------------------------------------


@dataclass
class Written:
    """A table as the transaction of a request's change left it: its match read with what a
    state shows (`load_match`, its live row cached: `match.live`), the person who changed it,
    and the table's Presence rows if read with their touch (`touch_and_read`). The request
    answers with its state without reading it all again (three queries)."""

    match: Match
    player: Player
    presence: dict[int, Any] | None = None
    # Robots played on after the commit (TRUCO_TABLES=inline: the request played them), so the
    # table is no longer as written: its state is read again.
    played_on: bool = False


def open_match(match_id: int, user, ip: str | None = None) -> Written:
    """A person of the match sits down: a pending match starts, robots play up to the first
    person's decision. At a player's table the master deals each game (the next one too, when
    the table waits between games). Opening a match that already runs is harmless."""
    with transaction.atomic():
        # Its live row read with it: whether a pending match has one (a re-run's) is known.
        match = load_match(match_id, lock=True, live=True)
        if not has_humans(match):
            raise PlayError("this match has no human seats; workers play it")
        table = settings_of(match.tournament)
        player = seated_player(match, user)  # among the members read with the match
        if player is None:
            raise PlayError(not_seated(table), 403)
        if match.status == Match.Status.PENDING:
            deal_first(match, player, table)
        else:
            # Read again under its lock: a host writes the row without the match's lock.
            live = LiveMatch.objects.select_for_update().filter(match=match).first()
            if live is None:
                raise PlayError(f"the match is {match.status}")
            match.live = live  # the row the state shows
            if live.waiting == LiveMatch.Waiting.NEXT:
                check_may_deal(match, player, table, live)
                check_covers_stake(player, table, match.pk)
                dealt = LiveTable(match, live, shown=True)  # played by whoever advances it
                dealt.deal()
                dealt.save()
        presence = touch_and_read(match.pk, player.pk, ip)
    advance_soon(match_id)
    return Written(match, player, presence, played_on=inline())


def deal_first(
    match: Match, player: Player, table: TableSettings, *, saved_running: bool = False
) -> None:
    """`player` (seated) deals the pending match's first game, if they may (the table's master,
    everyone covering the stake): it starts (`begin`; `saved_running`: it was inserted so)."""
    check_may_deal(match, player, table, None)
    check_covers_stake(player, table, match.pk)
    begin(match, saved_running=saved_running)


def not_seated(table: TableSettings) -> str:
    if table.private:
        return "this table is private: only invited players may sit"
    if table.is_players_table:
        return "you do not play at this table: take a free seat first (sit/)"
    return "you do not play in this match"


def committed_chips(player_id: int, besides_match_id: int | None = None) -> int:
    """The stakes of the player's games in play at other staked tables: chips the player may
    lose there, so not theirs to stake again. Without this, 1000 chips covered four tables of
    1000 at once, and a player who had lost them all still collected the winnings of another."""
    games_in_play = (
        LiveMatch.objects.filter(
            match__status=Match.Status.RUNNING,
            waiting__in=(LiveMatch.Waiting.BOTS, LiveMatch.Waiting.HUMAN),
            match__tournament__competitive=True,
            match__tournament__table_settings__stake__gt=0,
        )
        .filter(
            Q(match__entrant_a__members__pk=player_id) | Q(match__entrant_b__members__pk=player_id)
        )
        .exclude(match_id=besides_match_id)
        .values_list("match_id", "match__tournament__table_settings__stake")
        .distinct()
    )
    return sum(stake for _, stake in games_in_play)


def free_chips(player: Player, besides_match_id: int | None = None) -> int:
    return wallet_of(player).chips - committed_chips(player.pk, besides_match_id)


def chips_held(player: Player, free: int) -> str:
    """ "you have N chips", and how many of them are staked at the player's other tables."""
    chips = wallet_of(player).chips
    elsewhere = chips - free
    staked = f", {elsewhere} of them staked at your other tables" if elsewhere else ""
    return f"you have {chips} chips{staked}"


def check_covers_stake(player: Player, table: TableSettings, match_id: int | None = None) -> None:
    """RULES.md section 5: nobody sits at a staked table without the chips to cover the stake,
    besides those staked at their other tables' games in play."""
    if not table.moves_chips:
        return
    # The player's wallet is locked first: two tables dealt at once see each other's stake.
    locked_wallets([player.pk])
    free = free_chips(player, match_id)
    if free < table.stake:
        raise PlayError(
            f"this table's stake is {table.stake} chips a game and "
            f"{chips_held(player, free)}: you cannot sit here",
            403,
        )


def check_may_deal(
    match: Match, player: Player, table: TableSettings, live: LiveMatch | None
) -> None:
    """At a player's table the master deals; anyone seated may once the master is away past
    the disconnection grace. Everyone seated must cover the stake."""
    if not table.is_players_table:
        return
    if player.pk != table.master_id and (live is None or is_present(live, table.master_id)):
        raise PlayError(f"the table master, {table.master}, deals the next game", 409)
    if table.moves_chips:
        # Every seated player's wallet, locked in one order: one of them opening a staked table
        # of their own at that moment waits for this deal, and then sees its stake.
        seated = [w.player for w in locked_wallets(human_ids(match)).values()]
        free = [(p, free_chips(p, match.pk)) for p in seated]
        names = ", ".join(f"{p.name} ({chips})" for p, chips in free if chips < table.stake)
        if names:
            raise PlayError(
                f"the stake is {table.stake} chips and {names} cannot cover it: "
                "the table master may lower it",
                409,
            )


def is_present(live: LiveMatch, player_id: int | None) -> bool:
    grace = settings_of(live.match.tournament).disconnect_grace_seconds
    cutoff = timezone.now() - timedelta(seconds=grace)
    return Presence.objects.filter(live=live, player_id=player_id, last_seen__gte=cutoff).exists()


def start_match(match_id: int) -> None:
    """Start a pending match with human seats without waiting for its humans (staff): the turn
    timer and, past the disconnection grace, a robot play for whoever is not there."""
    with transaction.atomic():
        match = locked_match(match_id)
        if not has_humans(match):
            raise PlayError("this match has no human seats; workers play it")
        if match.status != Match.Status.PENDING:
            raise PlayError(f"{match.key} is {match.status}, not pending")
        begin(match)
    advance_soon(match_id)


def begin(match: Match, *, saved_running: bool = False) -> None:
    """Pending -> running, with a fresh live match (a re-run match starts from scratch).
    `saved_running`: the match was inserted running (`started`: a table dealt as it opens),
    only its live match is made."""
    tournament = match.tournament
    if tournament.status != Tournament.Status.RUNNING:
        raise PlayError(f"the tournament is {tournament.status}; the match cannot start")
    if not saved_running:
        fields = started(match)
        for name, value in fields.items():
            setattr(match, name, value)
        match.save(update_fields=list(fields))
    if not Match.live.is_cached(match) or getattr(match, "live", None) is not None:
        LiveMatch.objects.filter(match=match).delete()  # a re-run's (or not read: looked for)
    LiveMatch.objects.create(match=match)  # cached as `match.live` too


def started(match: Match | None = None) -> dict[str, Any]:
    """The fields a match takes when it starts: `match`'s (its attempts one up), or those of a
    match inserted running (its first attempt)."""
    return {
        "status": Match.Status.RUNNING,
        "attempts": (match.attempts if match is not None else 0) + 1,
        "worker": WORKER,
        "claim_token": uuid.uuid4(),
        "lease_until": None,  # a human match is never taken for a dead worker's
        "started_at": timezone.now(),
    }


def advance_soon(match_id: int) -> None:
    """The robots' turns after a table is opened or dealt: by its host (told of the change by
    tables/signals.py), or, inline, right here."""
    if not hosted():
        advance(match_id)


def touch(match_id: int, player_id: int, ip: str | None = None) -> None:
    """The player is here (from `ip`, kept for the shared-IP rule of ranking points). A player
    who polls from the address this process wrote last is one UPDATE; else the row is read,
    made or completed (two statements)."""
    now = timezone.now()
    if connection.vendor == "postgresql":
        touch_upsert(match_id, player_id, ip, now)
        return
    key = f"presence:{match_id}:{player_id}"
    if cache.get(key, False) == (ip or "") and Presence.objects.filter(
        live_id=match_id, player_id=player_id
    ).update(last_seen=now):
        return
    cache.set(key, ip or "", TOUCH_MEMORY_SECONDS)
    presence, created = Presence.objects.get_or_create(
        live_id=match_id,
        player_id=player_id,
        defaults={"last_seen": now, "ips": [ip] if ip else []},
    )
    if created:
        return
    presence.last_seen = now
    fields = ["last_seen"]
    if ip and ip not in presence.ips:
        presence.ips = [*presence.ips, ip][-MAX_ADDRESSES:]
        fields.append("ips")
    presence.save(update_fields=fields)


def touch_and_read(match_id: int, player_id: int, ip: str | None = None) -> dict[int, Any] | None:
    """`touch`, and on PostgreSQL when each person of the table was last seen (its Presence
    rows, this player's as just written) in the same statement: a request at a table of people
    read them in a query of its own right after the touch. Elsewhere only `touch` (None: the
    table reads them if it needs them, LiveTable.presence)."""
    if connection.vendor == "postgresql":
        return touch_upsert(match_id, player_id, ip, timezone.now(), read=True)
    touch(match_id, player_id, ip)
    return None


def touch_upsert(
    match_id: int, player_id: int, ip: str | None, now, *, read: bool = False
) -> dict[int, Any] | None:
    """`touch` in one statement (PostgreSQL): the row made, or its time set and the address
    added to its last MAX_ADDRESSES unless it is there already. With `read`, the statement
    answers the table's Presence rows, {player id: last seen}: the upsert's (a statement's
    reads do not see its own writes) and the others'."""
    meta = Presence._meta
    quote = connection.ops.quote_name
    table = quote(meta.db_table)
    live, player, seen, ips = (
        quote(meta.get_field(name).column) for name in ("live", "player", "last_seen", "ips")
    )
    sql = (
        f"INSERT INTO {table} ({live}, {player}, {seen}, {ips}) VALUES (%s, %s, %s, %s::jsonb) "
        f"ON CONFLICT ({live}, {player}) DO UPDATE SET {seen} = EXCLUDED.{seen}, "
        f"{ips} = CASE WHEN {table}.{ips} @> EXCLUDED.{ips} THEN {table}.{ips} ELSE ("
        f"SELECT jsonb_agg(kept.value ORDER BY kept.n) FROM ("
        f"SELECT value, n FROM jsonb_array_elements({table}.{ips} || EXCLUDED.{ips}) "
        f"WITH ORDINALITY AS e(value, n) ORDER BY n DESC LIMIT %s) AS kept) END"
    )
    params = [match_id, player_id, now, json.dumps([ip] if ip else []), MAX_ADDRESSES]
    if read:
        sql = (
            f"WITH touched AS ({sql} RETURNING {player}, {seen}) "
            f"SELECT {player}, {seen} FROM touched UNION ALL "
            f"SELECT {player}, {seen} FROM {table} WHERE {live} = %s AND {player} <> %s"
        )
        params += [match_id, player_id]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return dict(cursor.fetchall()) if read else None


# --- a person's action ------------------------------------------------------------------


def seated_player(match: Match, user) -> Player | None:
    """The user's player among the match's members (read with it: no query), else None."""
    if not user or not user.is_authenticated:
        return None
    for entrant in (match.entrant_a, match.entrant_b):
        if entrant is not None and entrant.bot_id is None:
            for member in entrant.members.all():
                if member.user_id == user.pk:
                    return member
    return None


def seated_player_id(match_id: int, user) -> int | None:
    """The id of the user's player at a human seat of match `match_id`, in one query (a
    decision sent to a table host reads no more: the request that loaded the match and its
    members first spent two queries more, under load a tenth of a second), else None."""
    of_the_match = Match.objects.filter(pk=match_id).filter(
        Q(entrant_a_id=OuterRef("entrant_id")) | Q(entrant_b_id=OuterRef("entrant_id"))
    )
    return (
        Entrant.members.through.objects.filter(
            Exists(of_the_match), player__user_id=user.pk, entrant__bot__isnull=True
        )
        .values_list("player_id", flat=True)
        .first()
    )


def refuse_stranger(match: Match, user) -> None:
    """The refusal of someone who does not play in the match (a stranger learns no more than
    that the seat is not theirs)."""
    if player_of(user) is None:
        raise PlayError("you do not play in this match", 403)
    raise PlayError(not_seated(settings_of(match.tournament)), 403)


def act(
    match_id: int,
    user,
    action,
    seat=None,
    ip: str | None = None,
    *,
    turn=None,
    viewer_language: str | None = None,
) -> LiveTable | dict | None:
    """A person's decision for the decision numbered `turn` (the state's `turn`): only a seat
    of theirs, only when it is to act, only one of that seat's legal actions; an action for a
    decision already taken is refused (409) and changes nothing.

    Returns what shows the table after it: with hosts, the host's answer (the person's state
    in it when `viewer_language` is given); inline, the table as this request left it when
    nothing played on after it, else None (read it again)."""
    if not user or not user.is_authenticated:
        raise PlayError("you do not play in this match", 403)
    if hosted():
        # The host reads nothing for a decision; the request reads only who is acting.
        player_id = seated_player_id(match_id, user)
        if player_id is None:
            refuse_stranger(load_match(match_id), user)
        extra = {}
        if viewer_language is not None:
            extra = {"viewer": f"p{player_id}", "language": viewer_language}
        if metering.enabled():  # the benchmark's stages: when this server heard the decision
            extra["received"] = time.time()
        return routing.ask(
            match_id,
            "act",
            player=player_id,
            action=action,
            seat=seat,
            turn=turn,
            ip=ip,
            **extra,
        )
    with transaction.atomic():
        match = load_match(match_id, lock=True)
        player = seated_player(match, user)
        if player is None:
            refuse_stranger(match, user)
        live = LiveMatch.objects.select_for_update().filter(match=match).first()
        if live is None:
            raise PlayError("the match has not started: open it first", 409)
        table = LiveTable(match, live)
        # The person acting is here: at a table of one person, nobody's presence is read.
        table.seen({player.pk}, {player.pk: timezone.now()})
        try:
            table.act(player.pk, action, seat, turn)
            if table.everyone_connected():
                touch(match_id, player.pk, ip)
            else:  # whether the others are away: read with the touch
                table.presence_read(touch_and_read(match_id, player.pk, ip))
            replies_here = table.bots_reply_at_once()
            if replies_here:  # a millisecond a decision: in this transaction
                table.advance()
            table.save()
        finally:
            table.close_bots()
    if table.recorded:
        dispatch.continue_tournament(table.tournament.pk)
        return None
    if not replies_here:
        advance(match_id)
        return None
    table.viewer = player
    return table


# --- the robots -------------------------------------------------------------------------


def advance(match_id: int) -> None:
    """Inline: play the robots (and robots for absent people) up to a present person's
    decision, games and the match ending as they end.

    Robots think outside any transaction, on the table as read (`LiveTable.load` without a
    lock); what they played, and a game they ended, are then written under the lock if the
    table's version did not move meanwhile (a person's action, a timer): otherwise their moves
    are dropped, and whoever moved the table advances it. A slow robot (a search, code in the
    jail) therefore holds no lock: on SQLite every transaction takes the whole database's write
    lock. One slice of ADVANCE_SLICE_SECONDS of thinking at a time."""
    while True:
        try:
            table = LiveTable.load(match_id)
        except TableError:
            return
        try:
            if table.game is None and not table.to_record:
                return
            status = None
            if table.game is not None:
                status = table.think(until=time.monotonic() + ADVANCE_SLICE_SECONDS)
            with transaction.atomic():
                row = LiveMatch.objects.select_for_update().filter(match_id=match_id).first()
                if row is None or row.version != table.version:
                    return  # the table moved meanwhile: whoever moved it advances it
                if status == OVER:
                    table.end_game()
                elif status is None:  # left to record by a table host that died meanwhile
                    table.record()
                table.save()
        finally:
            table.close_bots()
        if table.recorded:
            dispatch.continue_tournament(table.tournament.pk)
            return
        if status == WAITING or table.game is None:
            return


def expire(match_id: int, game_no: int, ply: int) -> bool:
    """The turn timer of decision (game_no, ply) ran out: the game plays its default action for
    the person. Does nothing if that decision was taken meanwhile. True if it played."""
    with transaction.atomic():
        try:
            table = LiveTable.load(match_id, lock=True)
        except TableError:
            return False
        if table.match.status != Match.Status.RUNNING or not table.time_out(game_no, ply):
            table.close_bots()
            return False
        table.save()
    table.close_bots()
    advance(match_id)
    return True


def sweep() -> int:
    """What a host or a request would have done by now at every table in play, done by the
    periodic sweep (Celery beat in the production shape, the embedded stack's supervisor
    otherwise). With table hosts: every table in play has a host (an orphan is given to one).
    Inline: an expired turn is auto-played, stalled robots are advanced, a person away past the
    grace is played for. Requests never do this (a GET plays nothing). Returns the tables
    looked at."""
    rows = LiveMatch.objects.filter(
        match__status=Match.Status.RUNNING,
        waiting__in=(LiveMatch.Waiting.HUMAN, LiveMatch.Waiting.BOTS),
    )
    if hosted():
        orphans = list(
            rows.filter(
                Q(host_lease_until__isnull=True) | Q(host_lease_until__lt=timezone.now())
            ).values_list("match_id", flat=True)
        )
        for match_id in orphans:
            routing.changed(match_id)
        return len(orphans)
    ids = list(rows.values_list("match_id", flat=True))
    for match_id in ids:
        try:
            catch_up(match_id)
        except Exception:  # one table's trouble leaves the others swept
            log.exception("live match %s: the sweep could not catch it up", match_id)
    return len(ids)


def catch_up(match_id: int) -> None:
    """Inline: an expired turn is auto-played, stalled robots are advanced, a person away past
    the grace at a table without a turn timer is played for by the robot."""
    live = LiveMatch.objects.filter(match_id=match_id).first()
    if live is None:
        return
    now = timezone.now()
    waited = (now - live.updated_at).total_seconds()
    if (
        live.waiting == LiveMatch.Waiting.HUMAN
        and live.turn_deadline is not None
        and live.turn_deadline <= now
    ):
        expire(match_id, live.game_no, live.ply)
    elif live.waiting == LiveMatch.Waiting.BOTS and waited > BOT_STALL_SECONDS:
        advance(match_id)
    elif (
        live.waiting == LiveMatch.Waiting.HUMAN
        and live.turn_deadline is None
        and live.to_act is not None
        and waited > BOT_STALL_SECONDS
    ):
        advance(match_id)  # a person away past the grace is played for; a present one waits
