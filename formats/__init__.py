"""Tournament formats as plain Python: no Django, no state, plain data in and out.

Formats are plugins, registered like variants and bots (`formats/plugin.py` registers the
built-ins; `engine.plugins.registry().formats` or `get_format(name)` gives them). Ask a format
`next_round(entrants, results, options)` after every round (None once the tournament is
complete), `standings(...)` and `final_ranking(...)` at any time, and what scheduling needs of
it: `needs_winner`, `round_by_round`, `expected_matches(n, options)`, `bracket_layout(n, options)`.
"""

from __future__ import annotations

from .base import Format, OptionSpec
from .core import Entrant, FormatError, MatchResult, Pairing, Ranking
from .standings import METRICS, StandingRow, standings

__all__ = [
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
