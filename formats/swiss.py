"""Swiss: a set number of rounds, each paired from the standings so far, never a rematch.

Players are ranked by match points, then seed (the order given); round 1 is therefore top half
against bottom half by seed. Keys: "R{round}-{table}", the bye being the last table.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .base import Format, OptionSpec
from .core import (
    Entrant,
    FormatError,
    MatchResult,
    Pairing,
    Ranking,
    check_entrant_count,
    check_entrants,
    check_result_fits,
)
from .standings import ranking_from_rows
from .swiss_pairing import Pair, pair_players


def _is_round_count(value: Any) -> bool:
    return value is None or (type(value) is int and value >= 1)


class Swiss(Format):
    name = "swiss"
    title = "Swiss"
    round_by_round = True
    default_metrics = ("match_points", "buchholz", "sonneborn_berger", "game_diff")
    option_specs = {
        "rounds": OptionSpec(
            None, _is_round_count, "a positive integer, or null for ceil(log2(n))"
        ),
    }

    def next_round(
        self,
        entrants: Sequence[Entrant],
        results: Iterable[MatchResult],
        options: Mapping[str, Any] | None = None,
    ) -> list[Pairing] | None:
        """Pairs the next round once the current one is complete. While it is not, the current
        round is paired again from the earlier rounds (same inputs, same pairings) and its
        unplayed matches are returned."""
        entrants = check_entrants(entrants)
        rounds = self.total_rounds(len(entrants), options)
        by_round: dict[int, list[MatchResult]] = defaultdict(list)
        for result in results:
            if not 1 <= result.round <= rounds:
                raise FormatError(f"result {result.key!r} is for round {result.round} of {rounds}")
            by_round[result.round].append(result)
        latest = max(by_round, default=0)
        for number in range(1, latest):
            if not _is_complete(by_round[number], entrants):
                raise FormatError(f"round {number} is incomplete but round {latest} has results")

        if latest and not _is_complete(by_round[latest], entrants):
            earlier = [r for number in range(1, latest) for r in by_round[number]]
            pairings = pair_round(entrants, earlier, latest)
            return _unplayed(pairings, by_round[latest])
        if latest == rounds:
            return None
        return pair_round(entrants, [r for rs in by_round.values() for r in rs], latest + 1)

    def expected_matches(self, n_entrants: int, options: Mapping[str, Any] | None = None) -> int:
        if n_entrants < 2:
            return 0
        return self.total_rounds(n_entrants, options) * (n_entrants // 2)

    def total_rounds(self, n_entrants: int, options: Mapping[str, Any] | None = None) -> int:
        resolved = self.resolve_options(options)
        check_entrant_count(n_entrants)
        if resolved["rounds"] is None:
            return max(1, math.ceil(math.log2(n_entrants)))
        # Beyond this everyone has met everyone (odd fields also need one bye each).
        most = n_entrants if n_entrants % 2 else n_entrants - 1
        if resolved["rounds"] > most:
            raise FormatError(
                f"{n_entrants} entrants can play at most {most} Swiss rounds without a rematch, "
                f"not {resolved['rounds']}"
            )
        return resolved["rounds"]

    def final_ranking(
        self,
        entrants: Sequence[Entrant],
        results: Iterable[MatchResult],
        options: Mapping[str, Any] | None = None,
    ) -> Ranking:
        return ranking_from_rows(self.standings(entrants, results, options))


def pair_round(entrants: list[Entrant], results: list[MatchResult], number: int) -> list[Pairing]:
    """Round `number` paired from `results` (all earlier rounds)."""
    seed_of = {entrant: index for index, entrant in enumerate(entrants)}
    score: dict[Entrant, float] = dict.fromkeys(entrants, 0.0)
    opponents: dict[Entrant, set[Entrant]] = {entrant: set() for entrant in entrants}
    byes: Counter[Entrant] = Counter()
    first_seats: Counter[Entrant] = Counter()
    for result in results:
        for entrant in (result.a, result.b):
            if entrant is not None and entrant not in seed_of:
                raise FormatError(f"result {result.key!r} names {entrant!r}, who is not an entrant")
        score[result.a] += result.match_points_of(result.a)
        if result.is_bye:
            byes[result.a] += 1
            continue
        score[result.b] += result.match_points_of(result.b)
        opponents[result.a].add(result.b)
        opponents[result.b].add(result.a)
        first_seats[result.a] += 1

    ranked = sorted(entrants, key=lambda e: (-score[e], seed_of[e]))
    pairs, bye = pair_players(ranked, score, opponents, byes)
    pairings = [
        Pairing(f"R{number}-{table}", number, *_seat(pair, table, first_seats))
        for table, pair in enumerate(pairs, start=1)
    ]
    if bye is not None:
        pairings.append(Pairing(f"R{number}-{len(pairs) + 1}", number, bye, None))
    return pairings


def _seat(pair: Pair, table: int, first_seats: Counter[Entrant]) -> Pair:
    """Whoever had the first seat less often gets it; on a tie the higher-ranked player gets it
    on odd tables, the lower-ranked on even ones, so the top of the field alternates too."""
    higher, lower = pair
    if first_seats[higher] != first_seats[lower]:
        return pair if first_seats[higher] < first_seats[lower] else (lower, higher)
    return pair if table % 2 else (lower, higher)


def _is_complete(round_results: list[MatchResult], entrants: list[Entrant]) -> bool:
    seated = Counter(e for r in round_results for e in (r.a, r.b) if e is not None)
    return len(seated) == len(entrants) and all(seated[e] == 1 for e in entrants)


def _unplayed(pairings: list[Pairing], round_results: list[MatchResult]) -> list[Pairing]:
    by_key = {p.key: p for p in pairings}
    for result in round_results:
        if result.key not in by_key:
            raise FormatError(f"result {result.key!r} is not a pairing of round {result.round}")
        check_result_fits(by_key[result.key], result, draws_allowed=True)
    played = {r.key for r in round_results}
    return [p for p in pairings if p.key not in played]
