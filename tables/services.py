"""Playing a match with human seats: opening it, advancing it through the bots' turns up to the
next human decision, taking a human's action, the turn timer, and recording the match when its
last game ends (through `tournaments.execution.record`, like a match of bots).

Every change happens under a row lock on the live match, so a human's action, the timer and an
advancing task never interleave; the timer and tasks carry the decision they are about (game
number and ply), so a late one changes nothing.
"""

from __future__ import annotations

import logging
import time
import uuid
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from celery import current_app as app  # the project's app (config/celery.py)
from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from engine.errors import IllegalAction
from engine.match import MatchGame
from engine.match import MatchResult as EngineMatchResult
from engine.runner import IN_PROCESS, GameResult
from players.models import Player
from stack import worker_health
from submitted_bots.budgets import decision_budget
from tables.chips import locked_wallets, wallet_of
from tables.models import LiveMatch, Presence, TableSettings, settings_of
from tables.seating import game_from_json, game_to_json, next_game, scheduled, winner_side
from tables.session import GameSetup, LiveGame, NotYourTurn
from tables.settlement import settle_game
from tournaments import dispatch, execution
from tournaments.models import Match, Tournament
from tournaments.scheduling import needs_winner, rated_player_ids
from tournaments.seating import Seat, seating

log = logging.getLogger(__name__)

WORKER = "human-play"
# Waiting on the bots longer than this means no worker advanced the match (none running, or
# the message was lost): the next request advances it itself.
BOT_STALL_SECONDS = 5.0
# The addresses kept per player and live match, for the shared-IP rule of ranking points.
MAX_ADDRESSES = 8


class PlayError(Exception):
    """A request that cannot be honoured; `status` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


@dataclass
class Table:
    """A live match loaded for one request: the rows, the seating and the rebuilt game."""

    live: LiveMatch
    match: Match
    tournament: Tournament
    seats: list[Seat]
    game: LiveGame | None  # None once the match is over


# --- who is who -------------------------------------------------------------------------


def player_of(user) -> Player | None:
    if not user or not user.is_authenticated:
        return None
    return Player.objects.filter(user=user).first()


def player_for(user) -> Player:
    """The user's player, created on first play (named after the user, made unique)."""
    found = player_of(user)
    if found is not None:
        return found
    base = user.get_username()
    name, n = base, 1
    while Player.objects.filter(name=name).exists():
        n += 1
        name = f"{base} ({n})"
    return Player.objects.create(name=name, user=user, kind=Player.Kind.HUMAN)


def human_ids(match: Match) -> set[int]:
    ids: set[int] = set()
    for entrant in (match.entrant_a, match.entrant_b):
        if entrant is not None and entrant.bot_id is None:
            ids |= {p.pk for p in entrant.members.all()}
    return ids


def has_humans(match: Match) -> bool:
    return any(e is not None and e.bot_id is None for e in (match.entrant_a, match.entrant_b))


def locked_match(match_id: int) -> Match:
    try:
        return (
            Match.objects.select_for_update(of=("self",))
            .select_related(
                "tournament",
                "tournament__table_settings",
                "entrant_a__bot",
                "entrant_b__bot",
            )
            .prefetch_related("entrant_a__members", "entrant_b__members")
            .get(pk=match_id)
        )
    except Match.DoesNotExist:
        raise PlayError("no such match", 404) from None


def load(match: Match) -> Table:
    """The live match of `match`, its row locked for the caller's transaction (every change
    goes through here, under `locked_match`)."""
    return table_of(match, LiveMatch.objects.select_for_update().get(match=match))


def table_of(match: Match, live: LiveMatch) -> Table:
    """The table of a live match row already read: for a change, `load` it under its lock;
    to show it (`tables.views_state`), any committed row will do, without a lock or a
    transaction (a lock outside a transaction is an error on PostgreSQL)."""
    tournament = match.tournament
    finished = [game_from_json(g) for g in live.games]
    planned = next_game(tournament, match, finished)
    if planned is None or live.waiting == LiveMatch.Waiting.DONE:
        return Table(live, match, tournament, seating(match, tournament.players, 0), None)
    setup = GameSetup(
        tournament.variant,
        tournament.players,
        planned.seed,
        tournament.options,
        tournament.preset or None,
    )
    budget = decision_budget(tournament.turn_seconds)
    game = LiveGame(
        setup, live.actions, live.auto_played, decision_seconds=budget, logs=live.bot_logs
    )
    return Table(live, match, tournament, seating(match, tournament.players, planned.a_team), game)


# --- opening a match --------------------------------------------------------------------


def open_match(match_id: int, user, ip: str | None = None) -> None:
    """A human of the match sits down: a pending match starts, bots play up to the first human
    decision. At a player's table the master deals each game (the next one too, when the table
    waits between games). Opening a match that already runs is harmless."""
    player = player_of(user)
    with transaction.atomic():
        match = locked_match(match_id)
        if not has_humans(match):
            raise PlayError("this match has no human seats; workers play it")
        table = settings_of(match.tournament)
        if player is None or player.pk not in human_ids(match):
            raise PlayError(not_seated(table), 403)
        if match.status == Match.Status.PENDING:
            check_may_deal(match, player, table, None)
            check_covers_stake(player, table, match.pk)
            begin(match)
        else:
            live = LiveMatch.objects.filter(match=match).first()
            if live is None:
                raise PlayError(f"the match is {match.status}")
            if live.waiting == LiveMatch.Waiting.NEXT:
                check_may_deal(match, player, table, live)
                check_covers_stake(player, table, match.pk)
                live.waiting = LiveMatch.Waiting.BOTS
                live.save(update_fields=["waiting", "updated_at"])
        touch(match.pk, player.pk, ip)
    advance_soon(match_id)


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


def advance_soon(match_id: int) -> None:
    """The robots' turns after a table is opened or dealt: in this request when they reply at
    once, else by a worker (a request that ran a jailed robot took as long as it thought)."""
    match = Match.objects.select_related("tournament__table_settings").get(pk=match_id)
    live = LiveMatch.objects.filter(match=match).first()
    if live is not None and bots_reply_at_once(table_of(match, live)):
        advance(match_id)
    else:
        request_advance(match_id)


def begin(match: Match) -> None:
    """Pending -> running, with a fresh live match (a re-run match starts from scratch)."""
    tournament = match.tournament
    if tournament.status != Tournament.Status.RUNNING:
        raise PlayError(f"the tournament is {tournament.status}; the match cannot start")
    match.status = Match.Status.RUNNING
    match.attempts += 1
    match.worker = WORKER
    match.claim_token = uuid.uuid4()
    match.lease_until = None  # a human match is never taken for a dead worker's
    match.started_at = timezone.now()
    match.save(
        update_fields=["status", "attempts", "worker", "claim_token", "lease_until", "started_at"]
    )
    LiveMatch.objects.filter(match=match).delete()
    LiveMatch.objects.create(match=match)


def touch(match_id: int, player_id: int, ip: str | None = None) -> None:
    """The player is here (from `ip`, kept for the shared-IP rule of ranking points)."""
    now = timezone.now()
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


# --- advancing --------------------------------------------------------------------------


def advance(match_id: int) -> None:
    """Play the bots (and robots for absent humans) up to a present human's decision; finish
    games and the match as they end.

    The bots think outside any transaction, on a snapshot of the table (`think`); what they
    played is then written under the match's lock, if nobody moved the table meanwhile
    (`record_thinking`). A slow robot (a search, code in the jail: up to the table's budget a
    decision) therefore holds no lock: on SQLite, where every transaction takes the whole
    database's write lock, one user's slow bots made everyone's requests fail with "database is
    locked". One round per game the bots play through, and per slice of their thinking."""
    finished_match = None
    while True:
        thought = think(match_id)
        if thought is None:
            return
        with transaction.atomic():
            outcome, finished_match = record_thinking(match_id, thought)
        if outcome == MORE and not inline():
            # The rest goes to the back of the queue, behind the other tables' timers.
            request_advance(match_id)
            break
        if outcome not in (NEXT_GAME, MORE):
            break
    if finished_match is not None:
        dispatch.continue_tournament(finished_match)


NEXT_GAME = "next game"  # a game ended and the next one starts with the bots: another round
MORE = "more"  # the slice's time is up with a robot still to act: another advance goes on
# Seconds of robots' thinking per advance: a game that robots play out for an absent person
# (a slow robot of ten seconds a decision) held a play worker for minutes, and every other
# table's turn timer waited behind it.
ADVANCE_SLICE_SECONDS = 3.0


@dataclass
class Thought:
    """The bots' moves, played on a snapshot of the table read without a lock."""

    table: Table
    position: tuple  # what the live row said when read: the moves hold only if it still does
    robots: set[int] = field(default_factory=set)  # the seats robots played


def position_of(live: LiveMatch) -> tuple:
    return (live.game_no, live.waiting, list(live.actions), list(live.auto_played))


def think(match_id: int) -> Thought | None:
    """Read the table (committed rows, no lock, no transaction) and let its bots play their
    turns; None when there is no live match."""
    match = (
        Match.objects.select_related(
            "tournament", "tournament__table_settings", "entrant_a__bot", "entrant_b__bot"
        )
        .prefetch_related("entrant_a__members", "entrant_b__members")
        .filter(pk=match_id)
        .first()
    )
    live = LiveMatch.objects.filter(match_id=match_id).first() if match else None
    if live is None:
        return None
    table = table_of(match, live)
    if (
        match.status == Match.Status.RUNNING
        and live.waiting != LiveMatch.Waiting.NEXT
        and table.game is not None
    ):
        absent = absent_seats(table)
        bots = {s.seat: s.bot for s in table.seats if not s.is_human or s.seat in absent}
        table.game.advance(bots, until=time.monotonic() + ADVANCE_SLICE_SECONDS)
        return Thought(table, position_of(live), set(bots))
    return Thought(table, position_of(live))


def record_thinking(match_id: int, thought: Thought) -> tuple[str | None, int | None]:
    """Under the match's lock: keep the bots' moves and what follows from them (a human's turn,
    the end of a game, of the match). Returns (NEXT_GAME, MORE or None: whether another round
    is due, the tournament id once the match is recorded). Moves played on a table that
    changed meanwhile are dropped: whoever changed it advances it."""
    match = locked_match(match_id)
    live = LiveMatch.objects.select_for_update().filter(match=match).first()
    if live is None or position_of(live) != thought.position:
        return None, None
    table = Table(live, match, match.tournament, thought.table.seats, thought.table.game)
    if table.game is not None:
        live.bot_logs = {str(seat): text for seat, text in table.game.logs.items()}
    if match.status != Match.Status.RUNNING:
        close(table)
        return None, None
    if live.waiting == LiveMatch.Waiting.NEXT:
        return None, None  # a player's table waits for its next game to be dealt
    if table.game is None:
        return None, finish_match(table)
    if not table.game.finished:
        if table.game.to_act in thought.robots:  # the slice ended before a person's turn
            save_progress(table)
            return MORE, None
        wait_for_human(table)
        return None, None
    end_game(table)
    table = load_next(table)
    if table.game is None:
        return None, finish_match(table)
    if settings_of(table.tournament).is_players_table:
        wait_for_deal(table)
        return None, None
    return NEXT_GAME, None


def run(table: Table) -> int | None:
    """Advance inside the caller's transaction, the bots thinking under its lock: only for
    bots that reply at once (`bots_reply_at_once`); the tournament id once the match is
    recorded."""
    absent = absent_seats(table)
    while table.game is not None:
        bots = {s.seat: s.bot for s in table.seats if not s.is_human or s.seat in absent}
        table.game.advance(bots)
        if not table.game.finished:
            wait_for_human(table)
            return None
        end_game(table)
        table = load_next(table)
        if table.game is not None and settings_of(table.tournament).is_players_table:
            wait_for_deal(table)
            return None
    return finish_match(table)


def absent_seats(table: Table) -> set[int]:
    grace = settings_of(table.tournament).disconnect_grace_seconds
    cutoff = timezone.now() - timedelta(seconds=grace)
    seen = dict(Presence.objects.filter(live=table.live).values_list("player_id", "last_seen"))
    since = table.live.started_at or timezone.now()
    return {s.seat for s in table.seats if s.is_human and seen.get(s.player, since) < cutoff}


def wait_for_human(table: Table) -> None:
    live, game = table.live, table.game
    turn = settings_of(table.tournament).turn_seconds
    now = timezone.now()
    seat = game.to_act
    same_decision = live.to_act == seat and live.ply == game.ply and live.turn_deadline
    live.actions = game.actions
    live.auto_played = game.auto_played
    live.to_act = seat
    live.waiting = LiveMatch.Waiting.HUMAN
    if not same_decision:
        live.turn_deadline = now + timedelta(seconds=turn) if turn else None
    live.save()
    if turn and not same_decision:
        schedule_timer(live.match_id, live.game_no, game.ply, turn)


def wait_for_deal(table: Table) -> None:
    """Between two games of a player's table: the master may change its options, then deals."""
    table.live.waiting = LiveMatch.Waiting.NEXT
    table.live.save()


def end_game(table: Table) -> None:
    """Keep the finished game with the live match and pay it (chips, ranking points)."""
    live, game = table.live, table.game
    result = game.result()
    record = game.record()
    planned_index = len(live.games)
    finished_games = [game_from_json(g) for g in live.games]
    plan = next_game(table.tournament, table.match, finished_games)
    played = MatchGame(
        planned_index,
        plan.pair,
        plan.a_team,
        plan.seed,
        GameResult(
            record=record,
            score=game.state.score,
            winner=result["winner"],
            termination=result.get("termination", "normal"),
            seat=result.get("seat"),
            detail=result.get("detail", ""),
            hands=len(record["hands"]),
            actions=game.ply,
            timeouts=list(game.auto_played),
            fault_message=game.ending.fault_message if game.ending else "",
            logs=dict(game.logs),
        ),
    )
    settle_game(
        live.match_id, planned_index, settings_of(table.tournament), table.seats, played.result.winner
    )
    live.games = [*live.games, game_to_json(played)]
    live.game_no = len(live.games)
    live.actions = []
    live.auto_played = []
    live.bot_logs = {}
    live.end_votes = []  # a vote to end amicably is about the game in play
    live.to_act = None
    live.turn_deadline = None
    live.waiting = LiveMatch.Waiting.BOTS
    live.save()


def load_next(table: Table) -> Table:
    return load(table.match)


def finish_match(table: Table) -> int | None:
    """Record the match like a match of bots (games, result, rating), then close the table."""
    match, tournament, live = table.match, table.tournament, table.live
    games = [game_from_json(g) for g in live.games]
    side = winner_side(tournament, match, games)
    deciders = max(0, len(games) - len(scheduled(tournament, match)))
    played = execution.Played(
        games=games,
        winner_side=side,
        deciders=deciders,
        seconds=(timezone.now() - (match.started_at or timezone.now())).total_seconds(),
        pair_scores=_pair_scores(games),
    )
    claim = execution.Claim(
        match_id=match.pk,
        tournament_id=tournament.pk,
        token=match.claim_token,
        attempt=match.attempts,
        spec=None,
        needs_winner=needs_winner(tournament),
        competitive=tournament.competitive,
        team_a=rated_player_ids(match.entrant_a),
        team_b=rated_player_ids(match.entrant_b),
        lease=0,
    )
    if not execution.record(claim, played):
        log.warning("live match %s: its claim was taken over; result discarded", match.pk)
    close(table)
    return tournament.pk


def _pair_scores(games: list[MatchGame]) -> list[float]:
    return EngineMatchResult(games).pair_scores()


def close(table: Table) -> None:
    live = table.live
    live.waiting = LiveMatch.Waiting.DONE
    live.to_act = None
    live.turn_deadline = None
    live.finished_at = live.finished_at or timezone.now()
    live.save()


# --- the humans' actions and the timer ----------------------------------------------------


def turn_of(table: Table) -> int | None:
    """The number of the decision pending at the table: the actions taken in the match so far
    (its finished games', then this game's). An action names it, so that one sent for a
    decision that was already taken (a second click, a late tab) is told apart from a new
    one. None when no game is in play."""
    if table.game is None:
        return None
    return sum(g.get("actions", 0) for g in table.live.games) + table.game.ply


def act(
    match_id: int,
    user,
    action: Any,
    seat: Any = None,
    ip: str | None = None,
    *,
    turn: Any = None,
) -> None:
    """A human's decision for the decision numbered `turn` (the state's `turn`). Only a seat
    of theirs, only when it is to act, only one of that seat's legal actions; an action for a
    decision already taken is refused (409) and changes nothing."""
    if not isinstance(action, str) or not action.strip():
        raise PlayError("`action` must be one of your legal actions, as a string")
    player = player_of(user)
    with transaction.atomic():
        match = locked_match(match_id)
        if player is None or player.pk not in human_ids(match):
            raise PlayError(not_seated(settings_of(match.tournament)), 403)
        if not LiveMatch.objects.filter(match=match).exists():
            raise PlayError("the match has not started: open it first", 409)
        table = load(match)
        mine = [s.seat for s in table.seats if s.player == player.pk]
        if not mine:
            raise PlayError(not_seated(settings_of(table.tournament)), 403)
        if table.game is None or match.status != Match.Status.RUNNING:
            raise PlayError("the match is over", 409)
        if table.live.waiting == LiveMatch.Waiting.NEXT:
            raise PlayError("the next game has not been dealt yet", 409)
        touch(match.pk, player.pk, ip)
        if type(turn) is not int or turn < 0:
            raise PlayError("`turn` must name the decision you answer: the `turn` of the state")
        now = turn_of(table)
        if turn != now:
            raise PlayError(
                f"that action answers turn {turn}, but the table is at turn {now}: "
                "it was already answered (reload the table); nothing was changed",
                409,
            )
        if seat is None:
            seat = table.game.to_act if table.game.to_act in mine else mine[0]
        if type(seat) is not int or seat not in mine:
            raise PlayError(f"seat {seat!r} is not yours; yours: {mine}", 403)
        try:
            table.game.act(seat, action.strip())
        except NotYourTurn as exc:
            raise PlayError(str(exc), 409) from None
        except IllegalAction as exc:
            raise PlayError(str(exc)) from None
        save_progress(table)
        replies_here = bots_reply_at_once(table)
        finished_match = run(table) if replies_here else None
    if finished_match is not None:
        dispatch.continue_tournament(finished_match)
    if not replies_here:
        request_advance(match_id)


def bots_reply_at_once(table: Table) -> bool:
    """Whether the bots' replies to an action are played in its own request (the table is
    loaded and locked already; no broker and no second process between a person and the
    replies): when every bot seat is a trusted built-in of TRUCO_INSTANT_BOT_PLUGINS (default
    `random heuristic`: a millisecond a decision) run in this process. Any other bot (a slow
    search, untrusted code in the jail) replies from a worker (`request_advance`)."""
    instant = getattr(settings, "TRUCO_INSTANT_BOT_PLUGINS", frozenset())
    return all(
        s.bot is not None and s.bot.isolation == IN_PROCESS and s.bot.name in instant
        for s in table.seats
        if not s.is_human
    )


def save_progress(table: Table) -> None:
    live, game = table.live, table.game
    live.actions = game.actions
    live.auto_played = game.auto_played
    live.to_act = game.to_act
    live.turn_deadline = None
    live.waiting = LiveMatch.Waiting.BOTS
    live.save()


def expire(match_id: int, game_no: int, ply: int) -> bool:
    """The turn timer of decision (game_no, ply) ran out: the game plays its default action for
    the seat. Does nothing if that decision was taken meanwhile. True if it played."""
    with transaction.atomic():
        match = locked_match(match_id)
        live = LiveMatch.objects.filter(match=match).first()
        if (
            live is None
            or match.status != Match.Status.RUNNING
            or live.waiting != LiveMatch.Waiting.HUMAN
            or live.game_no != game_no
            or live.ply != ply
            or live.turn_deadline is None
            or live.turn_deadline > timezone.now()
        ):
            return False
        table = load(match)
        table.game.auto_play()
        save_progress(table)
    advance(match_id)
    return True


def sweep() -> int:
    """What a worker would have done by now at every table in play, done by the periodic sweep
    (Celery beat in the production shape, the embedded stack's supervisor otherwise): an
    expired turn is auto-played, stalled robots are advanced, a person away past the grace at
    a table without a turn timer is played for. Requests never do this (a GET plays nothing).
    Returns the tables looked at."""
    ids = list(
        LiveMatch.objects.filter(
            match__status=Match.Status.RUNNING,
            waiting__in=(LiveMatch.Waiting.HUMAN, LiveMatch.Waiting.BOTS),
        ).values_list("match_id", flat=True)
    )
    for match_id in ids:
        try:
            catch_up(match_id)
        except Exception:  # one table's trouble leaves the others swept
            log.exception("live match %s: the sweep could not catch it up", match_id)
    return len(ids)


def catch_up(match_id: int) -> None:
    """What a worker would have done by now, done by the request that notices it: an expired
    turn is auto-played, a stalled advance is run, a person away past the grace at a table
    without a turn timer is played for by the robot. While a play worker is known to be
    running, a request leaves the robots to it unless they stalled for BOT_STALL_WITH_WORKER:
    requests that ran jailed robots themselves took 15 to 40 s to answer, and thought the same
    decisions as the worker."""
    live = LiveMatch.objects.filter(match_id=match_id).first()
    if live is None:
        return
    now = timezone.now()
    waited = (now - live.updated_at).total_seconds()
    worker_running = not inline() and play_worker_alive()
    if (
        live.waiting == LiveMatch.Waiting.HUMAN
        and live.turn_deadline is not None
        and live.turn_deadline <= now
    ):
        overdue = (now - live.turn_deadline).total_seconds()
        if not worker_running or overdue > BOT_STALL_WITH_WORKER:
            expire(match_id, live.game_no, live.ply)
    elif live.waiting == LiveMatch.Waiting.BOTS and waited > (
        BOT_STALL_WITH_WORKER if worker_running else BOT_STALL_SECONDS
    ):
        advance(match_id)
    elif (
        live.waiting == LiveMatch.Waiting.HUMAN
        and live.turn_deadline is None
        and live.to_act is not None
        and waited > BOT_STALL_SECONDS
        and seat_is_away(live)
    ):
        # No timer at this table: the robot plays for the absent person, by the worker when
        # one runs (once: the row's time is moved on, so that the next requests wait again).
        if worker_running:
            LiveMatch.objects.filter(pk=live.pk).update(updated_at=now)
            request_advance(match_id)
        else:
            advance(match_id)


BOT_STALL_WITH_WORKER = 60.0  # seconds: a worker that took this long lost the message


def play_worker_alive() -> bool:
    return worker_health.status(settings.TRUCO_PLAY_QUEUE)["alive"] is True


def seat_is_away(live: LiveMatch) -> bool:
    """Whether the person whose turn it is has been away past the disconnection grace."""
    table = table_of(live.match, live)
    return live.to_act in absent_seats(table)


# --- hand-offs to Celery --------------------------------------------------------------------

# The tasks (tables/tasks.py), sent by their names: the tasks call this module, not back.
ADVANCE_LIVE = "play.advance"
EXPIRE_TURN = "play.expire_turn"


def send_task(name: str, **options) -> None:
    app.send_task(name, **options)


def inline() -> bool:
    return bool(getattr(settings, "TRUCO_PLAY_INLINE", False))


def request_advance(match_id: int) -> None:
    """Advance by a task once the action is committed (or right here without a broker)."""
    if inline():
        advance(match_id)
        return

    def send():
        try:
            send_task(ADVANCE_LIVE, kwargs={"match_id": match_id})
        except Exception:  # no broker reachable: do the work in this request instead
            log.warning("live match %s: no broker, advancing in the request", match_id)
            advance(match_id)

    transaction.on_commit(send)


def schedule_timer(match_id: int, game_no: int, ply: int, seconds: int) -> None:
    if inline():
        return  # the periodic sweep notices the expired turn (sweep, catch_up)

    def send():
        try:
            send_task(
                EXPIRE_TURN,
                kwargs={"match_id": match_id, "game_no": game_no, "ply": ply},
                countdown=seconds + 0.2,
            )
        except Exception:
            log.warning("live match %s: no broker for the turn timer", match_id)

    transaction.on_commit(send)
