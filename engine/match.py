"""Matches between two sides: N games with sides alternating, or N duplicate pairs (the same deal
seed played twice with the sides swapped and the bots created afresh, as in duplicate bridge),
so that luck of the deal cancels out and statistics count pairs; then, for a match that must
have a winner, deciders (engine/match_plan.py).

A `MatchSession` is a match being played, by workers and at tables alike: it owns the seat pool
(one process per jailed or remote seat for the whole match, and the in-process bots that
remember the match), makes each game's session (engine/session.py) from the plan, with people's
seats where people sit, and hears each game end. `play_match` is a match session driven to its
end."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .match_plan import MAX_DECIDERS, MatchPlan, PlannedGame, winner_of
from .plugins import plugin_manager, registry
from .runner import ISOLATIONS, BotSpec, GameResult, notify_finished, play_game
from .seats import SeatPool
from .seeds import game_seed  # one-way: a finished game's seed tells nothing of the others
from .session import OVER, PERSON, GameSession, GameSetup, keep_log
from .time_control import TimeControl

__all__ = [
    "MATCH_PAIRS",
    "MAX_DECIDERS",
    "MatchGame",
    "MatchPlan",
    "MatchResult",
    "MatchSession",
    "MatchSpec",
    "PlannedGame",
    "game_seed",
    "iter_match",
    "play_match",
    "play_scheduled",
    "schedule",
    "seat_keys",
    "seat_sides",
]


@dataclass(frozen=True)
class MatchSpec:
    variant: str
    side_a: BotSpec | str  # plays every seat of its team
    side_b: BotSpec | str
    players: int = 2
    options: Mapping[str, Any] = field(default_factory=dict)
    preset: str | None = None
    games: int = 0  # single games, sides alternating
    pairs: int = 0  # duplicate pairs (two games each)
    seed: int = 0
    decision_seconds: float | None = None
    # Run both sides in the jail ("jail", or its old name "process") whatever their BotSpecs
    # say; None keeps each BotSpec's own choice.
    isolation: str | None = None
    # A bank per seat per game plus an increment per decision (engine/time_control.py), on top
    # of `decision_seconds`; None: none.
    time_control: TimeControl | str | None = None

    def __post_init__(self):
        object.__setattr__(self, "time_control", TimeControl.of(self.time_control))

    def setup(self, seed: int) -> GameSetup:
        """What fixes one game of the match, dealt from `seed`."""
        return GameSetup(self.variant, self.players, seed, self.options, self.preset)

    def sides(self) -> tuple[BotSpec, BotSpec]:
        a, b = BotSpec.of(self.side_a), BotSpec.of(self.side_b)
        if self.isolation is not None:
            if self.isolation not in ISOLATIONS:
                raise ValueError(f"isolation must be one of {', '.join(ISOLATIONS)}")
            # A program (a bundle) or a remote bot runs where it must, whatever is asked.
            a, b = (
                replace(side, isolation=self.isolation) if side.registered else side
                for side in (a, b)
            )
        return a, b


@dataclass
class MatchGame:
    index: int  # game number in the match
    pair: int | None  # the duplicate pair it belongs to
    a_team: int  # the team side A played
    seed: int
    result: GameResult

    @property
    def winner_side(self) -> str | None:
        if self.result.winner is None:
            return None
        return "a" if self.result.winner == self.a_team else "b"

    @property
    def points(self) -> tuple[int, int]:
        """(side A, side B) points of this game."""
        score = self.result.score
        return score[self.a_team], score[1 - self.a_team]


@dataclass
class MatchResult:
    games: list[MatchGame] = field(default_factory=list)
    # The games planned before any decider (None: no deciders, every game is planned).
    scheduled: int | None = None

    @property
    def wins(self) -> tuple[int, int]:
        sides = Counter(g.winner_side for g in self.games)
        return sides["a"], sides["b"]

    @property
    def points(self) -> tuple[int, int]:
        return sum(g.points[0] for g in self.games), sum(g.points[1] for g in self.games)

    @property
    def terminations(self) -> dict[str, int]:
        return dict(Counter(g.result.termination for g in self.games))

    def pair_scores(self) -> list[float]:
        """Per duplicate pair, side A's share of its two games: 1, 0.5 or 0."""
        by_pair: dict[int, list[MatchGame]] = {}
        for g in self.games:
            if g.pair is not None:
                by_pair.setdefault(g.pair, []).append(g)
        return [
            sum(1.0 for g in games if g.winner_side == "a") / 2
            for _, games in sorted(by_pair.items())
        ]

    @property
    def deciders(self) -> int:
        """How many extra games settled a drawn match."""
        return 0 if self.scheduled is None else max(0, len(self.games) - self.scheduled)

    @property
    def winner(self) -> str | None:
        """ "a", "b", or None for a drawn match: more games won, then more points; with
        deciders, the last decided one (side A past the cap: engine/match_plan.py)."""
        if self.deciders:
            deciders = self.games[self.scheduled :]
            decided = [g.winner_side for g in deciders if g.winner_side is not None]
            if decided:
                return decided[-1]
            return "a" if len(deciders) >= MAX_DECIDERS else None
        return winner_of(self.games)


def seat_sides(side_a, side_b, players: int, a_team: int) -> list[BotSpec | str]:
    """Partners sit opposite: side A takes the seats of `a_team`."""
    return [side_a if seat % 2 == a_team else side_b for seat in range(players)]


def schedule(spec: MatchSpec) -> list[tuple[int, int | None, int, int]]:
    """(index, pair, a_team, seed) of every planned game of the match, in order."""
    return [(g.index, g.pair, g.a_team, g.seed) for g in MatchPlan.of(spec).scheduled]


def seat_keys(players: int, a_team: int) -> list[tuple[str, int]]:
    """Who sits where, as (side, place in the side): the same bot process plays ("a", 0) in
    every game of a match, whichever seat number that is in the game."""
    return [("a" if seat % 2 == a_team else "b", seat // 2) for seat in range(players)]


def play_scheduled(
    spec: MatchSpec,
    index: int,
    pair: int | None,
    a_team: int,
    seed: int,
    notify: bool = True,
    pool: SeatPool | None = None,
) -> MatchGame:
    """One game of the match's schedule (in a worker process when the match runs in parallel;
    there, out-of-process bots live for the game, since `pool` stays in the parent)."""
    side_a, side_b = spec.sides()
    game = play_game(
        registry().variant(spec.variant),
        seat_sides(side_a, side_b, spec.players, a_team),
        options=spec.options,
        preset=spec.preset,
        seed=seed,
        decision_seconds=spec.decision_seconds,
        time_control=spec.time_control,
        notify=notify,
        pool=pool,
        seat_keys=seat_keys(spec.players, a_team),
        game_index=index,
    )
    return MatchGame(index, pair, a_team, seed, game)


class MatchSession:
    """A match being played (see the module's docstring).

    `persons` are the seat keys (side, place: `("a", 0)` is side A's first seat, whichever seat
    number it has in a game) where people sit: those seats wait for them in every game, and
    the side's bot is who stands in for them. `finished` are the games played already (a
    match resumed after its host stopped): the plan goes on from there. Drive it with
    `next_game()` (a GameSession, or None once the match is over) and the game session's own
    operations; the match hears each game end by itself. `close()` ends it for every bot (what
    they log on hearing the match's end is kept with the last game)."""

    def __init__(
        self,
        spec: MatchSpec,
        *,
        needs_winner: bool = False,
        persons: Collection[tuple[str, int]] = (),
        finished: Sequence[MatchGame] = (),
        notify: bool = True,
        on_game: Callable[[MatchGame], None] | None = None,
        on_action: Callable[[GameSession], None] | None = None,
        pool: SeatPool | None = None,
        registry=None,
    ):
        self.spec = spec
        self.sides = spec.sides()
        self.plan = MatchPlan.of(spec, needs_winner)
        self.persons = frozenset(persons)
        self.games: list[MatchGame] = list(finished)
        self.notify = notify
        self.on_game = on_game
        self.on_action = on_action  # every game's actions, as they are played
        self.pool = pool if pool is not None else SeatPool()
        self.registry = registry if registry is not None else _default_registry()
        self.registry.variant(spec.variant)  # an unknown variant fails before any game
        self.current: GameSession | None = None
        self.planned: PlannedGame | None = None
        self.closed = False

    # --- facts -----------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.plan.is_over(self.games)

    @property
    def winner(self) -> str | None:
        return self.plan.winner(self.games)

    @property
    def result(self) -> MatchResult:
        return MatchResult(sorted(self.games, key=lambda g: g.index), self.plan.planned)

    def seat_drivers(self, a_team: int) -> list[Any]:
        """Who plays each seat of a game where side A is team `a_team`: PERSON or a bot."""
        side_a, side_b = self.sides
        keys = seat_keys(self.spec.players, a_team)
        bots = seat_sides(side_a, side_b, self.spec.players, a_team)
        return [PERSON if key in self.persons else bot for key, bot in zip(keys, bots, strict=True)]

    def stand_in_for(self, seat: int) -> BotSpec:
        """The bot of the side whose person sits at `seat` in the current game: who plays
        for them while they are away."""
        a_team = self.planned.a_team
        return self.sides[0] if seat % 2 == a_team else self.sides[1]

    # --- playing ---------------------------------------------------------------------------
    def next_game(
        self,
        *,
        actions: Sequence[Sequence[Any]] = (),
        timeouts: Sequence[int] = (),
        logs: Mapping[Any, str] | None = None,
        clocks: Sequence[float] | None = None,
    ) -> GameSession | None:
        """The game in play, else the next one of the plan (resumed from its saved `actions`,
        `timeouts` and `logs` when given: no bot is asked to replay them), or None once the
        match is over."""
        if self.current is not None and not self.current.over:
            return self.current
        planned = self.plan.next_game(self.games)
        if planned is None:
            return None
        self.planned = planned
        self.current = GameSession.start(
            self.spec.setup(planned.seed),
            self.seat_drivers(planned.a_team),
            registry=self.registry,
            pool=self.pool,
            seat_keys=seat_keys(self.spec.players, planned.a_team),
            game_index=planned.index,
            decision_seconds=self.spec.decision_seconds,
            time_control=self.spec.time_control,
            actions=actions,
            timeouts=timeouts,
            logs=logs,
            clocks=clocks,
            on_end=self._game_ended,
            on_action=self.on_action,
        )
        if self.current.over:  # saved actions that end the game: it ended just now
            return self.next_game()
        return self.current

    def play(self) -> MatchResult:
        """Play every game to the end (code at every seat) and close the match."""
        try:
            while (game := self.next_game()) is not None:
                if game.advance() != OVER:
                    raise RuntimeError("a match of bots waits for nobody: a seat is a person's")
        finally:
            self.close()
        return self.result

    def close(self) -> None:
        """The end of the match for its bots: jailed and remote ones hear it and stop; what they
        write then is kept with the last game's logs."""
        if self.closed:
            return
        self.closed = True
        tail = self.pool.finish()
        if self.games:
            keep_tail(self.games[-1], tail)

    def __enter__(self) -> MatchSession:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def _game_ended(self, session: GameSession) -> None:
        planned = self.planned
        played = MatchGame(
            planned.index, planned.pair, planned.a_team, planned.seed, session.outcome
        )
        self.games.append(played)
        if self.notify:
            notify_finished(played.result)
        if self.on_game is not None:
            self.on_game(played)


def keep_tail(last: MatchGame, tail: Mapping[int, str]) -> None:
    """What the bots wrote on hearing the match's end (`SeatPool.finish`), kept with the logs
    of its last game."""
    logs = last.result.logs
    for seat, text in tail.items():
        logs[seat] = keep_log(logs.get(seat, ""), text)


def _default_registry():  # `registry` is also MatchSession's parameter
    return registry()


def iter_match(
    spec: MatchSpec,
    jobs: int = 1,
    *,
    needs_winner: bool = False,
    on_action: Callable[[GameSession], None] | None = None,
    block_pairs: int | None = None,
) -> Iterator[MatchGame]:
    """The games of the match as they finish: in schedule order with one job, else in order of
    completion across `jobs` worker processes (then the deciders, in this process). Closing the
    iterator early (an SPRT that has decided) cancels the games not started. `on_action` hears
    each action of the games played in this process, as it is played.

    `block_pairs` (the arena's, no deciders): the schedule is played as matches of that many
    pairs each, one after the other (`blocks`): the bots remember their opponent across a
    block's games and its jailed bots start once a block, with one job or several alike, so
    `jobs` changes how fast the games are played, not what the bots know when they play them."""
    registry().variant(spec.variant)  # fail on an unknown variant before any game
    if block_pairs is not None:
        yield from _iter_blocks(spec, block_pairs, jobs)
        return
    if jobs <= 1 or spec.games + 2 * spec.pairs <= 1:
        # One process per jailed or remote seat for the whole match, ended with it.
        with MatchSession(spec, needs_winner=needs_winner, on_action=on_action) as match:
            while (game := match.next_game()) is not None:
                game.advance()
                played = match.games[-1]
                if match.over:
                    # The bots hear the match's end now: what they write then is kept with the
                    # last game's logs, instead of being lost with their processes.
                    match.close()
                yield played
        return
    finished: list[MatchGame] = []
    for played in _iter_parallel(spec, schedule(spec), jobs):
        finished.append(played)
        yield played
    if needs_winner:
        finished.sort(key=lambda g: g.index)
        with MatchSession(spec, needs_winner=True, finished=finished, on_action=on_action) as match:
            while (game := match.next_game()) is not None:
                game.advance()
                played = match.games[-1]
                if match.over:
                    match.close()
                yield played


# The pairs of one match of the arena (`--match-pairs`): long enough for bots that learn their
# opponent to show it, as in a tournament's match of several games.
MATCH_PAIRS = 25


def blocks(spec: MatchSpec, block_pairs: int) -> list[list[tuple[int, int | None, int, int]]]:
    """The schedule cut into runs of `block_pairs` pairs (single games: twice as many games),
    each played as a match of its own."""
    if block_pairs < 1:
        raise ValueError("a block holds at least one pair")
    plan = schedule(spec)
    size = 2 * block_pairs
    return [plan[start : start + size] for start in range(0, len(plan), size)]


def play_block(
    spec: MatchSpec,
    entries: Sequence[tuple[int, int | None, int, int]],
    notify: bool = True,
) -> Iterator[MatchGame]:
    """The games of one block, one seat pool for all of them (the bots that remember a match
    remember the block; jailed and remote bots live for it): what they write on hearing its
    end is kept with its last game's logs."""
    pool = SeatPool()
    played = None
    try:
        for entry in entries:
            if played is not None:
                yield played
            played = play_scheduled(spec, *entry, notify=notify, pool=pool)
    finally:
        tail = pool.finish()
    if played is not None:
        keep_tail(played, tail)
        yield played


def _played_block(spec: MatchSpec, entries) -> list[MatchGame]:
    """A worker process's block, whole (its games are sent back together)."""
    return list(play_block(spec, entries, notify=False))


def _iter_blocks(spec: MatchSpec, block_pairs: int, jobs: int) -> Iterator[MatchGame]:
    plan = blocks(spec, block_pairs)
    if jobs <= 1 or len(plan) <= 1:
        for entries in plan:
            yield from play_block(spec, entries)
        return
    calls = ((_played_block, (spec, entries), {}) for entries in plan)
    for games in _completed(calls, jobs, ahead=jobs):
        for game in games:
            # Observers hear of every game in the parent, as with one job.
            plugin_manager().hook.truco_game_finished(result=game.result)
            yield game


def _iter_parallel(spec: MatchSpec, plan, jobs: int) -> Iterator[MatchGame]:
    calls = ((play_scheduled, (spec, *entry), {"notify": False}) for entry in plan)
    for game in _completed(calls, jobs, ahead=2 * jobs):
        plugin_manager().hook.truco_game_finished(result=game.result)
        yield game


def _completed(calls: Iterator[tuple[Callable, tuple, dict]], jobs: int, ahead: int):
    """The results of `calls` ((function, args, kwargs)) run in `jobs` worker processes, as
    each finishes, with at most `ahead` of them submitted at once; closing the generator early
    (an SPRT that has decided) cancels those not started."""
    # Imported only for `--jobs`: a process pool's machinery is not every match's start-up.
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    # Fresh interpreters, not forks: a runner embedded in a threaded server must not fork it.
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context)
    pending: set = set()

    def submit_next() -> bool:
        for function, args, kwargs in calls:
            pending.add(pool.submit(function, *args, **kwargs))
            return True
        return False

    try:
        while len(pending) < ahead and submit_next():
            pass
        while pending:
            done, still = wait(pending, return_when=FIRST_COMPLETED)
            pending.intersection_update(still)
            for future in done:
                submit_next()
                yield future.result()
    finally:
        for future in pending:
            future.cancel()
        pool.shutdown(wait=True, cancel_futures=True)


def play_match(
    spec: MatchSpec,
    on_game: Callable[[MatchGame], None] | None = None,
    *,
    jobs: int = 1,
    needs_winner: bool = False,
    on_action: Callable[[GameSession], None] | None = None,
) -> MatchResult:
    """Play the whole match; `on_game` hears of each game as it finishes (in the calling
    process, also with `jobs` > 1). With `needs_winner`, a drawn match goes on with deciders
    (engine/match_plan.py) until it has a winner. The result lists the games in schedule order."""
    games = []
    for played in iter_match(spec, jobs, needs_winner=needs_winner, on_action=on_action):
        games.append(played)
        if on_game:
            on_game(played)
    games.sort(key=lambda g: g.index)
    return MatchResult(games, spec.games + 2 * spec.pairs if needs_winner else None)
