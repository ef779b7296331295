"""The Format interface and its options.

Formats are pure functions of (seeded entrants, all results so far, options): they keep no state,
so the Django layer can store only results and ask again at any time.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .core import Entrant, FormatError, MatchResult, Pairing, Ranking
from .standings import StandingRow, standings, validate_metrics


@dataclass(frozen=True)
class OptionSpec:
    default: Any
    is_valid: Callable[[Any], bool]
    expected: str  # how an error message describes a valid value


def is_bool(value: Any) -> bool:
    return isinstance(value, bool)


class Format(ABC):
    """One tournament format. Subclasses declare `name`, `title`, `default_metrics` and
    `option_specs`, and what scheduling needs of them (so that nothing elsewhere tests a format's
    name): `needs_winner`, `round_by_round`, `expected_matches`, `bracket_layout`."""

    name: str
    title: str
    default_metrics: tuple[str, ...]
    option_specs: Mapping[str, OptionSpec]
    # A drawn match of this format is settled by extra games (elimination has no draws).
    needs_winner: bool = False
    # It pairs a round only once the previous one is complete: while any match is unfinished
    # there is nothing to schedule, which spares a re-pairing per finished match.
    round_by_round: bool = False
    # Its matches form a fixed bracket (`bracket_layout`), drawn as one on the pages.
    has_bracket: bool = False
    # Its pairings never depend on results (a round robin): when no entrant is a person, every
    # round may be played at once (`all_rounds`), with no wait between rounds.
    fixed_schedule: bool = False

    @abstractmethod
    def expected_matches(self, n_entrants: int, options: Mapping[str, Any] | None = None) -> int:
        """How many matches with games (byes excluded) the tournament will have, for progress:
        at least this many (a match played only when needed, such as a grand final's reset,
        is not counted)."""

    def bracket_layout(
        self, n_entrants: int, options: Mapping[str, Any] | None = None
    ) -> list | None:
        """The fixed bracket of matches (formats.bracket.BracketMatch) for display, or None for
        a format whose matches are paired round by round from the standings."""
        return None

    @abstractmethod
    def next_round(
        self,
        entrants: Sequence[Entrant],
        results: Iterable[MatchResult],
        options: Mapping[str, Any] | None = None,
    ) -> list[Pairing] | None:
        """Every match that is ready and has no result yet (also ones handed out earlier and not
        yet reported: keys are stable, so the caller can de-duplicate), or None when complete."""

    def all_rounds(
        self,
        entrants: Sequence[Entrant],
        results: Iterable[MatchResult],
        options: Mapping[str, Any] | None = None,
    ) -> list[Pairing] | None:
        """For a format with a `fixed_schedule`: the matches of every round with no result yet,
        or None when complete. Others pair round by round."""
        return self.next_round(entrants, results, options)

    @abstractmethod
    def total_rounds(self, n_entrants: int, options: Mapping[str, Any] | None = None) -> int | None:
        """How many rounds the tournament lasts at most, for progress display."""

    @abstractmethod
    def final_ranking(
        self,
        entrants: Sequence[Entrant],
        results: Iterable[MatchResult],
        options: Mapping[str, Any] | None = None,
    ) -> Ranking:
        """Places best first; entrants sharing a place share an inner list. Works mid-tournament
        too: elimination formats then group everyone still in contention at the top."""

    def standings(
        self,
        entrants: Sequence[Entrant],
        results: Iterable[MatchResult],
        options: Mapping[str, Any] | None = None,
    ) -> list[StandingRow]:
        """The standings table with this tournament's metrics (option `metrics`); elimination
        formats rank by `placement` (their final_ranking) first."""
        resolved = self.resolve_options(options)
        results = list(results)
        placement = None
        if "placement" in resolved["metrics"]:
            placement = self.final_ranking(entrants, results, resolved)
        return standings(entrants, results, resolved["metrics"], placement=placement)

    def resolve_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Defaults filled in, every value checked; unknown names are an error, not ignored."""
        options = dict(options or {})
        unknown = sorted(set(options) - set(self.option_specs) - {"metrics"})
        if unknown:
            valid = ", ".join(sorted([*self.option_specs, "metrics"]))
            raise FormatError(
                f"unknown option(s) {', '.join(unknown)} for {self.name}; valid: {valid}"
            )
        resolved = {name: spec.default for name, spec in self.option_specs.items()}
        for name, value in options.items():
            if name == "metrics":
                continue
            if not self.option_specs[name].is_valid(value):
                expected = self.option_specs[name].expected
                raise FormatError(f"option {name!r} must be {expected}, not {value!r}")
            resolved[name] = value
        resolved["metrics"] = validate_metrics(options.get("metrics", self.default_metrics))
        return resolved
