"""A day of a crowded ladder in a few seconds: the pairing policy (tournaments/ladder_policy.py)
and openskill's ratings with synthetic strengths, no games and no database. 200 versions of 40
owners, one of whom has 50 of them; a match every tick the budget allows, each finished by the
next tick (ten seconds of ladder time)."""

from __future__ import annotations

import math
import random
from collections import Counter, deque

import pytest
from openskill.models import PlackettLuce

from tournaments.ladder_policy import History, Policy, Version, matches_allowed, next_pairs, ranked

TICK_SECONDS = 10
DAY_TICKS = 24 * 3600 // TICK_SECONDS
GAMES_PER_MATCH = 4  # two duplicate pairs
GAMES_PER_HOUR = 10_000
MAX_IN_FLIGHT = 12
SIGMA_BOUND = 3.5  # openskill starts every version at 8.33
DRAW_SHARE = 0.1  # a duplicate-pair match between equals is often drawn


def owners_and_versions(rng: random.Random) -> list[tuple[str, float]]:
    """(owner, true strength) of 200 versions: alice has 50, 39 others 3 or 4 each."""
    owners = ["alice"] * 50
    for k in range(39):
        owners += [f"user{k}"] * (4 if k < 33 else 3)
    assert len(owners) == 200 and len(set(owners)) == 40
    return [(owner, rng.gauss(25, 6)) for owner in owners]


def outcome(rng: random.Random, strength_a: float, strength_b: float) -> int | None:
    """0 if A wins the match, 1 if B does, None for a draw: a logistic in the strength gap."""
    if rng.random() < DRAW_SHARE:
        return None
    p_a = 1 / (1 + math.exp(-(strength_a - strength_b) / 4))
    return 0 if rng.random() < p_a else 1


def simulate_day(seed: int):
    rng = random.Random(seed)
    model = PlackettLuce()
    population = owners_and_versions(rng)
    owner_of = {i: owner for i, (owner, _) in enumerate(population)}
    strength = {i: s for i, (_, s) in enumerate(population)}
    ratings = {i: model.rating() for i in owner_of}
    matches = Counter()
    history = History()
    started = deque()  # (tick, games) of the last hour's matches
    games_last_hour = 0
    in_flight: list[tuple[int, int]] = []
    per_hour = 3600 // TICK_SECONDS
    for tick in range(DAY_TICKS):
        for a, b in in_flight:  # what started last tick is over now
            winner = outcome(rng, strength[a], strength[b])
            ranks = [1, 1] if winner is None else [1 + (winner != 0), 1 + (winner != 1)]
            [[ratings[a]], [ratings[b]]] = model.rate([[ratings[a]], [ratings[b]]], ranks=ranks)
            matches[a] += 1
            matches[b] += 1
        in_flight = []
        while started and started[0][0] <= tick - per_hour:
            games_last_hour -= started.popleft()[1]
        allowed = matches_allowed(
            games_per_hour=GAMES_PER_HOUR,
            games_last_hour=games_last_hour,
            games_per_match=GAMES_PER_MATCH,
            in_flight=0,
            max_in_flight=MAX_IN_FLIGHT,
        )
        board = [
            Version(i, owner_of[i], ratings[i].mu, ratings[i].sigma, matches[i]) for i in owner_of
        ]
        in_flight = next_pairs(board, history, count=allowed)
        for _ in in_flight:
            started.append((tick, GAMES_PER_MATCH))
            games_last_hour += GAMES_PER_MATCH
    return board, history, strength


@pytest.fixture(scope="module")
def day():
    return simulate_day(seed=17)


def test_every_version_converges_within_a_day(day):
    board, _, _ = day
    unsettled = [(v.id, v.owner, round(v.sigma, 2)) for v in board if v.sigma >= SIGMA_BOUND]
    assert not unsettled, f"{len(unsettled)} versions still uncertain: {unsettled[:5]}"


def test_no_owner_plays_over_their_share(day):
    board, history, _ = day
    owners = {v.owner for v in board}
    share = sum(history.owner_load.values()) / len(owners)
    slack = Policy().owner_slack + 2  # the band, and a match still deciding at the end
    over = {o: n for o, n in history.owner_load.items() if n > share + slack}
    under = {o: n for o, n in history.owner_load.items() if n < share - slack}
    assert not over and not under, (share, over, under)
    # alice's fifty versions split one owner's share: each of the others' versions plays more.
    alice = [history.version_load[v.id] for v in board if v.owner == "alice"]
    others = [history.version_load[v.id] for v in board if v.owner != "alice"]
    assert max(alice) < min(others)


def test_the_board_orders_versions_by_their_strength(day):
    board, _, strength = day
    order = [v.id for v in ranked(board)]
    truth = sorted(strength, key=lambda i: -strength[i])
    rank_of = {v: k for k, v in enumerate(truth)}
    n = len(order)
    d2 = sum((k - rank_of[v]) ** 2 for k, v in enumerate(order))
    spearman = 1 - 6 * d2 / (n * (n * n - 1))
    assert spearman > 0.9, spearman


def test_the_budget_caps_the_games_of_every_hour():
    assert (
        matches_allowed(
            games_per_hour=100, games_last_hour=92, games_per_match=4, in_flight=0, max_in_flight=9
        )
        == 2
    )
    assert (
        matches_allowed(
            games_per_hour=100, games_last_hour=100, games_per_match=4, in_flight=0, max_in_flight=9
        )
        == 0
    )
    assert (
        matches_allowed(
            games_per_hour=1000, games_last_hour=0, games_per_match=4, in_flight=3, max_in_flight=4
        )
        == 1
    )


def test_no_pair_is_repeated_while_other_opponents_near_wait():
    """Four equal versions of four owners, one match at a time: each meets the three others
    before meeting anyone again."""
    played = Counter()
    history = History()
    met = []
    for _ in range(6):
        versions = [Version(i, f"o{i}", 25.0, 2.0, 10 + played[i]) for i in range(4)]
        (pair,) = next_pairs(versions, history, count=1)
        played.update(pair)
        met.append(tuple(sorted(pair)))
    assert len(set(met)) == 6  # all six pairs of four, none twice


def test_new_versions_place_first():
    settled = [Version(i, f"o{i}", 25.0 + i, 2.0, 50) for i in range(6)]
    newcomer = Version(99, "new", 25.0, 8.33, 0)
    (pair,) = next_pairs([*settled, newcomer], History(), count=1)
    assert 99 in pair


def test_a_version_plays_one_match_at_a_time():
    versions = [Version(i, f"o{i % 3}", 25.0 + i, 5.0) for i in range(9)]
    pairs = next_pairs(versions, History(), busy={0, 1}, count=10)
    seen = [v for p in pairs for v in p]
    assert len(seen) == len(set(seen)) and not {0, 1} & set(seen)
    assert len(pairs) == 3  # seven free versions: three matches


def test_peoples_new_versions_meet_each_other_before_the_houses_new_bots():
    """A new site: the built-in bots (no owner) are as new as two people's first uploads. The
    people's versions are paired first, and with each other."""
    house = [Version(i, "", 25.0, 8.33, 0) for i in range(1, 5)]
    people = [Version(10, "ana", 25.0, 8.33, 0), Version(11, "bruno", 25.0, 8.33, 0)]
    first, second = next_pairs([*house, *people], History(), count=2)
    assert set(first) == {10, 11}
    assert set(second) <= {1, 2, 3, 4}
