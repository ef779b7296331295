"""Matches between two sides: N games with sides alternating, or N duplicate pairs (the same deal
seed played twice with the sides swapped and the bots created afresh, as in duplicate bridge),
so that luck of the deal cancels out and statistics count pairs."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from .plugins import plugin_manager, registry
from .runner import ISOLATIONS, BotSpec, GameResult, play_game
from .seats import SeatPool
from .seeds import game_seed  # one-way: a finished game's seed tells nothing of the others


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
    def winner(self) -> str | None:
        """ "a", "b", or None for a drawn match: more games won, then more points."""
        (wa, wb), (pa, pb) = self.wins, self.points
        if wa != wb:
            return "a" if wa > wb else "b"
        if pa != pb:
            return "a" if pa > pb else "b"
        return None


def seat_sides(side_a, side_b, players: int, a_team: int) -> list[BotSpec | str]:
    """Partners sit opposite: side A takes the seats of `a_team`."""
    return [side_a if seat % 2 == a_team else side_b for seat in range(players)]


def schedule(spec: MatchSpec) -> list[tuple[int, int | None, int, int]]:
    """(index, pair, a_team, seed) of every game of the match, in order."""
    plan = []
    for i in range(spec.games):
        plan.append((i, None, i % 2, game_seed(spec.seed, i)))
    for p in range(spec.pairs):
        seed = game_seed(spec.seed, spec.games + p)
        for a_team in (0, 1):
            plan.append((len(plan), p, a_team, seed))
    return plan


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
        notify=notify,
        pool=pool,
        seat_keys=seat_keys(spec.players, a_team),
        game_index=index,
    )
    return MatchGame(index, pair, a_team, seed, game)


def iter_match(spec: MatchSpec, jobs: int = 1) -> Iterator[MatchGame]:
    """The games of the match as they finish: in schedule order with one job, else in order of
    completion across `jobs` worker processes. Closing the iterator early (an SPRT that has
    decided) cancels the games not started."""
    registry().variant(spec.variant)  # fail on an unknown variant before any game
    plan = schedule(spec)
    if jobs <= 1 or len(plan) <= 1:
        # One process per jailed or remote seat for the whole match, ended with it.
        with SeatPool() as pool:
            for number, entry in enumerate(plan, 1):
                game = play_scheduled(spec, *entry, pool=pool)
                if number == len(plan):
                    # The bots hear the match's end now: what they write then is kept with the
                    # last game's logs, instead of being lost with their processes.
                    for seat, text in pool.finish().items():
                        game.result.logs[seat] = game.result.logs.get(seat, "") + text
                yield game
        return
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    # Fresh interpreters, not forks: a runner embedded in a threaded server must not fork it.
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context)
    pending = set()
    queue = iter(plan)
    try:
        for entry in queue:
            pending.add(pool.submit(play_scheduled, spec, *entry, notify=False))
            if len(pending) >= 2 * jobs:
                break
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                for entry in queue:
                    pending.add(pool.submit(play_scheduled, spec, *entry, notify=False))
                    break
                game = future.result()
                # Observers hear of every game in the parent, as with one job.
                plugin_manager().hook.truco_game_finished(result=game.result)
                yield game
    finally:
        for future in pending:
            future.cancel()
        pool.shutdown(wait=True, cancel_futures=True)


def play_match(
    spec: MatchSpec,
    on_game: Callable[[MatchGame], None] | None = None,
    *,
    jobs: int = 1,
) -> MatchResult:
    """Play the whole match; `on_game` hears of each game as it finishes (in the calling
    process, also with `jobs` > 1). The result lists the games in schedule order."""
    result = MatchResult()
    for played in iter_match(spec, jobs):
        result.games.append(played)
        if on_game:
            on_game(played)
    result.games.sort(key=lambda g: g.index)
    return result
