"""Match statistics as engine testers compute them: a win rate with its 95% interval, the Elo
difference it implies with error bars, and a sequential probability ratio test (SPRT) on
duplicate pairs, the way fishtest tests chess engines on game pairs.

A duplicate pair is scored from side A's view: 1 (won both games), 0.5 (one each) or 0. Truco
games always have a winner, so pair outcomes are the pentanomial counts
[LL, LD+DL, LW+DD+WL, DW+WD, WW] with the draw classes empty; the code takes all five so that a
variant with drawn games would work unchanged.

The SPRT is the generalized SPRT of fishtest (Michel Van den Bergh, "support_MLE_multinomial"):
the log-likelihood ratio of the empirical pair distribution, maximized under the constraint
that the expected score is s0 (the score of elo0) against s1 (of elo1).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

Z95 = NormalDist().inv_cdf(0.975)  # 1.959963...
PAIR_POINTS = (0.0, 0.25, 0.5, 0.75, 1.0)  # score of each pentanomial class
REGULARIZE = 1e-3  # fishtest's prior for an empty class, so that logarithms stay finite


@dataclass(frozen=True)
class Interval:
    estimate: float
    low: float
    high: float


def wilson(wins: float, n: int, z: float = Z95) -> Interval:
    """Wilson score interval for a proportion (good near 0 and 1, unlike the normal one)."""
    if n <= 0:
        return Interval(0.5, 0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(scores: Sequence[float], z: float = Z95) -> Interval:
    """Normal approximation on per-pair scores: pairs are independent, the two games of a pair
    are not, so this is the honest interval for duplicate matches."""
    n = len(scores)
    if n == 0:
        return Interval(0.5, 0.0, 1.0)
    mean = sum(scores) / n
    if n == 1:
        return Interval(mean, 0.0, 1.0)
    var = sum((s - mean) ** 2 for s in scores) / (n - 1)
    half = z * math.sqrt(var / n)
    return Interval(mean, max(0.0, mean - half), min(1.0, mean + half))


def elo_from_score(score: float) -> float:
    """Logistic Elo difference that predicts this expected score; +-inf at 1 and 0."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_interval(score: Interval) -> Interval:
    """Elo difference with error bars: the score interval's ends mapped through the Elo curve."""
    return Interval(
        elo_from_score(score.estimate), elo_from_score(score.low), elo_from_score(score.high)
    )


def pentanomial(pair_scores: Sequence[float]) -> list[int]:
    """Counts of pairs scoring 0, 0.25, 0.5, 0.75 and 1 (the last three from side A's view)."""
    counts = [0] * 5
    for s in pair_scores:
        counts[round(s * 4)] += 1
    return counts


def _secular_root(pdf: list[tuple[float, float]]) -> float:
    """The x in (-1/max a, -1/min a) with sum p*a/(1+x*a) = 0 (it is decreasing in x there):
    bisection, which needs no library and converges in ~60 steps."""
    low = -1.0 / max(a for a, _ in pdf)
    high = -1.0 / min(a for a, _ in pdf)
    eps = 1e-12
    low, high = low + eps * abs(low), high - eps * abs(high)
    for _ in range(200):
        mid = (low + high) / 2
        value = sum(p * a / (1 + mid * a) for a, p in pdf)
        if value > 0:
            low = mid
        else:
            high = mid
        if high - low < 1e-15:
            break
    return (low + high) / 2


def _mle_with_mean(pdf: list[tuple[float, float]], s: float) -> list[float]:
    """The distribution nearest the empirical one (maximum likelihood) whose mean is s."""
    shifted = [(a - s, p) for a, p in pdf]
    x = _secular_root(shifted)
    return [p / (1 + x * a) for a, p in shifted]


def llr(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """Generalized log-likelihood ratio of H1 (Elo elo1) against H0 (elo0) for pentanomial (or
    any evenly spaced) outcome counts, as fishtest's LLR_logistic."""
    regular = [c if c > 0 else REGULARIZE for c in counts]
    n = sum(regular)
    k = len(regular) - 1
    pdf = [(i / k, c / n) for i, c in enumerate(regular)]
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    p0 = _mle_with_mean(pdf, s0)
    p1 = _mle_with_mean(pdf, s1)
    return n * sum(
        p * (math.log(b) - math.log(a)) for (_, p), a, b in zip(pdf, p0, p1, strict=True)
    )


@dataclass(frozen=True)
class SprtResult:
    llr: float
    lower: float  # accept H0 at or below
    upper: float  # accept H1 at or above
    decision: str | None  # "H0", "H1" or None while undecided


def sprt(
    pair_scores: Sequence[float],
    elo0: float,
    elo1: float,
    alpha: float = 0.05,
    beta: float = 0.05,
) -> SprtResult:
    """The SPRT on duplicate pairs: H1 (side A is elo1 stronger) is accepted once the LLR reaches
    log((1-beta)/alpha), H0 (elo0) once it falls to log(beta/(1-alpha))."""
    lower = math.log(beta / (1 - alpha))
    upper = math.log((1 - beta) / alpha)
    value = llr(pentanomial(pair_scores), elo0, elo1) if pair_scores else 0.0
    decision = "H1" if value >= upper else "H0" if value <= lower else None
    return SprtResult(value, lower, upper, decision)
