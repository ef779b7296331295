from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from engine.plugins import get_format
from formats import FormatError, MatchResult

from .simulate import better_seed_wins, coin_flips, play, result, rounds_of

RR = get_format("round-robin")


def names(n: int) -> list[str]:
    return [f"p{i}" for i in range(1, n + 1)]  # string ids work as well as ints


@pytest.mark.parametrize("n", range(2, 12))
def test_every_pair_meets_exactly_once_and_everyone_plays_once_per_round(n):
    entrants = names(n)
    results = play(RR, entrants, coin_flips(n, draws=True))
    meetings = Counter(frozenset((r.a, r.b)) for r in results if not r.is_bye)
    assert meetings == Counter(frozenset(pair) for pair in combinations(entrants, 2))
    for round_results in rounds_of(results).values():
        seated = [e for r in round_results for e in (r.a, r.b) if e is not None]
        assert sorted(seated) == sorted(entrants)
    assert len(rounds_of(results)) == RR.total_rounds(n)


@pytest.mark.parametrize("n", [3, 5, 7, 9])
def test_odd_counts_have_one_bye_per_round_and_one_bye_per_entrant(n):
    results = play(RR, names(n), coin_flips(n))
    assert RR.total_rounds(n) == n
    for round_results in rounds_of(results).values():
        assert sum(r.is_bye for r in round_results) == 1
    assert Counter(r.a for r in results if r.is_bye) == Counter(names(n))


@pytest.mark.parametrize("n", [4, 5, 8])
def test_double_round_robin_repeats_every_pairing_with_the_seats_swapped(n):
    entrants = names(n)
    results = play(RR, entrants, coin_flips(n), {"double": True})
    cycle = RR.total_rounds(n)
    assert RR.total_rounds(n, {"double": True}) == 2 * cycle
    first = {(r.a, r.b) for r in results if r.round <= cycle and not r.is_bye}
    second = {(r.a, r.b) for r in results if r.round > cycle and not r.is_bye}
    assert second == {(b, a) for a, b in first}
    assert len(first) == n * (n - 1) // 2


@pytest.mark.parametrize("n", range(2, 15))
def test_home_and_away_games_differ_by_at_most_one_per_entrant(n):
    results = play(RR, names(n), coin_flips(n))
    home = Counter(r.a for r in results if not r.is_bye)
    away = Counter(r.b for r in results if not r.is_bye)
    assert all(abs(home[e] - away[e]) <= 1 for e in names(n))


def test_first_round_pairs_top_against_bottom():
    pairings = RR.next_round(names(6), [])
    assert [(p.key, p.a, p.b) for p in pairings] == [
        ("R1-1", "p1", "p6"),
        ("R1-2", "p2", "p5"),
        ("R1-3", "p3", "p4"),
    ]


def test_next_round_returns_only_the_unplayed_matches_of_the_current_round():
    entrants = names(6)
    first = RR.next_round(entrants, [])
    partial = [result(first[0], first[0].a)]
    assert RR.next_round(entrants, partial) == first[1:]
    done = partial + [result(p, p.a) for p in first[1:]]
    assert {p.round for p in RR.next_round(entrants, done)} == {2}


def test_round_robin_breaks_ties_on_points_by_head_to_head_before_game_difference():
    entrants = ["a", "b", "c", "d"]
    results = [
        MatchResult("R1-1", 1, "a", "d", "a", 2, 1),
        MatchResult("R1-2", 1, "b", "c", "b", 2, 0),
        MatchResult("R2-1", 2, "a", "b", "a", 2, 1),  # a beats b ...
        MatchResult("R2-2", 2, "c", "d", "d", 1, 2),  # ... and d beats c
        MatchResult("R3-1", 3, "c", "a", "c", 2, 0),
        MatchResult("R3-2", 3, "d", "b", "b", 0, 2),
    ]
    # a and b have 2 wins each (b has the better game difference), c and d 1 win each
    assert [row.entrant for row in RR.standings(entrants, results)] == ["a", "b", "d", "c"]
    by_games = {"metrics": ["match_points", "game_diff"]}
    assert [row.entrant for row in RR.standings(entrants, results, by_games)][:2] == ["b", "a"]


def test_results_for_matches_not_in_the_schedule_are_rejected():
    entrants = names(4)
    with pytest.raises(FormatError, match="not a match of this round robin"):
        RR.next_round(entrants, [MatchResult("R9-1", 9, "p1", "p2", "p1")])
    with pytest.raises(FormatError, match="pairing is 'p1' vs 'p4'"):
        RR.next_round(entrants, [MatchResult("R1-1", 1, "p1", "p2", "p1")])


def test_final_ranking_is_the_standings_order_with_ties_grouped():
    entrants = names(4)
    results = play(RR, entrants, better_seed_wins(entrants))
    assert RR.final_ranking(entrants, results) == [["p1"], ["p2"], ["p3"], ["p4"]]
    all_draws = play(RR, entrants, lambda p: None)
    assert RR.final_ranking(entrants, all_draws) == [entrants]
