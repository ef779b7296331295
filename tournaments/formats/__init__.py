"""Tournament formats as plain Python: no Django, no state, plain data in and out.

FORMATS[name] gives a Format; ask it `next_round(entrants, results, options)` after every round
(None once the tournament is complete), `standings(...)` and `final_ranking(...)` at any time.
"""

from __future__ import annotations

from .base import Format, OptionSpec
from .core import Entrant, FormatError, MatchResult, Pairing, Ranking
from .double_elimination import DoubleElimination
from .round_robin import RoundRobin
from .single_elimination import SingleElimination
from .standings import METRICS, StandingRow, standings
from .swiss import Swiss

FORMATS: dict[str, Format] = {
    fmt.name: fmt for fmt in (SingleElimination(), DoubleElimination(), RoundRobin(), Swiss())
}
DEFAULT_METRICS: dict[str, tuple[str, ...]] = {
    name: fmt.default_metrics for name, fmt in FORMATS.items()
}

__all__ = [
    "DEFAULT_METRICS",
    "FORMATS",
    "METRICS",
    "Entrant",
    "Format",
    "FormatError",
    "MatchResult",
    "OptionSpec",
    "Pairing",
    "Ranking",
    "StandingRow",
    "standings",
]
