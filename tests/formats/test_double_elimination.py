from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.plugins import get_format
from formats import MatchResult

from .simulate import better_seed_wins, coin_flips, play, result

DE = get_format("double-elimination")
RESET = {"grand_final_reset": True}
NO_RESET = {"grand_final_reset": False}


def seeds(n: int) -> list[int]:
    return list(range(1, n + 1))


def losses(results: list[MatchResult]) -> Counter:
    return Counter(r.loser for r in results if r.loser is not None)


def line_up(results: list[MatchResult]) -> dict[str, tuple]:
    return {r.key: (r.a, r.b) for r in results}


@settings(max_examples=80, deadline=None, database=None)
@given(n=st.integers(2, 24), flips=st.integers(0, 10**6))
def test_with_reset_everyone_but_the_champion_loses_exactly_twice(n, flips):
    results = play(DE, seeds(n), coin_flips(flips), RESET)
    champion = DE.final_ranking(seeds(n), results, RESET)[0]
    lost = losses(results)
    assert len(champion) == 1
    assert lost[champion[0]] <= 1
    assert all(lost[e] == 2 for e in seeds(n) if e != champion[0])
    # 2n-2 real matches decide who is out, plus the reset when it was needed
    real = [r for r in results if not r.is_bye]
    assert len(real) == 2 * n - 2 + ("GF2" in line_up(results))


@settings(max_examples=40, deadline=None, database=None)
@given(n=st.integers(2, 24), flips=st.integers(0, 10**6))
def test_without_reset_only_the_winners_finalist_can_go_out_after_a_single_loss(n, flips):
    results = play(DE, seeds(n), coin_flips(flips), NO_RESET)
    ranking = DE.final_ranking(seeds(n), results, NO_RESET)
    lost = losses(results)
    assert "GF2" not in line_up(results)
    assert all(lost[e] == 2 for place in ranking[2:] for e in place)
    grand_final = next(r for r in results if r.key == "GF")
    if grand_final.winner == grand_final.b:  # the losers' finalist won
        assert lost[grand_final.a] == 1 and ranking[1] == [grand_final.a]


def test_losers_bracket_paths_for_eight_entrants():
    results = play(DE, seeds(8), better_seed_wins(seeds(8)), RESET)
    assert line_up(results) == {
        "W1-1": (1, 8), "W1-2": (4, 5), "W1-3": (2, 7), "W1-4": (3, 6),
        "W2-1": (1, 4), "W2-2": (2, 3),
        "L1-1": (8, 5), "L1-2": (7, 6),  # losers of W1 meet in line order
        "W3-1": (1, 2),
        "L2-1": (5, 3), "L2-2": (6, 4),  # losers of W2 drop in crossed over: no rematch
        "L3-1": (3, 4),
        "L4-1": (3, 2),  # the winners' final loser meets the losers' bracket survivor
        "GF": (1, 2),
    }  # fmt: skip
    assert [r.round for r in results if r.key.startswith("L")] == [2, 2, 3, 3, 4, 5]
    assert DE.final_ranking(seeds(8), results) == [[1], [2], [3], [4], [5, 6], [7, 8]]


def test_losers_bracket_paths_for_six_entrants_give_byes_where_the_top_seeds_had_them():
    results = play(DE, seeds(6), better_seed_wins(seeds(6)), RESET)
    assert line_up(results) == {
        "W1-1": (1, None), "W1-2": (4, 5), "W1-3": (2, None), "W1-4": (3, 6),
        "W2-1": (1, 4), "W2-2": (2, 3),
        "L1-1": (5, None), "L1-2": (6, None),  # seeds 1 and 2 had byes: nobody to drop
        "W3-1": (1, 2),
        "L2-1": (5, 3), "L2-2": (6, 4),
        "L3-1": (3, 4),
        "L4-1": (3, 2),
        "GF": (1, 2),
    }  # fmt: skip
    assert DE.final_ranking(seeds(6), results) == [[1], [2], [3], [4], [5, 6]]


@settings(max_examples=60, deadline=None, database=None)
@given(size=st.sampled_from([8, 16, 32]), flips=st.integers(0, 10**6))
def test_no_drop_in_first_meets_someone_it_already_played_except_in_the_losers_final(size, flips):
    results = play(DE, seeds(size), coin_flips(flips), RESET)
    last_losers_round = max(int(r.key[1:].split("-")[0]) for r in results if r.key[0] == "L")
    met: set[frozenset] = set()
    for r in sorted(results, key=lambda r: r.round):
        losers_round = int(r.key[1:].split("-")[0]) if r.key[0] == "L" else None
        if losers_round and losers_round % 2 == 0 and losers_round != last_losers_round:
            assert frozenset((r.a, r.b)) not in met, f"{r.key} is a rematch"
        met.add(frozenset((r.a, r.b)))


def grand_final_scenario(losers_finalist_wins: bool, options: dict) -> list[MatchResult]:
    """Four entrants, favourites win everywhere except (maybe) the grand final."""
    entrants = seeds(4)

    def decide(p):
        if p.key == "GF" and losers_finalist_wins:
            return p.b
        return min(p.a, p.b)

    return play(DE, entrants, decide, options)


def test_reset_is_played_when_the_losers_finalist_wins_the_grand_final():
    results = grand_final_scenario(losers_finalist_wins=True, options=RESET)
    reset = line_up(results)["GF2"]
    assert reset == (1, 2)  # the winners' champion keeps the first seat
    assert next(r.round for r in results if r.key == "GF2") == DE.total_rounds(4, RESET)


def test_no_reset_when_the_winners_champion_wins_the_grand_final():
    results = grand_final_scenario(losers_finalist_wins=False, options=RESET)
    assert "GF2" not in line_up(results)
    assert DE.final_ranking(seeds(4), results, RESET)[:2] == [[1], [2]]


def test_no_reset_without_the_option_even_when_the_losers_finalist_wins():
    results = grand_final_scenario(losers_finalist_wins=True, options=NO_RESET)
    assert "GF2" not in line_up(results)
    assert DE.final_ranking(seeds(4), results, NO_RESET)[:2] == [[2], [1]]


def test_reset_is_on_by_default():
    results = grand_final_scenario(losers_finalist_wins=True, options={})
    assert "GF2" in line_up(results)


def test_two_entrants_get_a_second_chance_in_the_grand_final():
    results = play(DE, seeds(2), lambda p: p.b if p.key == "W1-1" else p.a, RESET)
    assert line_up(results) == {"W1-1": (1, 2), "GF": (2, 1)}


@pytest.mark.parametrize(("n", "rounds"), [(2, 2), (4, 4), (6, 6), (8, 6), (9, 8), (16, 8)])
def test_total_rounds_count_the_grand_final_and_the_possible_reset(n, rounds):
    assert DE.total_rounds(n, NO_RESET) == rounds
    assert DE.total_rounds(n, RESET) == rounds + 1


def test_mid_tournament_ranking_keeps_everyone_with_fewer_than_two_losses_on_top():
    entrants = seeds(4)
    first = DE.next_round(entrants, [])
    results = [result(p, p.a) for p in first]  # 4 and 3 lose once
    assert DE.final_ranking(entrants, results) == [[1, 2, 3, 4]]
