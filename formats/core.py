"""The plain data every format speaks: entrants, pairings, results, and checks on them."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeAlias

Entrant: TypeAlias = Hashable
Ranking: TypeAlias = list[list[Entrant]]


class FormatError(ValueError):
    """Bad entrants, options or results for a format; the message says what would be valid."""


@dataclass(frozen=True)
class Pairing:
    """A match to play. `a` takes the first (home) seat; `b is None` is a bye for `a`."""

    key: str
    round: int
    a: Entrant
    b: Entrant | None

    @property
    def is_bye(self) -> bool:
        return self.b is None


@dataclass(frozen=True)
class MatchResult:
    """A played match (or a recorded bye: `b is None`, `winner == a`); `winner is None` is a draw."""

    key: str
    round: int
    a: Entrant
    b: Entrant | None
    winner: Entrant | None
    games_a: int = 0
    games_b: int = 0
    points_a: int = 0
    points_b: int = 0

    @property
    def is_bye(self) -> bool:
        return self.b is None

    @property
    def loser(self) -> Entrant | None:
        if self.winner is None or self.is_bye:
            return None
        return self.b if self.winner == self.a else self.a

    def match_points_of(self, entrant: Entrant) -> float:
        """Win 1 (a bye is a win), draw 0.5, loss 0."""
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner == entrant else 0.0


def check_entrant_count(n_entrants: int) -> None:
    if n_entrants < 2:
        raise FormatError(f"a tournament needs at least 2 entrants, got {n_entrants}")


def check_entrants(entrants: Sequence[Entrant]) -> list[Entrant]:
    entrants = list(entrants)
    check_entrant_count(len(entrants))
    if len(set(entrants)) != len(entrants):
        raise FormatError("entrants must be distinct")
    if None in entrants:
        raise FormatError("None cannot be an entrant: it marks a bye")
    return entrants


def results_by_key(results: Iterable[MatchResult]) -> dict[str, MatchResult]:
    by_key: dict[str, MatchResult] = {}
    for result in results:
        if result.key in by_key:
            raise FormatError(f"two results share the key {result.key!r}")
        by_key[result.key] = result
    return by_key


def check_result_fits(pairing: Pairing, result: MatchResult, *, draws_allowed: bool) -> None:
    """A result must name the pairing's round and participants (in either seat) and one of them
    as winner."""
    if result.round != pairing.round:
        raise FormatError(
            f"result {result.key!r} says round {result.round}, the pairing {pairing.round}"
        )
    if {result.a, result.b} != {pairing.a, pairing.b}:
        raise FormatError(
            f"result {result.key!r} is between {result.a!r} and {result.b!r}, "
            f"but the pairing is {pairing.a!r} vs {pairing.b!r}"
        )
    if pairing.is_bye:
        if result.winner != pairing.a:
            raise FormatError(f"bye {result.key!r} must be recorded as a win for {pairing.a!r}")
    elif result.winner is None:
        if not draws_allowed:
            raise FormatError(f"match {result.key!r} needs a winner: elimination has no draws")
    elif result.winner not in (pairing.a, pairing.b):
        raise FormatError(f"winner {result.winner!r} of {result.key!r} did not play in it")
