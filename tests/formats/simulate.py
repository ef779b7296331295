"""Plays a tournament to the end through the public Format interface, the way the Django layer
will: ask for the next round, record every result (byes as walkovers), ask again."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from formats import Entrant, Format, MatchResult, Pairing

Decide = Callable[[Pairing], Entrant | None]  # the winner, or None for a draw


def result(
    pairing: Pairing, winner: Entrant | None, games: tuple[int, int] = (2, 1)
) -> MatchResult:
    """A result for `pairing`: the winner takes games[0] games and 10x that in points."""
    if pairing.is_bye:
        return MatchResult(pairing.key, pairing.round, pairing.a, None, pairing.a)
    if winner is None:
        ga = gb = games[1]
    elif winner == pairing.a:
        ga, gb = games
    else:
        gb, ga = games
    return MatchResult(
        pairing.key, pairing.round, pairing.a, pairing.b, winner, ga, gb, 10 * ga, 10 * gb
    )


def play(
    fmt: Format,
    entrants: Sequence[Entrant],
    decide: Decide,
    options: dict[str, Any] | None = None,
    max_calls: int = 1000,
) -> list[MatchResult]:
    """All results, in the order they were recorded, once next_round says the event is over."""
    results: list[MatchResult] = []
    for _ in range(max_calls):
        pairings = fmt.next_round(entrants, results, options)
        if pairings is None:
            return results
        assert pairings, "next_round returned [] right after every handed-out match was played"
        results += record(pairings, decide)
    raise AssertionError(f"still not finished after {max_calls} calls to next_round")


def record(pairings: Sequence[Pairing], decide: Decide) -> list[MatchResult]:
    """Results for `pairings`, byes recorded as walkovers without asking `decide`."""
    return [result(p, p.a if p.is_bye else decide(p)) for p in pairings]


def rounds_of(results: Sequence[MatchResult]) -> dict[int, list[MatchResult]]:
    by_round: dict[int, list[MatchResult]] = {}
    for r in results:
        by_round.setdefault(r.round, []).append(r)
    return by_round


def better_seed_wins(entrants: Sequence[Entrant]) -> Decide:
    seed = {e: i for i, e in enumerate(entrants)}
    return lambda p: min(p.a, p.b, key=seed.__getitem__)


def worse_seed_wins(entrants: Sequence[Entrant]) -> Decide:
    seed = {e: i for i, e in enumerate(entrants)}
    return lambda p: max(p.a, p.b, key=seed.__getitem__)


def coin_flips(seed: int, draws: bool = False) -> Decide:
    rng = random.Random(seed)

    def decide(p: Pairing) -> Entrant | None:
        options = [p.a, p.b, None] if draws else [p.a, p.b]
        return rng.choice(options)

    return decide
