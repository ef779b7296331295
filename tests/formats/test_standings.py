from __future__ import annotations

import random
import time

import pytest

from engine.plugins import get_format
from formats import FormatError, MatchResult, standings

SWISS_METRICS = get_format("swiss").default_metrics


def win(a, b, games=(2, 1), key=None) -> MatchResult:
    """`a` beats `b`; a key is made up because standings do not care about it."""
    return MatchResult(key or f"{a}-{b}", 1, a, b, a, *games, 10 * games[0], 10 * games[1])


def draw(a, b) -> MatchResult:
    return MatchResult(f"{a}={b}", 1, a, b, None, 1, 1, 10, 10)


def bye(a) -> MatchResult:
    return MatchResult(f"{a}-bye", 1, a, None, a)


def order(rows) -> list:
    return [row.entrant for row in rows]


def test_buchholz_decides_between_equal_scores_by_the_strength_of_the_opponents():
    entrants = ["b", "a", "strong", "mid", "weak1", "weak2"]  # b is seeded above a
    results = [
        win("a", "weak1"),
        win("strong", "a"),
        win("b", "weak2", games=(2, 0)),  # b has the better game difference...
        win("mid", "b"),
        win("strong", "weak2"),
    ]
    rows = standings(entrants, results, ["match_points", "buchholz", "game_diff"])
    assert order(rows).index("a") < order(rows).index("b")  # ...but a met stronger opponents
    values = {row.entrant: row.values for row in rows}
    assert values["a"]["buchholz"] == 2.0  # weak1 0 + strong 2
    assert values["b"]["buchholz"] == 1.0  # weak2 0 + mid 1
    by_games = standings(entrants, results, ["match_points", "game_diff"])
    assert order(by_games).index("b") < order(by_games).index("a")


def test_sonneborn_berger_decides_when_buchholz_ties_by_the_strength_of_those_beaten():
    entrants = ["b", "a", "x", "y", "z"]
    results = [
        win("a", "x"),
        win("y", "a"),
        win("b", "y", games=(2, 0)),
        win("x", "b"),
        win("x", "z"),
    ]
    rows = standings(entrants, results, SWISS_METRICS)
    values = {row.entrant: row.values for row in rows}
    assert values["a"]["buchholz"] == values["b"]["buchholz"] == 3.0
    assert values["a"]["sonneborn_berger"] == 2.0  # beat x, who has 2 points
    assert values["b"]["sonneborn_berger"] == 1.0  # beat y, who has 1 point
    assert order(rows) == ["x", "a", "b", "y", "z"]


def test_sonneborn_berger_counts_half_the_score_of_opponents_drawn():
    results = [draw("a", "x"), win("x", "y"), win("x", "z")]
    rows = standings(["a", "x", "y", "z"], results, ["sonneborn_berger"])
    sb = {row.entrant: row.values["sonneborn_berger"] for row in rows}
    assert sb["a"] == 1.25  # drew with x: half of x's 2.5 points
    assert sb["x"] == 0.25  # drew with a (0.5 points), beat y and z (0 points each)


def test_head_to_head_decides_only_among_the_entrants_tied_before_it():
    entrants = ["b", "a", "c", "d"]
    results = [
        win("a", "b"),
        win("b", "c", games=(2, 0)),
        win("b", "d", games=(2, 0)),
        win("a", "c"),
        win("c", "a"),  # a: 2 wins, 1 loss; b: 2 wins, 1 loss with the better game difference
    ]
    rows = standings(entrants, results, ["match_points", "head_to_head", "game_diff"])
    assert order(rows)[:2] == ["a", "b"]
    values = {row.entrant: row.values for row in rows}
    assert values["a"]["head_to_head"] == 1.0 and values["b"]["head_to_head"] == 0.0
    assert values["c"]["head_to_head"] == 0.0  # c is alone on its score: nothing to compare


def test_a_head_to_head_cycle_leaves_the_tie_to_the_next_metric():
    results = [win("a", "b"), win("b", "c", games=(2, 0)), win("c", "a")]
    rows = standings(["a", "b", "c"], results, ["match_points", "head_to_head", "game_diff"])
    assert all(row.values["head_to_head"] == 1.0 for row in rows)
    assert order(rows) == ["b", "a", "c"]  # game difference +1, 0, -1


def test_ties_share_a_rank_only_when_every_metric_ties_and_keep_seed_order():
    entrants = ["seed1", "seed2", "seed3"]
    results = [draw("seed2", "seed1")]
    rows = standings(entrants, results, ["match_points", "game_diff"])
    assert [(row.entrant, row.rank) for row in rows] == [("seed1", 1), ("seed2", 1), ("seed3", 3)]


def test_a_bye_is_a_win_but_not_an_opponent():
    results = [bye("a"), win("b", "a"), win("c", "b")]
    values = {row.entrant: row.values for row in standings(["a", "b", "c"], results, SWISS_METRICS)}
    assert values["a"]["match_points"] == 1.0
    assert values["a"]["buchholz"] == 1.0  # only b, who has 1 point
    assert standings(["a", "b", "c"], results, ["match_wins"])[0].values["match_wins"] == 1


def test_median_buchholz_leaves_out_the_best_and_worst_opponent():
    results = [win("a", "x"), win("a", "y"), win("a", "z"), win("x", "y"), win("x", "z")]
    results += [win("y", "z")]
    values = {
        r.entrant: r.values
        for r in standings(["a", "x", "y", "z"], results, ["buchholz", "median_buchholz"])
    }
    assert values["a"]["buchholz"] == 3.0  # x 2, y 1, z 0
    assert values["a"]["median_buchholz"] == 1.0  # only y is left


def test_game_and_point_metrics_add_up_from_both_seats():
    results = [win("a", "b", games=(2, 1)), win("b", "a", games=(2, 0))]
    values = {
        r.entrant: r.values
        for r in standings(
            ["a", "b"], results, ["game_wins", "game_diff", "point_diff", "points_for"]
        )
    }
    assert values["a"] == {"game_wins": 2, "game_diff": -1, "point_diff": -10, "points_for": 20}
    assert values["b"] == {"game_wins": 3, "game_diff": 1, "point_diff": 10, "points_for": 30}


def test_unknown_metric_is_a_value_error_listing_the_valid_names():
    with pytest.raises(ValueError, match="unknown metric.*'bucholz'.*valid: .*buchholz"):
        standings(["a", "b"], [], ["match_points", "bucholz"])
    with pytest.raises(FormatError, match="unknown metric"):
        get_format("swiss").standings(["a", "b"], [], {"metrics": ["wins"]})


def test_placement_needs_a_ranking_from_the_format():
    with pytest.raises(FormatError, match="placement"):
        standings(["a", "b"], [], ["placement"])
    rows = standings(["a", "b"], [], ["placement"], placement=[["b"], ["a"]])
    assert order(rows) == ["b", "a"]


def test_results_naming_someone_who_is_not_an_entrant_are_rejected():
    with pytest.raises(FormatError, match="not an entrant"):
        standings(["a", "b"], [win("a", "ghost")], SWISS_METRICS)


def test_256_entrants_and_1024_results_are_fast():
    rng = random.Random(5)
    entrants = list(range(256))
    results = []
    for i in range(1024):
        a, b = rng.sample(entrants, 2)
        results.append(MatchResult(f"m{i}", 1, a, b, rng.choice([a, b, None]), 2, 1, 20, 10))
    metrics = [
        "match_points",
        "head_to_head",
        "buchholz",
        "sonneborn_berger",
        "median_buchholz",
        "game_diff",
    ]
    start = time.perf_counter()
    rows = standings(entrants, results, metrics)
    print(f"\nstandings 256 entrants, 1024 results: {(time.perf_counter() - start) * 1000:.1f} ms")
    assert len(rows) == 256


def test_every_registered_format_declares_what_scheduling_needs():
    """Formats describe themselves: scheduling asks the format (never its name) whether a match
    needs a winner, whether it pairs round by round, how many matches it will have and its
    bracket. A full simulated tournament plays the matches the format expected (and at most one
    more: a grand final's reset, played only when needed)."""
    from engine.plugins import registry

    from .simulate import coin_flips, play

    for name, fmt in registry().formats.items():
        assert fmt.title and isinstance(fmt.needs_winner, bool)
        assert isinstance(fmt.round_by_round, bool)
        for n in (2, 5, 8):
            entrants = list(range(n))
            decide = coin_flips(n, draws=not fmt.needs_winner)
            played = [r for r in play(fmt, entrants, decide) if not r.is_bye]
            assert fmt.expected_matches(n) <= len(played) <= fmt.expected_matches(n) + 1, name
            if fmt.needs_winner:
                assert all(r.winner is not None for r in played), name
            layout = fmt.bracket_layout(n)
            assert (layout is not None) == fmt.has_bracket, name
