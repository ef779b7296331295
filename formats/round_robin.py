"""Round robin by the circle method: every pair meets once per cycle; option `double` adds a
second cycle with the seats swapped. With an odd count one entrant per round has a bye.

Keys: "R{round}-{table}"; the bye, if any, is the last table of its round.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .base import Format, OptionSpec, is_bool
from .core import (
    Entrant,
    FormatError,
    MatchResult,
    Pairing,
    Ranking,
    check_entrant_count,
    check_entrants,
    check_result_fits,
    results_by_key,
)
from .standings import ranking_from_rows


class RoundRobin(Format):
    name = "round-robin"
    title = "round robin"
    round_by_round = True
    fixed_schedule = True
    default_metrics = ("match_points", "head_to_head", "game_diff", "point_diff")
    option_specs = {
        "double": OptionSpec(False, is_bool, "true or false"),
    }

    def next_round(
        self,
        entrants: Sequence[Entrant],
        results: Iterable[MatchResult],
        options: Mapping[str, Any] | None = None,
    ) -> list[Pairing] | None:
        """The unplayed matches of the earliest round that has any, or None when all are played."""
        return next(iter(self._unplayed_rounds(entrants, results, options)), None)

    def all_rounds(
        self,
        entrants: Sequence[Entrant],
        results: Iterable[MatchResult],
        options: Mapping[str, Any] | None = None,
    ) -> list[Pairing] | None:
        """The unplayed matches of every round, or None when all are played."""
        rounds = self._unplayed_rounds(entrants, results, options)
        return [p for pairings in rounds for p in pairings] or None

    def _unplayed_rounds(self, entrants, results, options) -> list[list[Pairing]]:
        """The unplayed matches of each round that has any, in round order."""
        resolved = self.resolve_options(options)
        played = results_by_key(results)
        schedule = build_schedule(check_entrants(entrants), double=resolved["double"])
        _check_results_fit(schedule, played)
        rounds = ([p for p in pairings if p.key not in played] for pairings in schedule)
        return [unplayed for unplayed in rounds if unplayed]

    def expected_matches(self, n_entrants: int, options: Mapping[str, Any] | None = None) -> int:
        cycles = 2 if self.resolve_options(options)["double"] else 1
        return n_entrants * (n_entrants - 1) // 2 * cycles

    def total_rounds(self, n_entrants: int, options: Mapping[str, Any] | None = None) -> int:
        resolved = self.resolve_options(options)
        check_entrant_count(n_entrants)
        rounds_per_cycle = n_entrants - 1 if n_entrants % 2 == 0 else n_entrants
        return rounds_per_cycle * (2 if resolved["double"] else 1)

    def final_ranking(
        self,
        entrants: Sequence[Entrant],
        results: Iterable[MatchResult],
        options: Mapping[str, Any] | None = None,
    ) -> Ranking:
        return ranking_from_rows(self.standings(entrants, results, options))


def build_schedule(entrants: list[Entrant], *, double: bool) -> list[list[Pairing]]:
    """Rounds of pairings. The first entrant stays put while the others rotate one place per
    round; swapping only the fixed entrant's seat every other round keeps every entrant's home
    and away counts within one of each other."""
    line: list[Entrant | None] = list(entrants) + ([None] if len(entrants) % 2 else [])
    size = len(line)
    cycle: list[list[tuple[Entrant | None, Entrant | None]]] = []
    for r in range(size - 1):
        rotating = line[1:]
        current = [line[0], *rotating[-r:], *rotating[:-r]] if r else line
        pairs = [(current[i], current[size - 1 - i]) for i in range(size // 2)]
        if r % 2:
            pairs[0] = (pairs[0][1], pairs[0][0])
        cycle.append(pairs)
    if double:
        cycle += [[(b, a) for a, b in pairs] for pairs in cycle]
    return [_round_pairings(number, pairs) for number, pairs in enumerate(cycle, start=1)]


def _round_pairings(
    number: int, pairs: list[tuple[Entrant | None, Entrant | None]]
) -> list[Pairing]:
    matches = [(a, b) for a, b in pairs if a is not None and b is not None]
    byes = [(a if b is None else b, None) for a, b in pairs if a is None or b is None]
    return [
        Pairing(f"R{number}-{table}", number, a, b)
        for table, (a, b) in enumerate(matches + byes, start=1)
    ]


def _check_results_fit(schedule: list[list[Pairing]], played: dict[str, MatchResult]) -> None:
    by_key = {p.key: p for round_pairings in schedule for p in round_pairings}
    for key, result in played.items():
        if key not in by_key:
            raise FormatError(f"result {key!r} is not a match of this round robin")
        check_result_fits(by_key[key], result, draws_allowed=True)
