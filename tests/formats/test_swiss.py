from __future__ import annotations

import math
import time
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.plugins import get_format
from formats import FormatError, MatchResult
from formats.swiss_pairing import pair_players

from .simulate import (
    better_seed_wins,
    coin_flips,
    play,
    record,
    result,
    rounds_of,
    worse_seed_wins,
)

SWISS = get_format("swiss")


def seeds(n: int) -> list[int]:
    return list(range(1, n + 1))


@st.composite
def fields(draw):
    """An entrant count and a round count that always has a rematch-free pairing: up to
    ceil(n/2) rounds everyone still has enough fresh opponents (Dirac's theorem)."""
    n = draw(st.integers(2, 40))
    return n, draw(st.integers(1, math.ceil(n / 2)))


@settings(max_examples=150, deadline=None, database=None)
@given(field=fields(), flips=st.integers(0, 10**6), draws=st.booleans())
def test_swiss_never_repeats_a_pairing_and_gives_at_most_one_bye_per_round_and_entrant(
    field, flips, draws
):
    n, rounds = field
    entrants = seeds(n)
    results = play(SWISS, entrants, coin_flips(flips, draws), {"rounds": rounds})

    by_round = rounds_of(results)
    assert sorted(by_round) == list(range(1, rounds + 1))
    for round_results in by_round.values():
        seated = [e for r in round_results for e in (r.a, r.b) if e is not None]
        assert sorted(seated) == entrants  # everyone plays (or has the bye) once per round
        assert sum(r.is_bye for r in round_results) == n % 2
    pairs = [frozenset((r.a, r.b)) for r in results if not r.is_bye]
    assert len(pairs) == len(set(pairs)), "a pairing was repeated"
    byes = Counter(r.a for r in results if r.is_bye)
    assert all(count == 1 for count in byes.values()), "someone had two byes"


def test_round_one_pairs_the_top_half_against_the_bottom_half_by_seed():
    pairings = SWISS.next_round(seeds(8), [], {"rounds": 3})
    assert [{p.a, p.b} for p in pairings] == [{1, 5}, {2, 6}, {3, 7}, {4, 8}]


def test_with_an_odd_count_the_lowest_seed_gets_the_first_bye():
    pairings = SWISS.next_round(seeds(7), [], {"rounds": 3})
    assert [(p.key, p.a, p.b) for p in pairings][-1] == ("R1-4", 7, None)
    assert [{p.a, p.b} for p in pairings[:-1]] == [{1, 4}, {2, 5}, {3, 6}]


def test_round_two_pairs_inside_score_groups_top_against_top():
    entrants = seeds(8)
    first = SWISS.next_round(entrants, [], {"rounds": 3})
    results = [result(p, min(p.a, p.b)) for p in first]  # 1-4 win
    second = SWISS.next_round(entrants, results, {"rounds": 3})
    assert [{p.a, p.b} for p in second] == [{1, 3}, {2, 4}, {5, 7}, {6, 8}]


def test_an_odd_score_group_floats_its_lowest_player_down_to_the_top_of_the_next():
    entrants = seeds(6)
    first = SWISS.next_round(entrants, [], {"rounds": 3})  # 1-4, 2-5, 3-6
    results = [result(p, min(p.a, p.b)) for p in first]  # 1, 2, 3 win
    second = SWISS.next_round(entrants, results, {"rounds": 3})
    assert [{p.a, p.b} for p in second] == [{1, 2}, {3, 4}, {5, 6}]


def test_the_bye_goes_to_the_lowest_ranked_player_who_has_not_had_one():
    entrants = seeds(5)
    options = {"rounds": 3}
    first = SWISS.next_round(entrants, [], options)
    assert first[-1].a == 5 and first[-1].is_bye
    # 5's bye counts as a win and 3 and 4 beat 1 and 2: the next bye goes to 2, the
    # lower-ranked of the two players without a point
    results = record(first, worse_seed_wins(entrants))
    second = SWISS.next_round(entrants, results, options)
    assert next(p for p in second if p.is_bye).a == 2


def test_seats_alternate_so_nobody_keeps_the_first_seat():
    entrants = seeds(16)
    results = play(SWISS, entrants, coin_flips(3), {"rounds": 6})
    first_seats = Counter(r.a for r in results)
    assert all(2 <= first_seats[e] <= 4 for e in entrants)


def test_next_round_mid_round_returns_that_rounds_unplayed_matches():
    entrants = seeds(8)
    options = {"rounds": 3}
    first = SWISS.next_round(entrants, [], options)
    partial = [result(p, p.a) for p in first[:2]]
    assert SWISS.next_round(entrants, partial, options) == first[2:]


def test_swiss_is_deterministic():
    entrants = [f"team-{i}" for i in range(20)]
    first = play(SWISS, entrants, coin_flips(11, draws=True), {"rounds": 5})
    again = play(SWISS, entrants, coin_flips(11, draws=True), {"rounds": 5})
    assert first == again


def test_rounds_default_to_the_base_two_log_of_the_field():
    assert SWISS.total_rounds(8) == 3
    assert SWISS.total_rounds(9) == 4
    assert SWISS.total_rounds(2) == 1
    results = play(SWISS, seeds(9), better_seed_wins(seeds(9)))
    assert max(r.round for r in results) == 4


def test_more_rounds_than_opponents_is_rejected():
    with pytest.raises(FormatError, match="at most 7 Swiss rounds"):
        SWISS.next_round(seeds(8), [], {"rounds": 8})
    with pytest.raises(FormatError, match="positive integer"):
        SWISS.next_round(seeds(8), [], {"rounds": 0})


def test_pairing_fails_loudly_rather_than_repeat_a_pairing():
    ranked = [1, 2, 3, 4]
    met = {1: {2, 3, 4}, 2: {1}, 3: {1}, 4: {1}}  # 1 has played everyone
    with pytest.raises(FormatError, match="avoids a rematch"):
        pair_players(ranked, dict.fromkeys(ranked, 0.0), met, {})


def test_results_that_are_not_this_rounds_pairings_are_rejected():
    with pytest.raises(FormatError, match="not a pairing of round 1"):
        SWISS.next_round(seeds(4), [MatchResult("R1-9", 1, 1, 2, 1)], {"rounds": 2})
    with pytest.raises(FormatError, match="round 1 is incomplete"):
        SWISS.next_round(seeds(4), [MatchResult("R2-1", 2, 1, 2, 1)], {"rounds": 2})


def test_final_ranking_uses_the_swiss_tiebreaks():
    entrants = seeds(8)
    results = play(SWISS, entrants, better_seed_wins(entrants), {"rounds": 3})
    ranking = SWISS.final_ranking(entrants, results, {"rounds": 3})
    assert ranking[0] == [1]
    rows = SWISS.standings(entrants, results, {"rounds": 3})
    assert list(rows[0].values) == ["match_points", "buchholz", "sonneborn_berger", "game_diff"]


def test_256_entrants_pair_8_rounds_quickly():
    entrants = [f"player-{i}" for i in range(256)]
    options = {"rounds": 8}
    decide = coin_flips(2024, draws=True)
    results: list[MatchResult] = []
    timings = []
    while True:
        start = time.perf_counter()
        pairings = SWISS.next_round(entrants, results, options)
        timings.append(time.perf_counter() - start)
        if pairings is None:
            break
        results += [result(p, decide(p)) for p in pairings]
    print(
        f"\nswiss 256x8: slowest round {max(timings) * 1000:.1f} ms, all {sum(timings) * 1000:.1f} ms"
    )
    assert len(results) == 8 * 128
