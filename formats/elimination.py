"""What single and double elimination share: a fixed bracket of matches, replayed from the
results to see which matches are ready."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .base import Format
from .bracket import BracketMatch, MatchState, ready_pairings, resolve
from .core import Entrant, MatchResult, Pairing, check_entrants, results_by_key


class EliminationFormat(Format):
    needs_winner = True
    has_bracket = True

    @abstractmethod
    def bracket(self, n_entrants: int, resolved: Mapping[str, Any]) -> list[BracketMatch]:
        """Every match of the bracket for this many entrants and these options."""

    def bracket_layout(
        self, n_entrants: int, options: Mapping[str, Any] | None = None
    ) -> list[BracketMatch]:
        return self.bracket(n_entrants, self.resolve_options(options))

    def next_round(
        self,
        entrants: Sequence[Entrant],
        results: Iterable[MatchResult],
        options: Mapping[str, Any] | None = None,
    ) -> list[Pairing] | None:
        return ready_pairings(self._states(entrants, results, options))

    def _states(
        self,
        entrants: Sequence[Entrant],
        results: Iterable[MatchResult],
        options: Mapping[str, Any] | None,
    ) -> dict[str, MatchState]:
        resolved = self.resolve_options(options)
        entrants = check_entrants(entrants)
        return resolve(self.bracket(len(entrants), resolved), entrants, results_by_key(results))
