"""Double elimination: winners' bracket, losers' bracket, grand final, optional bracket reset.

Keys: "W{round}-{i}", "L{round}-{i}", "GF" and "GF2" (the reset). With a bracket of 2^k lines the
losers' bracket has 2(k-1) rounds: odd rounds pair its own survivors, even rounds bring in the
losers of winners' round 2, 3, ... k (the last one is the winners' final loser).

Drop order: losers of winners' round 1 meet in line order; from winners' round 2 on, adjacent
drop-ins swap places (losers' match i takes the loser of winners' match i^1). Under this order
no drop-in's first losers' match can be a rematch at any bracket size, except the last drop (the
winners' final loser meets the only survivor left); plain reversal, for example, cannot promise
that from 16 lines on. For 8 lines it is the usual natural/reversed/natural layout.

Scheduling rounds (Pairing.round) are depths in the bracket: W r is round r, L j is round j+1,
GF is round 2k and GF2 round 2k+1.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .base import OptionSpec, is_bool
from .bracket import (
    EMPTY,
    BracketMatch,
    Feed,
    MatchState,
    Status,
    bracket_size,
    group_places,
    loser_of,
    winner_of,
    winners_bracket,
)
from .core import (
    Entrant,
    MatchResult,
    Ranking,
    check_entrant_count,
)
from .elimination import EliminationFormat

GRAND_FINAL_KEY = "GF"
RESET_KEY = "GF2"


class DoubleElimination(EliminationFormat):
    name = "double-elimination"
    title = "double elimination"
    default_metrics = ("placement", "game_diff", "point_diff")
    option_specs = {
        "grand_final_reset": OptionSpec(True, is_bool, "true or false"),
    }

    def expected_matches(self, n_entrants: int, options: Mapping[str, Any] | None = None) -> int:
        """The grand final's reset is counted only once played: 2n - 2 matches at least."""
        self.resolve_options(options)
        return max(0, 2 * n_entrants - 2)

    def total_rounds(self, n_entrants: int, options: Mapping[str, Any] | None = None) -> int:
        """Counts the reset round when the option is on, though it is played only if needed."""
        resolved = self.resolve_options(options)
        check_entrant_count(n_entrants)
        k = (bracket_size(n_entrants) - 1).bit_length()
        return 2 * k + resolved["grand_final_reset"]

    def final_ranking(
        self,
        entrants: Sequence[Entrant],
        results: Iterable[MatchResult],
        options: Mapping[str, Any] | None = None,
    ) -> Ranking:
        """Champion, then the others by how late they were knocked out: the grand-final loser,
        then each losers' round's losers sharing a place."""
        states = self._states(entrants, results, options)
        still_in = max(s.match.round for s in states.values()) + 1
        knocked_out_in = {entrant: still_in for entrant in entrants}
        for state in states.values():
            if (
                state.status is Status.DONE
                and state.loser is not EMPTY
                and _loser_is_out(state, states)
            ):
                knocked_out_in[state.loser] = state.match.round
        return group_places(entrants, knocked_out_in)

    def bracket(self, n_entrants: int, resolved: Mapping[str, Any]) -> list[BracketMatch]:
        return bracket_matches(n_entrants, reset=resolved["grand_final_reset"])


def _loser_is_out(state: MatchState, states: dict[str, MatchState]) -> bool:
    """Losers' bracket losers are out; a grand-final loser is out unless a reset follows."""
    key = state.match.key
    if key.startswith("L") or key == RESET_KEY:
        return True
    if key == GRAND_FINAL_KEY:
        reset = states.get(RESET_KEY)
        return reset is None or reset.status is Status.VOID
    return False


def drop_order(n_matches: int) -> list[int]:
    """For each losers' match of a drop-in round, the winners' match whose loser drops into it."""
    if n_matches == 1:
        return [0]
    return [i ^ 1 for i in range(n_matches)]


def bracket_matches(n_entrants: int, *, reset: bool) -> list[BracketMatch]:
    size = bracket_size(n_entrants)
    k = (size - 1).bit_length()
    winners = winners_bracket(size)
    winners_round = {r: [m for m in winners if m.round == r] for r in range(1, k + 1)}
    losers: list[BracketMatch] = []

    def losers_round(j: int, feeds: list[tuple[Feed, Feed]]) -> list[BracketMatch]:
        matches = [
            BracketMatch(f"L{j}-{i + 1}", j + 1, home, away) for i, (home, away) in enumerate(feeds)
        ]
        losers.extend(matches)
        return matches

    if k == 1:
        # Two entrants: the loser of the only match gets a second chance in the grand final.
        last_survivor = loser_of(winners[0].key)
    else:
        survivors = losers_round(1, _adjacent_pairs(winners_round[1], loser_of))
        for r in range(2, k + 1):
            dropping = winners_round[r]
            order = drop_order(len(dropping))
            survivors = losers_round(
                2 * r - 2,
                [
                    (winner_of(s.key), loser_of(dropping[order[i]].key))
                    for i, s in enumerate(survivors)
                ],
            )
            if r < k:
                survivors = losers_round(2 * r - 1, _adjacent_pairs(survivors, winner_of))
        last_survivor = winner_of(survivors[0].key)

    finals = [BracketMatch(GRAND_FINAL_KEY, 2 * k, winner_of(winners[-1].key), last_survivor)]
    if reset:
        finals.append(
            BracketMatch(
                RESET_KEY,
                2 * k + 1,
                loser_of(GRAND_FINAL_KEY),
                winner_of(GRAND_FINAL_KEY),
                reset_of=GRAND_FINAL_KEY,
            )
        )
    # Stable sort by round: every match comes after the matches feeding it.
    return sorted(winners + losers + finals, key=lambda m: m.round)


def _adjacent_pairs(
    matches: list[BracketMatch], take: Callable[[str], Feed]
) -> list[tuple[Feed, Feed]]:
    """Matches 1 and 2, 3 and 4, ... each feeding one seat of a next-round match."""
    return [(take(matches[i].key), take(matches[i + 1].key)) for i in range(0, len(matches), 2)]
