from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.plugins import get_format
from formats import FormatError, MatchResult
from formats.bracket import seed_order

from .simulate import better_seed_wins, coin_flips, play, result, worse_seed_wins

SE = get_format("single-elimination")


def seeds(n: int) -> list[int]:
    return list(range(1, n + 1))  # entrant k is seed k, so assertions read like a bracket sheet


def test_seed_order_is_the_standard_bracket_line_up():
    assert seed_order(4) == [0, 3, 1, 2]
    assert seed_order(8) == [0, 7, 3, 4, 1, 6, 2, 5]
    assert [s + 1 for s in seed_order(16)][:8] == [1, 16, 8, 9, 4, 13, 5, 12]


@pytest.mark.parametrize(
    ("n", "bracket", "byes_for"),
    [(5, 8, [1, 2, 3]), (6, 8, [1, 2]), (7, 8, [1]), (12, 16, [1, 2, 3, 4])],
)
def test_top_seeds_get_the_byes_in_the_next_power_of_two_bracket(n, bracket, byes_for):
    first = SE.next_round(seeds(n), [])
    assert len(first) == bracket // 2
    assert sorted(p.a for p in first if p.is_bye) == byes_for
    assert sorted(e for p in first for e in (p.a, p.b) if e is not None) == seeds(n)
    assert SE.total_rounds(n) == bracket.bit_length() - 1


def test_first_round_pairs_one_against_last_with_the_better_seed_in_the_first_seat():
    first = SE.next_round(seeds(8), [])
    assert [(p.key, p.a, p.b) for p in first] == [
        ("W1-1", 1, 8),
        ("W1-2", 4, 5),
        ("W1-3", 2, 7),
        ("W1-4", 3, 6),
    ]


@settings(max_examples=60, deadline=None, database=None)
@given(n=st.integers(2, 33), flips=st.integers(0, 10**6))
def test_seeds_one_and_two_meet_only_in_the_final_and_the_top_four_only_from_the_semis(n, flips):
    results = play(SE, seeds(n), coin_flips(flips))
    last_round = SE.total_rounds(n)
    for r in results:
        if {r.a, r.b} <= {1, 2}:
            assert r.round == last_round
        if {r.a, r.b} <= {1, 2, 3, 4}:
            assert r.round >= last_round - 1


def test_when_the_favourites_win_the_top_four_seeds_reach_the_semi_finals():
    results = play(SE, seeds(16), better_seed_wins(seeds(16)))
    semis = [(r.a, r.b) for r in results if r.round == 3]
    assert semis == [(1, 4), (2, 3)]


def test_sixteen_entrants_play_fifteen_matches_to_crown_a_champion():
    results = play(SE, seeds(16), coin_flips(7))
    assert len(results) == 15
    assert all(r.key.startswith(f"W{r.round}-") for r in results)
    ranking = SE.final_ranking(seeds(16), results)
    assert [len(place) for place in ranking] == [1, 1, 2, 4, 8]


def test_third_place_option_adds_one_match_between_the_semi_final_losers():
    entrants = seeds(16)
    results = play(SE, entrants, better_seed_wins(entrants), {"third_place": True})
    assert len(results) == 16
    third = next(r for r in results if r.key == "3P")
    assert {third.a, third.b} == {3, 4}
    assert third.round == SE.total_rounds(16)  # played alongside the final
    assert SE.final_ranking(entrants, results, {"third_place": True})[:4] == [[1], [2], [3], [4]]


def test_there_is_no_third_place_match_without_the_option():
    results = play(SE, seeds(16), better_seed_wins(seeds(16)))
    assert "3P" not in {r.key for r in results}
    assert SE.final_ranking(seeds(16), results)[2] == [3, 4]


def test_three_entrants_have_no_third_place_match_because_only_one_semi_final_is_played():
    results = play(SE, seeds(3), better_seed_wins(seeds(3)), {"third_place": True})
    assert "3P" not in {r.key for r in results}
    assert SE.final_ranking(seeds(3), results, {"third_place": True}) == [[1], [2], [3]]


def test_byes_are_pairings_without_opponent_that_must_be_recorded_before_the_winner_moves_on():
    entrants = seeds(3)
    first = SE.next_round(entrants, [])
    bye = next(p for p in first if p.is_bye)
    played = [result(p, p.b) for p in first if not p.is_bye]  # 3 beats 2
    assert SE.next_round(entrants, played) == [bye]  # the final waits for the walkover
    final = SE.next_round(entrants, [*played, result(bye, bye.a)])
    assert [(p.key, p.a, p.b) for p in final] == [("W2-1", 1, 3)]


def test_next_round_hands_out_unreported_matches_again_with_the_same_keys():
    entrants = seeds(8)
    first = SE.next_round(entrants, [])
    reported = [result(first[0], first[0].a)]
    again = SE.next_round(entrants, reported)
    assert again == first[1:]


def test_ranking_mid_tournament_puts_everyone_still_in_at_the_top():
    entrants = seeds(8)
    first_round = [result(p, p.a) for p in SE.next_round(entrants, [])]
    assert SE.final_ranking(entrants, first_round) == [[1, 2, 3, 4], [5, 6, 7, 8]]


def test_upsets_are_followed_through_the_bracket():
    results = play(SE, seeds(8), worse_seed_wins(seeds(8)))
    assert SE.final_ranking(seeds(8), results)[:2] == [[8], [7]]


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (MatchResult("W1-1", 1, 1, 5, 1), "pairing is 1 vs 8"),
        (MatchResult("W1-1", 1, 1, 8, None), "needs a winner"),
        (MatchResult("W1-1", 1, 1, 8, 3), "did not play"),
        (MatchResult("W1-1", 2, 1, 8, 1), "says round 2, the pairing 1"),
        (MatchResult("W2-1", 2, 1, 4, 1), "waiting"),
        (MatchResult("L1-1", 2, 1, 4, 1), "not in this bracket"),
    ],
)
def test_results_that_do_not_fit_the_bracket_are_rejected(bad, message):
    with pytest.raises(FormatError, match=message):
        SE.next_round(seeds(8), [bad])


def test_bad_entrants_and_options_are_rejected_with_what_is_allowed():
    with pytest.raises(FormatError, match="at least 2"):
        SE.next_round([1], [])
    with pytest.raises(FormatError, match="distinct"):
        SE.next_round([1, 1], [])
    with pytest.raises(FormatError, match="valid: metrics, third_place"):
        SE.next_round(seeds(4), [], {"thirdplace": True})
    with pytest.raises(FormatError, match="true or false"):
        SE.next_round(seeds(4), [], {"third_place": "yes"})


def test_standings_rank_by_placement_first():
    entrants = seeds(8)
    results = play(SE, entrants, better_seed_wins(entrants))
    rows = SE.standings(entrants, results)
    assert [row.entrant for row in rows][:2] == [1, 2]
    assert [row.values["placement"] for row in rows] == [1, 2, 3, 3, 5, 5, 5, 5]
