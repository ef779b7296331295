"""A table in play, in memory: its rows, its seats, the engine's match session (the plan of the
match, its finished games, one bot process per robot seat kept across the whole match) and the
game in play (engine/session.py: the one game loop, here waiting for people's decisions).

A LiveTable is built from the database (`load`): the live match row holds everything that
resumes it (the finished games, this game's actions, who was played for, the bots' logs and
clocks), since a game is deterministic given its seed. A table host keeps LiveTables in memory
between people's actions (tables/host.py); without one, a request loads the table, changes it
and drops it (tables/services.py). Either way every change is written back under the live
match's row lock and its `version` goes up by one: whoever holds a LiveTable whose version is
no longer the row's builds it again before changing anything.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.postgres.expressions import ArraySubquery
from django.db import connections
from django.db.models import OuterRef
from django.utils import timezone

from engine.errors import IllegalAction
from engine.match import MatchGame, MatchSession, MatchSpec
from engine.match import MatchResult as EngineMatchResult
from engine.runner import IN_PROCESS
from engine.seats import SeatPool, ShownPool
from engine.session import OVER, PAUSED, WAITING, GameSession, NotYourTurn  # noqa: F401
from players.models import Player
from submitted_bots.budgets import decision_budget
from submitted_bots.playing import spec_for
from tables.models import LiveMatch, Presence, settings_of
from tables.seating import game_from_json, game_to_json
from tables.settlement import settle_game
from tournaments import execution
from tournaments.models import Entrant, Match
from tournaments.scheduling import match_plan, needs_winner, rated_player_ids
from tournaments.seating import Seat, robot, seating

# Seconds of robots' thinking per advance: a game robots play out for an absent person (a slow
# robot of ten seconds a decision) must not hold whoever advances it for minutes.
ADVANCE_SLICE_SECONDS = 3.0
PRESENCE_SECONDS = 1.0


class TableError(Exception):
    """A command a table refuses; `status` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


MATCH_RELATED = (
    "tournament",
    "tournament__table_settings",
    "tournament__table_settings__master",
    "entrant_a__bot",
    "entrant_b__bot",
)


def load_match(match_id: int, *, lock: bool = False, live: bool = False) -> Match:
    """The match with what a table reads of it (tournament, table settings and master, the
    names invited to the table, entrants, bots, members) in two queries; its row locked for the
    caller's transaction with `lock`. With `live`, its live row too (`match.live`, not locked),
    in the match's query: whether it has one, without a query of its own."""
    rows = with_invited_names(Match.objects.select_related(*MATCH_RELATED))
    if live:
        rows = rows.select_related("live")
    if lock:
        rows = rows.select_for_update(of=("self",))
    try:
        match = rows.get(pk=match_id)
    except Match.DoesNotExist:
        raise TableError("no such match", 404) from None
    keep_invited_names(match)
    prefetch_members([match.entrant_a, match.entrant_b])
    return match


def with_invited_names(rows):
    """Matches `rows` with, on PostgreSQL, the names of the players invited to each one's table
    in a column of the match's own query (`ARRAY(SELECT ...)`): the table's options show them,
    and every state read them in a query of their own. Elsewhere (SQLite) the options read
    them (tables.table_master.table_options)."""
    if connections[rows.db].vendor != "postgresql":
        return rows
    names = Player.objects.filter(invitations__tournament_id=OuterRef("tournament_id"))
    return rows.annotate(invited_names=ArraySubquery(names.values("name")))


def keep_invited_names(match: Match) -> None:
    """The names read with `match` (`with_invited_names`) given to its table's settings, where
    the options look for them (`TableSettings.invited_names`; a change of them forgets them)."""
    names = getattr(match, "invited_names", None)
    if names is None:
        return
    table = settings_of(match.tournament)
    if table.pk is not None:
        table.invited_names = list(names)


def prefetch_members(entrants: Iterable[Entrant | None]) -> None:
    """The members of these entrants (`entrant.members.all()`, in Player order) in one query:
    `prefetch_related` took one an entrant."""
    entrants = [e for e in entrants if e is not None]
    if not entrants:
        return
    through = Entrant.members.through
    rows = (
        through.objects.filter(entrant_id__in={e.pk for e in entrants})
        .select_related("player")
        .order_by(*(f"player__{name}" for name in Player._meta.ordering), "player_id")
    )
    members: dict[int, list[Player]] = {e.pk: [] for e in entrants}
    for row in rows:
        members[row.entrant_id].append(row.player)
    for entrant in entrants:
        keep_members(entrant, members[entrant.pk])


def keep_members(entrant: Entrant, players: list[Player]) -> None:
    """`entrant.members.all()` is `players` from now on, without a query: those read
    (`prefetch_members`, in Player order), or those just written when their order is known (a
    table opened: its master alone; `members.add` forgets what was read)."""
    found = entrant.members.all()
    found._result_cache = players
    found._prefetch_done = True
    cache = entrant.__dict__.setdefault("_prefetched_objects_cache", {})
    cache["members"] = found


def has_no_live_row(match: Match) -> None:
    """`match.live` is known to be absent (a match just made): it raises without a query."""
    Match.live.related.set_cached_value(match, None)


def human_ids(match: Match) -> set[int]:
    ids: set[int] = set()
    for entrant in (match.entrant_a, match.entrant_b):
        if entrant is not None and entrant.bot_id is None:
            ids |= {p.pk for p in entrant.members.all()}
    return ids


def human_member(match: Match, player_id: int) -> Player | None:
    """The player `player_id` among the people of the match's sides (read with it), else None."""
    for entrant in (match.entrant_a, match.entrant_b):
        if entrant is not None and entrant.bot_id is None:
            for member in entrant.members.all():
                if member.pk == player_id:
                    return member
    return None


def has_humans(match: Match) -> bool:
    return any(e is not None and e.bot_id is None for e in (match.entrant_a, match.entrant_b))


def side_spec(match: Match, side: str):
    """Who plays a side's seats that no person takes: its bot, or (a side of people) the robot
    that partners them and plays for them while they are away."""
    entrant = match.entrant_a if side == "a" else match.entrant_b
    if entrant is not None and entrant.bot is not None:
        return spec_for(entrant.bot, match.tournament.turn_seconds)
    return robot()


def person_keys(match: Match) -> set[tuple[str, int]]:
    """The seat keys (side, place in the side) where people sit: members in seat order."""
    keys = set()
    for side, entrant in (("a", match.entrant_a), ("b", match.entrant_b)):
        if entrant is not None and entrant.bot_id is None:
            keys |= {(side, place) for place in range(len(entrant.members.all()))}
    return keys


def match_spec(match: Match) -> MatchSpec:
    tournament = match.tournament
    time_control = None
    if tournament.bank_seconds:
        time_control = f"{tournament.bank_seconds}+{tournament.increment_seconds:g}"
    return MatchSpec(
        variant=tournament.variant,
        side_a=side_spec(match, "a"),
        side_b=side_spec(match, "b"),
        players=tournament.players,
        options=tournament.options,
        preset=tournament.preset or None,
        games=tournament.games_per_match,
        pairs=tournament.pairs_per_match,
        seed=match.seed,
        decision_seconds=decision_budget(tournament.turn_seconds),
        time_control=time_control,
    )


class LiveTable:
    """See the module's docstring. `seats` are the seats of the game in play (or of the next
    one between games); `game` the engine's GameSession, None between games and once over."""

    def __init__(
        self, match: Match, live: LiveMatch, pool: SeatPool | None = None, *, shown: bool = False
    ):
        """`shown`: a table built only to show it, deal its next game or count a vote, whose
        bots are never asked to play: it starts no bot process (engine.seats.ShownPool)."""
        if shown and pool is None:
            pool = ShownPool()
        self.match = match
        self.live = live
        self.tournament = match.tournament
        self.settings = settings_of(self.tournament)
        self.version = live.version
        self.finished: list[MatchGame] = [game_from_json(g) for g in live.games]
        self.plan = match_plan(self.tournament, match.seed)
        self.session: MatchSession | None = None
        self.game: GameSession | None = None
        self.present: set[int] | None = None  # players a host sees connected (None: ask rows)
        self._last_seen: dict[int, Any] = {}
        self._presence: tuple[float, dict[int, Any]] | None = None
        self._memo: dict[str, Any] = {}
        self.stood_in: set[int] = set()
        # The match's last game ended and the match is still to record (a table host records
        # it after its reply: `record_later`), or was left so by a host that died meanwhile.
        self.to_record = False
        self._open_game(pool)

    # --- building ---------------------------------------------------------------------------
    @classmethod
    def load(cls, match_id: int, *, lock: bool = False) -> LiveTable:
        """The table of match `match_id` (its live match row locked with `lock`); TableError
        when it has none (the match was never opened)."""
        match = load_match(match_id, lock=lock)
        rows = LiveMatch.objects.filter(match=match)
        if lock:
            rows = rows.select_for_update()
        live = rows.first()
        if live is None:
            raise TableError("the match has not started: open it first", 409)
        return cls(match, live)

    def refresh(self, match: Match, live: LiveMatch) -> None:
        """Someone else changed the table (its row's version moved on): build it again from
        the rows, keeping the bots of the seats that are still theirs (one process per seat
        per match: never a second one)."""
        old = self.session
        # The same processes go on with the same seats: the new session is built on the old
        # one's pool, before its game starts (a game started on a fresh pool starts its bots).
        self.__init__(match, live, pool=old.pool if old is not None else None)
        if old is not None and self.session is None:
            old.close()

    def _open_game(self, pool: SeatPool | None = None) -> None:
        live, match = self.live, self.match
        running = match.status == Match.Status.RUNNING
        if not running or live.waiting == LiveMatch.Waiting.DONE:
            self.seats = seating(match, self.tournament.players, 0)
            return
        self.session = MatchSession(
            match_spec(match),
            needs_winner=needs_winner(self.tournament),
            persons=person_keys(match),
            finished=self.finished,
            notify=False,
            pool=pool,
        )
        planned = self.plan.next_game(self.finished)
        self.seats = seating(match, self.tournament.players, planned.a_team if planned else 0)
        self.to_record = planned is None
        if live.waiting == LiveMatch.Waiting.NEXT or planned is None:
            return  # not dealt yet: a player's table waits for its master to deal
        self.game = self.session.next_game(
            actions=live.actions,
            timeouts=live.auto_played,
            logs=live.bot_logs,
            clocks=live.clocks,
        )

    # --- facts ------------------------------------------------------------------------------
    @property
    def turn(self) -> int | None:
        """The number of the decision pending: the match's actions so far (its finished
        games', then this game's). An action names it, so that one sent for a decision taken
        already (a second click, a late tab) is told apart from a new one."""
        if self.game is None:
            return None
        return sum(g.result.actions for g in self.finished) + self.game.ply

    def seats_of(self, player_id: int | None) -> list[int]:
        return [s.seat for s in self.seats if player_id is not None and s.player == player_id]

    def robots(self) -> list[Seat]:
        return [s for s in self.seats if not s.is_human]

    def absent_seats(self) -> set[int]:
        """The people's seats whose person has been away past the disconnection grace."""
        grace = self.settings.disconnect_grace_seconds
        since = self.live.started_at or timezone.now()
        if self.everyone_connected():
            return set()  # nobody to stand in for
        # When each was last seen: by the host (their connections) or by a request of theirs
        # (the REST API's players poll: Presence rows), whichever is later.
        seen = dict(self.presence())
        for player, when in self._last_seen.items():
            if player not in seen or when > seen[player]:
                seen[player] = when
        cutoff = timezone.now() - timedelta(seconds=grace)
        return {
            s.seat
            for s in self.seats
            if s.is_human
            and (self.present is None or s.player not in self.present)
            and seen.get(s.player, since) < cutoff
        }

    def everyone_connected(self) -> bool:
        """Whether every person of the table is connected to the host (`seen`)."""
        people = {s.player for s in self.seats if s.is_human}
        return self.present is not None and people <= self.present

    def presence_due(self) -> bool:
        """Whether asking who is away would read the Presence rows now (someone not connected
        to the host, and the last read over a second old): the host reads them first in a
        thread that keeps a database connection, not in a robot's (tables/host.py)."""
        if self.game is None or self.everyone_connected():
            return False
        return self._presence is None or time.monotonic() - self._presence[0] > PRESENCE_SECONDS

    def presence(self) -> dict[int, Any]:
        """When each person was last seen by a request (Presence rows), read at most once a
        second: every decision asks who is away, and the answer changes by the second."""
        now = time.monotonic()
        if self._presence is None or now - self._presence[0] > PRESENCE_SECONDS:
            rows = Presence.objects.filter(live=self.live).values_list("player_id", "last_seen")
            self._presence = (now, dict(rows))
        return self._presence[1]

    def presence_read(self, rows: dict[int, Any] | None) -> None:
        """The Presence rows as just read ({player id: last seen}: services.touch_and_read),
        what `presence` would read now; None: not read."""
        if rows is not None:
            self._presence = (time.monotonic(), dict(rows))

    def memo(self, key: str, compute):
        """A value of this table's rows computed once per build (its settings' options...):
        whatever changes them changes the row's version, and the table is built again."""
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    def bots_reply_at_once(self) -> bool:
        """Whether every robot of the table is a trusted built-in of TRUCO_INSTANT_BOT_PLUGINS
        run in this process (a millisecond a decision): their replies are played in the same
        transaction as the person's action."""
        instant = getattr(settings, "TRUCO_INSTANT_BOT_PLUGINS", frozenset())
        return all(
            s.bot is not None and s.bot.isolation == IN_PROCESS and s.bot.name in instant
            for s in self.robots()
        )

    # --- people's commands ------------------------------------------------------------------
    def act(self, player_id: int, action: Any, seat: Any = None, turn: Any = None) -> int:
        """A person's decision for the decision numbered `turn`: only a seat of theirs, only
        when it is to act, only one of its legal actions. Returns the seat it was for."""
        if not isinstance(action, str) or not action.strip():
            raise TableError("`action` must be one of your legal actions, as a string")
        mine = self.seats_of(player_id)
        if not mine:
            raise TableError("you do not play in this match", 403)
        if self.game is None or self.match.status != Match.Status.RUNNING:
            if self.live.waiting == LiveMatch.Waiting.NEXT:
                raise TableError("the next game has not been dealt yet", 409)
            raise TableError("the match is over", 409)
        if type(turn) is not int or turn < 0:
            raise TableError("`turn` must name the decision you answer: the `turn` of the state")
        if turn != self.turn:
            raise TableError(
                f"that action answers turn {turn}, but the table is at turn {self.turn}: "
                "it was already answered (reload the table); nothing was changed",
                409,
            )
        if seat is None:
            seat = self.game.to_act if self.game.to_act in mine else mine[0]
        if type(seat) is not int or seat not in mine:
            raise TableError(f"seat {seat!r} is not yours; yours: {mine}", 403)
        try:
            self.game.act(seat, action.strip())
        except NotYourTurn as exc:
            raise TableError(str(exc), 409) from None
        except IllegalAction as exc:
            raise TableError(str(exc)) from None
        self.stood_in.discard(seat)
        return seat

    def time_out(self, game_no: int, ply: int) -> bool:
        """The turn timer of decision (game_no, ply) ran out: the game plays the default
        action for the person. Nothing if that decision was taken meanwhile."""
        live = self.live
        if (
            self.game is None
            or self.game.over
            or not self.game.waiting_for_person
            or live.game_no != game_no
            or self.game.ply != ply
            or live.turn_deadline is None
            or live.turn_deadline > timezone.now()
        ):
            return False
        self.game.time_out()
        return True

    # --- the robots -------------------------------------------------------------------------
    def think(self, until: float | None = None) -> str:
        """The robots (and robots standing in for people away past the grace) play the game in
        play up to a present person's decision (WAITING), its end (OVER: `end_game` writes
        it, under the live match's lock) or `until` (time.monotonic()) with a robot still to
        act (PAUSED). Nothing is written: robots may think outside any lock."""
        if self.game is None:
            return WAITING
        self._stand_in_for_the_absent()
        return self.game.advance(until=until)

    def advance(self, until: float | None = None) -> str:
        """`think`, and each game that ends ended (`end_game`), the next one played in turn:
        for a caller that holds the live match's lock. WAITING or PAUSED."""
        while self.game is not None:
            status = self.think(until)
            if status != OVER:
                return status
            self.end_game()
            if self.game is not None and until is not None and time.monotonic() >= until:
                return PAUSED
        return WAITING

    def _stand_in_for_the_absent(self) -> None:
        game, session = self.game, self.session
        absent = self.absent_seats()
        for seat in range(game.players):
            if not game.is_person(seat):
                continue
            if seat in absent:
                game.stand_in(seat, session.stand_in_for(seat))
                self.stood_in.add(seat)
            elif seat in self.stood_in:
                game.hand_back(seat)
                self.stood_in.discard(seat)

    # --- games and the match ----------------------------------------------------------------
    def end_game(self) -> None:
        """The game in play is over: it is kept with the live match and paid (chips, ranking
        points); then the next game starts, waits for its deal, or the match is recorded."""
        played = self.session.games[-1]
        self.finished = list(self.session.games)
        settle_game(self.match.pk, played.index, self.settings, self.seats, played.result.winner)
        live = self.live
        live.games = [*live.games, game_to_json(played)]
        live.game_no = len(live.games)
        live.actions, live.auto_played, live.bot_logs, live.clocks = [], [], {}, None
        live.end_votes = []  # a vote to end amicably is about the game in play
        live.turn_deadline = None
        self.game = None
        self.stood_in.clear()
        planned = self.plan.next_game(self.finished)
        if planned is None and self.record_later:
            # The decision's transaction ends here: the match is recorded (games, result,
            # ratings) by the host after its reply (`record`), from this row if it dies first.
            self.to_record = True
            live.waiting = LiveMatch.Waiting.BOTS
            live.to_act = None
            return
        if planned is None:
            self.finish_match()
            return
        self.seats = seating(self.match, self.tournament.players, planned.a_team)
        if self.settings.is_players_table:
            live.waiting = LiveMatch.Waiting.NEXT  # the master may change options, then deals
            return
        self.game = self.session.next_game()

    # A table host's tables: the match's record is not part of the decision that ends it.
    record_later = False

    def record(self) -> None:
        """The match whose last game ended recorded (`finish_match`): by a table host after
        its reply, by whoever builds the table again if that host died first. The caller holds
        the live match's lock, and saves."""
        if self.to_record and self.match.status == Match.Status.RUNNING:
            self.finish_match()
        self.to_record = False

    def deal(self) -> None:
        """The next game of a player's table starts (its master dealt it)."""
        self.live.waiting = LiveMatch.Waiting.BOTS
        if self.session is None or self.plan.next_game(self.finished) is None:
            return
        self.game = self.session.next_game()

    def finish_match(self) -> None:
        """Record the match as a match of bots is (tournaments.execution.record_match: games,
        result, rating), then close the table."""
        match, tournament = self.match, self.tournament
        result = EngineMatchResult(list(self.finished), self.plan.planned)
        played = execution.Played(
            games=list(self.finished),
            winner_side=result.winner,
            deciders=result.deciders,
            seconds=(timezone.now() - (match.started_at or timezone.now())).total_seconds(),
            pair_scores=result.pair_scores(),
        )
        recorded = execution.record_match(
            match.pk,
            match.claim_token,
            played,
            attempt=match.attempts,
            competitive=tournament.competitive,
            team_a=rated_player_ids(match.entrant_a),
            team_b=rated_player_ids(match.entrant_b),
        )
        if recorded:
            match.status = Match.Status.DONE
        self.close()
        self.recorded = recorded

    recorded = False

    def close(self) -> None:
        live = self.live
        live.waiting = LiveMatch.Waiting.DONE
        live.to_act = None
        live.turn_deadline = None
        live.finished_at = live.finished_at or timezone.now()
        self.game = None
        if self.session is not None:
            self.session.close()

    def close_bots(self) -> None:
        """Stop this table's bot processes (an idle table, or one another host took): they
        are started again, told the match so far, when next needed."""
        if self.session is not None:
            self.session.close()
            self.session.pool = type(self.session.pool)()
            self.session.closed = False

    # --- writing it back --------------------------------------------------------------------
    def row_values(self, *, timer: bool = True) -> dict[str, Any]:
        """What `save` writes of the game in play, as the row's fields: copies, so that a host
        may take them now and write them later while a robot plays on. With a person to act,
        their turn's deadline is set when the decision is new."""
        live, game = self.live, self.game
        if game is None:
            return {}
        values: dict[str, Any] = {
            "actions": list(game.actions),
            "auto_played": list(game.timeouts),
            "bot_logs": {str(seat): text for seat, text in game.logs.items()},
            "clocks": list(game.clocks) if game.clocks is not None else None,
            "to_act": game.to_act,
        }
        if game.waiting_for_person:
            # The decision the row waited for before this change: a deadline is kept for it.
            same = (live.waiting, live.to_act, len(live.actions)) == (
                LiveMatch.Waiting.HUMAN,
                game.to_act,
                game.ply,
            )
            if not (same and live.turn_deadline):
                turn = self.tournament.turn_seconds
                values["turn_deadline"] = (
                    timezone.now() + timedelta(seconds=turn) if turn and timer else None
                )
            values["waiting"] = LiveMatch.Waiting.HUMAN
        else:
            values["turn_deadline"] = None
            if live.waiting != LiveMatch.Waiting.NEXT:
                values["waiting"] = LiveMatch.Waiting.BOTS
        return values

    def save(
        self,
        *,
        timer: bool = True,
        values: dict[str, Any] | None = None,
        match_is_current: bool = False,
    ) -> LiveMatch:
        """Write the table to its live match row (the caller holds its lock), its version one
        up: the game in play as it is, or `values` taken from it earlier (`row_values`). Once
        the match is over its result is read back, unless `match_is_current`: the caller
        holds the match's lock and wrote what changed of it (an amicable end)."""
        live = self.live
        for name, value in (self.row_values(timer=timer) if values is None else values).items():
            setattr(live, name, value)
        live.save()  # its version one up (LiveMatch.save)
        self.version = live.version
        over = self.match.status == Match.Status.DONE or live.waiting == LiveMatch.Waiting.DONE
        if over and not match_is_current:
            self.match.refresh_from_db(fields=["status", "winner", "wins_a", "wins_b"])
        return live

    # --- for the host ------------------------------------------------------------------------
    def seen(self, players: Iterable[int], last_seen: dict[int, Any]) -> None:
        """What a host knows of its people: who is connected now, when each was last seen."""
        self.present = set(players)
        self._last_seen = dict(last_seen)
