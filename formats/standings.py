"""Standings: entrants ordered by a configurable list of metrics, each one a tiebreak for the
ones before it, with seed order as the last, silent tiebreak so the order is always the same.

One pass over the results collects every entrant's tally; each metric is then O(entrants) or
O(results). `head_to_head` only looks inside groups tied on all the metrics before it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from .core import Entrant, FormatError, MatchResult, Ranking, check_entrants

# Every metric except `placement` is "higher is better".
METRICS: tuple[str, ...] = (
    "placement",
    "match_points",
    "match_wins",
    "game_wins",
    "game_diff",
    "point_diff",
    "points_for",
    "head_to_head",
    "buchholz",
    "median_buchholz",
    "sonneborn_berger",
)
LOWER_IS_BETTER = frozenset({"placement"})
# Column headings for people (the API gives both names and labels).
METRIC_LABELS: dict[str, str] = {
    "placement": "Place",
    "match_points": "Match points",
    "match_wins": "Match wins",
    "game_wins": "Game wins",
    "game_diff": "Game diff.",
    "point_diff": "Point diff.",
    "points_for": "Points for",
    "head_to_head": "Head to head",
    "buchholz": "Buchholz",
    "median_buchholz": "Median Buchholz",
    "sonneborn_berger": "Sonneborn-Berger",
}


@dataclass(frozen=True)
class StandingRow:
    entrant: Entrant
    rank: int  # 1-based; shared only when every metric ties
    values: dict[str, float]


@dataclass
class _Tally:
    match_points: float = 0.0
    match_wins: int = 0
    games_for: int = 0
    games_against: int = 0
    points_for: int = 0
    points_against: int = 0
    # (opponent, match points earned against them), byes excluded
    meetings: list[tuple[Entrant, float]] = field(default_factory=list)


def validate_metrics(metrics: Sequence[str]) -> tuple[str, ...]:
    if isinstance(metrics, str):
        raise FormatError(f"metrics must be a list of names, not the string {metrics!r}")
    # What arrives from JSON may be anything (a number, objects in the list): a message, not a
    # TypeError, for every shape.
    if not isinstance(metrics, (list, tuple)) or not all(isinstance(m, str) for m in metrics):
        raise FormatError(
            f"metrics must be a list of names ({', '.join(METRICS)}), not {metrics!r}"
        )
    unknown = [m for m in metrics if m not in METRICS]
    if unknown:
        raise FormatError(
            f"unknown metric(s) {', '.join(map(repr, unknown))}; valid: {', '.join(METRICS)}"
        )
    if len(set(metrics)) != len(metrics):
        raise FormatError(f"metrics must not repeat: {list(metrics)}")
    return tuple(metrics)


def standings(
    entrants: Sequence[Entrant],
    results: Iterable[MatchResult],
    metrics: Sequence[str],
    *,
    placement: Ranking | None = None,
) -> list[StandingRow]:
    """Rows best first. `placement` (places from a format's final_ranking) is needed only when
    the `placement` metric is used."""
    metrics = validate_metrics(metrics)
    entrants = check_entrants(entrants)
    tallies = _tally(entrants, results)
    seed_of = {entrant: index for index, entrant in enumerate(entrants)}

    values: dict[Entrant, dict[str, float]] = {e: {} for e in entrants}
    sort_keys: dict[Entrant, tuple[float, ...]] = {e: () for e in entrants}
    for metric in metrics:
        if metric == "head_to_head":
            column = _head_to_head(entrants, tallies, sort_keys)
        elif metric == "placement":
            column = _places(entrants, placement)
        else:
            column = _SIMPLE_METRICS[metric](tallies)
        sign = 1 if metric in LOWER_IS_BETTER else -1
        for entrant in entrants:
            values[entrant][metric] = column[entrant]
            sort_keys[entrant] += (sign * column[entrant],)

    ordered = sorted(entrants, key=lambda e: (sort_keys[e], seed_of[e]))
    rows: list[StandingRow] = []
    for position, entrant in enumerate(ordered, start=1):
        tied = rows and sort_keys[rows[-1].entrant] == sort_keys[entrant]
        rows.append(StandingRow(entrant, rows[-1].rank if tied else position, values[entrant]))
    return rows


def ranking_from_rows(rows: Iterable[StandingRow]) -> Ranking:
    """Rows sharing a rank share a place."""
    ranking: Ranking = []
    last_rank = None
    for row in rows:
        if row.rank != last_rank:
            ranking.append([])
            last_rank = row.rank
        ranking[-1].append(row.entrant)
    return ranking


def _tally(entrants: list[Entrant], results: Iterable[MatchResult]) -> dict[Entrant, _Tally]:
    tallies = {entrant: _Tally() for entrant in entrants}
    for result in results:
        for entrant in (result.a, result.b):
            if entrant is not None and entrant not in tallies:
                raise FormatError(f"result {result.key!r} names {entrant!r}, who is not an entrant")
        _add(
            tallies[result.a],
            result,
            result.a,
            result.b,
            (result.games_a, result.games_b),
            (result.points_a, result.points_b),
        )
        if not result.is_bye:
            _add(
                tallies[result.b],
                result,
                result.b,
                result.a,
                (result.games_b, result.games_a),
                (result.points_b, result.points_a),
            )
    return tallies


def _add(
    tally: _Tally,
    result: MatchResult,
    me: Entrant,
    opponent: Entrant | None,
    games: tuple[int, int],
    points: tuple[int, int],
) -> None:
    """One side of a result; `games` and `points` are (mine, theirs)."""
    earned = result.match_points_of(me)
    tally.match_points += earned
    tally.match_wins += int(result.winner == me)
    tally.games_for += games[0]
    tally.games_against += games[1]
    tally.points_for += points[0]
    tally.points_against += points[1]
    if opponent is not None:
        tally.meetings.append((opponent, earned))


Column = dict[Entrant, float]


def _buchholz(tallies: dict[Entrant, _Tally]) -> Column:
    return {e: sum(tallies[o].match_points for o, _ in t.meetings) for e, t in tallies.items()}


def _median_buchholz(tallies: dict[Entrant, _Tally]) -> Column:
    """Buchholz without the best and the worst opponent (only with at least 3 opponents, so
    that something remains)."""
    column = {}
    for entrant, tally in tallies.items():
        scores = sorted(tallies[o].match_points for o, _ in tally.meetings)
        column[entrant] = sum(scores[1:-1] if len(scores) >= 3 else scores)
    return column


def _sonneborn_berger(tallies: dict[Entrant, _Tally]) -> Column:
    # `earned` is 1 for a win and 0.5 for a draw, which is exactly the weight SB gives.
    return {
        e: sum(earned * tallies[o].match_points for o, earned in t.meetings)
        for e, t in tallies.items()
    }


_SIMPLE_METRICS: dict[str, Callable[[dict[Entrant, _Tally]], Column]] = {
    "match_points": lambda ts: {e: t.match_points for e, t in ts.items()},
    "match_wins": lambda ts: {e: t.match_wins for e, t in ts.items()},
    "game_wins": lambda ts: {e: t.games_for for e, t in ts.items()},
    "game_diff": lambda ts: {e: t.games_for - t.games_against for e, t in ts.items()},
    "point_diff": lambda ts: {e: t.points_for - t.points_against for e, t in ts.items()},
    "points_for": lambda ts: {e: t.points_for for e, t in ts.items()},
    "buchholz": _buchholz,
    "median_buchholz": _median_buchholz,
    "sonneborn_berger": _sonneborn_berger,
}


def _head_to_head(
    entrants: list[Entrant],
    tallies: dict[Entrant, _Tally],
    sort_keys: dict[Entrant, tuple[float, ...]],
) -> Column:
    """Match points earned against the others tied on every earlier metric (0 when not tied)."""
    tied_groups: dict[tuple[float, ...], set[Entrant]] = defaultdict(set)
    for entrant in entrants:
        tied_groups[sort_keys[entrant]].add(entrant)
    column: Column = {}
    for entrant in entrants:
        group = tied_groups[sort_keys[entrant]]
        column[entrant] = (
            sum(earned for o, earned in tallies[entrant].meetings if o in group)
            if len(group) > 1
            else 0.0
        )
    return column


def _places(entrants: list[Entrant], placement: Ranking | None) -> Column:
    if placement is None:
        raise FormatError("the 'placement' metric needs the format's final ranking (placement=...)")
    place_of: Column = {}
    place = 1
    for group in placement:
        for entrant in group:
            place_of[entrant] = place
        place += len(group)
    missing = [e for e in entrants if e not in place_of]
    if missing:
        raise FormatError(f"placement does not place {missing!r}")
    return place_of
