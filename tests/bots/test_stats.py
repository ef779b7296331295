"""The arena's statistics against known values."""

from __future__ import annotations

import math

import pytest

from engine.stats import (
    elo_from_score,
    elo_interval,
    llr,
    mean_interval,
    pentanomial,
    score_from_elo,
    sprt,
    wilson,
)


def test_wilson_interval_matches_the_textbook_values():
    # 50 of 100: the classic example, [0.4038, 0.5962].
    interval = wilson(50, 100)
    assert interval.estimate == 0.5
    assert interval.low == pytest.approx(0.40383, abs=1e-5)
    assert interval.high == pytest.approx(0.59617, abs=1e-5)
    # All wins still leaves room below 1 (unlike the normal approximation).
    sure = wilson(10, 10)
    assert sure.high == 1.0 and sure.low == pytest.approx(0.72247, abs=1e-5)


def test_pair_score_interval_is_the_normal_approximation_over_pairs():
    scores = [1.0, 0.5, 0.5, 0.0, 1.0, 0.5, 1.0, 0.5]
    interval = mean_interval(scores)
    mean = sum(scores) / 8
    sd = math.sqrt(sum((s - mean) ** 2 for s in scores) / 7)
    assert interval.estimate == mean
    assert interval.high - mean == pytest.approx(1.959964 * sd / math.sqrt(8), rel=1e-6)


def test_elo_of_known_scores():
    assert elo_from_score(0.5) == 0
    assert elo_from_score(0.75) == pytest.approx(190.849, abs=1e-3)
    assert elo_from_score(0.6) == pytest.approx(70.437, abs=1e-3)
    assert score_from_elo(elo_from_score(0.64)) == pytest.approx(0.64)
    assert elo_from_score(1.0) == math.inf and elo_from_score(0.0) == -math.inf


def test_elo_error_bars_follow_the_score_interval():
    elo = elo_interval(wilson(60, 100))
    assert elo.low < elo.estimate < elo.high
    assert elo.estimate == pytest.approx(70.437, abs=1e-3)


def test_pentanomial_counts_pairs_by_points():
    assert pentanomial([0, 0.5, 0.5, 1, 1, 1]) == [1, 0, 2, 0, 3]


def test_llr_reduces_to_walds_sprt_when_pairs_only_win_or_lose_both():
    """With two outcomes the constrained distributions are fixed by their mean, so the LLR is
    Wald's binomial one (up to fishtest's tiny prior on empty classes)."""
    wins, losses = 60, 40
    s0, s1 = score_from_elo(0), score_from_elo(20)
    wald = wins * math.log(s1 / s0) + losses * math.log((1 - s1) / (1 - s0))
    assert llr([losses, 0, 0, 0, wins], 0, 20) == pytest.approx(wald, abs=1e-3)


def test_llr_is_zero_for_a_symmetric_test_on_an_even_result():
    assert llr([10, 0, 30, 0, 10], -10, 10) == pytest.approx(0, abs=1e-9)


def test_sprt_bounds_and_decisions():
    result = sprt([0.5], 0, 20)
    assert result.lower == pytest.approx(-2.944439, abs=1e-6)
    assert result.upper == pytest.approx(2.944439, abs=1e-6)
    assert result.decision is None
    assert sprt([1.0] * 30 + [0.5] * 30, 0, 20).decision == "H1"
    assert sprt([0.0] * 30 + [0.5] * 30, 0, 20).decision == "H0"
