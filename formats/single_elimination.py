"""Single elimination: a standard seeded bracket, byes to the top seeds, optional 3rd-place match.

Keys: "W{round}-{i}" (the final is the last W round, "W{k}-1") and "3P".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .base import OptionSpec, is_bool
from .bracket import (
    EMPTY,
    BracketMatch,
    Status,
    bracket_size,
    group_places,
    loser_of,
    winners_bracket,
)
from .core import (
    Entrant,
    MatchResult,
    Ranking,
    check_entrant_count,
)
from .elimination import EliminationFormat

THIRD_PLACE_KEY = "3P"


class SingleElimination(EliminationFormat):
    name = "single-elimination"
    title = "single elimination"
    default_metrics = ("placement", "game_diff", "point_diff")
    option_specs = {
        "third_place": OptionSpec(False, is_bool, "true or false"),
    }

    def expected_matches(self, n_entrants: int, options: Mapping[str, Any] | None = None) -> int:
        third_place = self.resolve_options(options)["third_place"]
        return max(0, n_entrants - 1) + int(third_place and n_entrants >= 4)

    def total_rounds(self, n_entrants: int, options: Mapping[str, Any] | None = None) -> int:
        self.resolve_options(options)
        check_entrant_count(n_entrants)
        return (bracket_size(n_entrants) - 1).bit_length()

    def final_ranking(
        self,
        entrants: Sequence[Entrant],
        results: Iterable[MatchResult],
        options: Mapping[str, Any] | None = None,
    ) -> Ranking:
        """Champion, runner-up, then losers grouped by the round they fell in; the 3rd-place
        match, once played, splits the semi-final losers."""
        states = self._states(entrants, results, options)
        final_round = max(s.match.round for s in states.values())
        # Sort key: the round an entrant was knocked out in (final_round + 1 = never), then
        # 1 for winning the 3rd-place match.
        standing = {entrant: (final_round + 1, 0) for entrant in entrants}
        for state in states.values():
            if state.status is not Status.DONE or state.match.key == THIRD_PLACE_KEY:
                continue
            if state.loser is not EMPTY:
                standing[state.loser] = (state.match.round, 0)
        third_place = states.get(THIRD_PLACE_KEY)
        if third_place is not None and third_place.status is Status.DONE:
            standing[third_place.winner] = (final_round - 1, 1)
        return group_places(entrants, standing)

    def bracket(self, n_entrants: int, resolved: Mapping[str, Any]) -> list[BracketMatch]:
        return bracket_matches(n_entrants, third_place=resolved["third_place"])


def bracket_matches(n_entrants: int, *, third_place: bool) -> list[BracketMatch]:
    matches = winners_bracket(bracket_size(n_entrants))
    # With 3 entrants one semi-final is a bye, so there is only one semi-final loser.
    if third_place and n_entrants >= 4:
        semi_a, semi_b, final = matches[-3:]
        matches.append(
            BracketMatch(THIRD_PLACE_KEY, final.round, loser_of(semi_a.key), loser_of(semi_b.key))
        )
    return matches
