"""Elimination brackets as a fixed graph of matches whose seats are fed by seeds or by the winner
or loser of earlier matches; results are replayed through the graph to see who plays where.

A seat can be EMPTY for good (a seed that does not exist, or the loser of a bye) or UNDECIDED
(its feeding match is not played yet). A match with one EMPTY seat is a bye, with two it is void.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Literal, TypeAlias

from .core import Entrant, FormatError, MatchResult, Pairing, Ranking, check_result_fits


class Missing(Enum):
    EMPTY = "empty"
    UNDECIDED = "undecided"


EMPTY = Missing.EMPTY
UNDECIDED = Missing.UNDECIDED
Seat: TypeAlias = Entrant | Missing


@dataclass(frozen=True)
class Feed:
    """Where a seat's occupant comes from: seed index `ref`, or the winner/loser of match `ref`."""

    kind: Literal["seed", "winner", "loser"]
    ref: int | str


def seed(index: int) -> Feed:
    return Feed("seed", index)


def winner_of(key: str) -> Feed:
    return Feed("winner", key)


def loser_of(key: str) -> Feed:
    return Feed("loser", key)


@dataclass(frozen=True)
class BracketMatch:
    key: str
    round: int
    home: Feed
    away: Feed
    # A bracket reset (double elimination's GF2) is played only if the away seat won `reset_of`.
    reset_of: str | None = None


class Status(Enum):
    VOID = "void"  # nobody to play: both seats EMPTY, or a reset that is not needed
    WAITING = "waiting"  # a seat is UNDECIDED
    READY = "ready"
    DONE = "done"


@dataclass(frozen=True)
class MatchState:
    match: BracketMatch
    status: Status
    home: Seat
    away: Seat
    winner: Seat
    loser: Seat

    def pairing(self) -> Pairing:
        """The pairing of a READY or DONE match; a bye seats its only entrant as `a`."""
        a, b = (self.home, self.away) if self.home is not EMPTY else (self.away, self.home)
        return Pairing(self.match.key, self.match.round, a, None if b is EMPTY else b)


def bracket_size(n_entrants: int) -> int:
    """The smallest power of two that holds every entrant."""
    return 1 << (n_entrants - 1).bit_length()


def seed_order(size: int) -> list[int]:
    """0-based seeds in bracket-line order, e.g. size 8: [0, 7, 3, 4, 1, 6, 2, 5].

    Built by doubling: every seed s is followed by its first-round opponent (size-1-s), which
    keeps seeds 1 and 2 in different halves, 1-4 in different quarters, and so on.
    """
    order = [0]
    while len(order) < size:
        mirror = 2 * len(order) - 1
        order = [s for top in order for s in (top, mirror - top)]
    return order


def winners_bracket(size: int) -> list[BracketMatch]:
    """Round 1 from the standard seed order, then winners meet pairwise; keys "W{round}-{i}"."""
    order = seed_order(size)
    matches = [
        BracketMatch(f"W1-{i + 1}", 1, seed(order[2 * i]), seed(order[2 * i + 1]))
        for i in range(size // 2)
    ]
    round_no, previous = 1, matches
    while len(previous) > 1:
        round_no += 1
        current = [
            BracketMatch(
                f"W{round_no}-{i + 1}",
                round_no,
                winner_of(previous[2 * i].key),
                winner_of(previous[2 * i + 1].key),
            )
            for i in range(len(previous) // 2)
        ]
        matches += current
        previous = current
    return matches


def resolve(
    matches: Sequence[BracketMatch],
    entrants: Sequence[Entrant],
    results: dict[str, MatchResult],
) -> dict[str, MatchState]:
    """Replay `results` through the bracket (matches in dependency order). Raises FormatError for
    results that do not belong: unknown keys, void or undecided matches, wrong participants."""
    known = {m.key for m in matches}
    strangers = sorted(set(results) - known)
    if strangers:
        raise FormatError(f"results for matches that are not in this bracket: {strangers}")

    states: dict[str, MatchState] = {}

    def occupant(feed: Feed) -> Seat:
        if feed.kind == "seed":
            return entrants[feed.ref] if feed.ref < len(entrants) else EMPTY
        state = states[feed.ref]
        return state.winner if feed.kind == "winner" else state.loser

    for match in matches:
        home, away = occupant(match.home), occupant(match.away)
        if match.reset_of is not None:
            decider = states[match.reset_of]
            if decider.status is not Status.DONE:
                home = away = UNDECIDED
            elif decider.winner == decider.home:
                home = away = EMPTY
        states[match.key] = _play(match, home, away, results.get(match.key))
    return states


def _play(match: BracketMatch, home: Seat, away: Seat, result: MatchResult | None) -> MatchState:
    seats = (home, away)
    if UNDECIDED in seats:
        status = Status.WAITING
    elif home is EMPTY and away is EMPTY:
        status = Status.VOID
    else:
        status = Status.READY
    winner = EMPTY if status is Status.VOID else UNDECIDED
    # A match with an empty seat has no loser, even before the other seat is known.
    loser = EMPTY if EMPTY in seats else UNDECIDED

    state = MatchState(match, status, home, away, winner, loser)
    if result is None:
        return state
    if status is not Status.READY:
        raise FormatError(f"result {match.key!r} was recorded for a match that is {status.value}")
    check_result_fits(state.pairing(), result, draws_allowed=False)
    winner = result.winner
    loser = EMPTY if result.is_bye else result.loser
    return MatchState(match, Status.DONE, home, away, winner, loser)


def ready_pairings(states: dict[str, MatchState]) -> list[Pairing] | None:
    """Every READY match in bracket order, or None once nothing is READY or WAITING."""
    if all(s.status in (Status.DONE, Status.VOID) for s in states.values()):
        return None
    return [s.pairing() for s in states.values() if s.status is Status.READY]


def group_places(entrants: Sequence[Entrant], standing: dict[Entrant, Any]) -> Ranking:
    """Best standing first; equal standing shares a place, in seed order within it."""
    ranking: Ranking = []
    previous = None
    for entrant in sorted(entrants, key=lambda e: standing[e], reverse=True):
        if standing[entrant] != previous:
            ranking.append([])
            previous = standing[entrant]
        ranking[-1].append(entrant)
    return ranking
