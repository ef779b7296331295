"""The plan of a match and who won it, the same for matches of bots and tables of people.

The plan: `games` single games, sides alternating, then `pairs` duplicate pairs (one deal played
twice, sides swapped). A match that must have a winner (an elimination round) and is drawn
after them goes on with deciders: single games, sides alternating (side A on team 0 first),
each on its own deal, until one has a winner, at most MAX_DECIDERS; past the cap the higher
seed (side A) goes through.

Who won: more games won, then more points; with deciders, the last decided one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .seeds import decider_game_seed, game_seed

# Extra games for a drawn elimination match; a Truco game always has a winner, so the first
# decider settles it in practice. Past the cap the higher seed (side A) goes through.
MAX_DECIDERS = 9


@dataclass(frozen=True)
class PlannedGame:
    index: int  # game number in the match
    pair: int | None  # the duplicate pair it belongs to
    a_team: int  # the team side A plays
    seed: int  # its deal seed
    decider: int | None = None  # which extra game settling a drawn match, from 0


class PlayedGame(Protocol):
    """What the plan reads of a finished game (engine.match.MatchGame has it)."""

    @property
    def winner_side(self) -> str | None: ...

    @property
    def points(self) -> tuple[int, int]: ...


def planned_game(games: int, pairs: int, seed: int, index: int) -> PlannedGame:
    """Game `index` of the plan (no deciders): single games first, then the pairs' two games."""
    if not 0 <= index < games + 2 * pairs:
        raise IndexError(f"the plan has {games + 2 * pairs} games, not a game {index}")
    if index < games:
        return PlannedGame(index, None, index % 2, game_seed(seed, index))
    pair, a_team = divmod(index - games, 2)
    return PlannedGame(index, pair, a_team, game_seed(seed, games + pair))


def schedule(games: int, pairs: int, seed: int) -> list[PlannedGame]:
    """Every planned game of a match, in order (no deciders)."""
    return [planned_game(games, pairs, seed, i) for i in range(games + 2 * pairs)]


def winner_of(games: Sequence[PlayedGame]) -> str | None:
    """ "a", "b", or None for a draw: more games won, then more points."""
    wins = {"a": 0, "b": 0, None: 0}
    points = [0, 0]
    for g in games:
        wins[g.winner_side] += 1
        a, b = g.points
        points[0] += a
        points[1] += b
    if wins["a"] != wins["b"]:
        return "a" if wins["a"] > wins["b"] else "b"
    if points[0] != points[1]:
        return "a" if points[0] > points[1] else "b"
    return None


class MatchPlan:
    """The games of one match, and its winner, from the games finished so far."""

    def __init__(self, *, games: int, pairs: int, seed: int, needs_winner: bool = False):
        self.games, self.pairs = games, pairs
        self.seed = seed
        self.needs_winner = needs_winner
        self.planned = games + 2 * pairs  # games before any decider

    @classmethod
    def of(cls, spec: Any, needs_winner: bool = False) -> MatchPlan:
        """The plan of an engine.match.MatchSpec."""
        return cls(games=spec.games, pairs=spec.pairs, seed=spec.seed, needs_winner=needs_winner)

    @property
    def scheduled(self) -> list[PlannedGame]:
        """The planned games (no deciders), in order."""
        return schedule(self.games, self.pairs, self.seed)

    def deciders(self, finished: Sequence[PlayedGame]) -> int:
        return max(0, len(finished) - self.planned)

    def is_over(self, finished: Sequence[PlayedGame]) -> bool:
        """Whether no game follows `finished` (as `next_game(finished) is None`, cheaper)."""
        n = len(finished)
        if n < self.planned:
            return False
        if not self.needs_winner or n - self.planned >= MAX_DECIDERS:
            return True
        return self.winner(finished) is not None

    def next_game(self, finished: Sequence[PlayedGame]) -> PlannedGame | None:
        """The game to play after `finished`, or None once the match is decided."""
        n = len(finished)
        if n < self.planned:
            return planned_game(self.games, self.pairs, self.seed, n)
        if not self.needs_winner or self.winner(finished) is not None:
            return None
        number = n - self.planned
        if number >= MAX_DECIDERS:
            return None
        # Each decider on its own deal, sides alternating, side A on team 0 first.
        return PlannedGame(n, None, number % 2, decider_game_seed(self.seed, number), number)

    def winner(self, finished: Sequence[PlayedGame]) -> str | None:
        """ "a", "b", or None (a draw, or deciders still to play)."""
        deciders = finished[self.planned :]
        if deciders:
            decided = [g.winner_side for g in deciders if g.winner_side is not None]
            if decided:
                return decided[-1]
            return "a" if len(deciders) >= MAX_DECIDERS else None
        return winner_of(finished)
