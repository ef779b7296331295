"""Who plays whom next on a ladder, and how many matches the budget allows: plain Python, no
Django (the `.importlinter` pure contract holds it to that), so that a day of ladder time can be
simulated in seconds (tests/tournaments/test_ladder_simulation.py).

The pairing teaches the most it can within fairness:

1. **Owners share the ladder equally.** Every match gives each side's owner one appearance; an
   owner more than `owner_slack` appearances above the least-served owner who has a version
   free to play waits. So one user's fifty versions split one owner's share, and never starve
   another user's single version. (The operator's built-in bots are one owner too.)
2. **New and uncertain versions first**: a version whose sigma is above `placement_sigma` is
   still placing and is picked before settled ones; among equals, the higher sigma, then the
   fewer matches, then a person's version before the house's.
3. **An opponent near in rating**: among the `neighbours` nearest in mu (of owners within their
   share), the pair played least often in the window first, so that no pair is repeated while
   others near it wait; then the more uncertain, a person's version before the house's, the
   nearest.

A version is in at most one match at a time (`busy`): the scheduler passes those in flight.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Version:
    """A bot version on a board, as the policy sees it."""

    id: int
    owner: str  # the owner's key; "" for the operator's bots
    mu: float
    sigma: float
    matches: int = 0


@dataclass(frozen=True)
class Policy:
    placement_sigma: float = 4.0  # above it a version is still placing, and goes first
    neighbours: int = 8  # opponents considered: this many nearest in rating
    owner_slack: int = 2  # appearances an owner may be ahead of the least-served one


@dataclass
class History:
    """What the ladder played in its window (in-flight matches included): appearances per
    owner and per version, and how often each pair met."""

    owner_load: Counter[str] = field(default_factory=Counter)
    version_load: Counter[int] = field(default_factory=Counter)
    pair_count: Counter[tuple[int, int]] = field(default_factory=Counter)

    @classmethod
    def of(cls, pairs: Iterable[tuple[int, int]], owners: dict[int, str]) -> History:
        history = cls()
        for a, b in pairs:
            history.add(a, b, owners)
        return history

    def add(self, a: int, b: int, owners: dict[int, str]) -> None:
        for v in (a, b):
            self.version_load[v] += 1
            if v in owners:
                self.owner_load[owners[v]] += 1
        self.pair_count[pair_key(a, b)] += 1


def pair_key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def next_pairs(
    versions: Sequence[Version],
    history: History,
    busy: set[int] | frozenset[int] = frozenset(),
    count: int = 1,
    policy: Policy = Policy(),
) -> list[tuple[int, int]]:
    """Up to `count` matches to start now, (a, b) version ids, the most useful first. Updates
    `history` with them (they are in flight from now on)."""
    owners = {v.id: v.owner for v in versions}
    free = [v for v in versions if v.id not in busy]
    free_per_owner = Counter(v.owner for v in free)
    by_need = sorted(free, key=lambda v: need(v, policy))
    by_mu = sorted(free, key=lambda v: (v.mu, v.id))
    mus = [v.mu for v in by_mu]
    taken: set[int] = set()
    chosen: list[tuple[int, int]] = []
    load = history.owner_load
    while len(chosen) < count and len(free) - len(taken) >= 2:
        floor = min(load[o] for o, n in free_per_owner.items() if n)
        fair = floor + policy.owner_slack
        first = next(
            (v for v in by_need if v.id not in taken and load[v.owner] <= fair),
            None,
        )
        if first is None:
            break
        taken.add(first.id)
        second = _opponent(first, by_mu, mus, taken, history, fair, policy)
        if second is None:
            break
        taken.add(second.id)
        for v in (first, second):
            free_per_owner[v.owner] -= 1
        chosen.append((first.id, second.id))
        history.add(first.id, second.id, owners)
    return chosen


def need(v: Version, policy: Policy) -> tuple:
    """The order in which versions ask for a match: placing ones first, then the uncertain;
    among equals a person's version before the house's (the ladder is for people's bots, the
    built-in ones are yardsticks)."""
    return (v.sigma <= policy.placement_sigma, -v.sigma, v.matches, is_house(v), v.id)


def is_house(v: Version) -> bool:
    """One of the operator's built-in bots (no owner)."""
    return v.owner == ""


def _opponent(first, by_mu, mus, taken, history, fair, policy):
    """Among the `neighbours` free versions nearest in rating (of owners within their share;
    if there are none, of anyone free, since a match is better than none), the pair met least
    often, then the more uncertain (it learns too), then the nearest."""
    within = lambda v: history.owner_load[v.owner] <= fair  # noqa: E731
    near = _nearest(first.mu, by_mu, mus, taken, within, policy.neighbours)
    if not near:
        near = _nearest(first.mu, by_mu, mus, taken, lambda v: True, policy.neighbours)
    if not near:
        return None
    return min(
        near,
        key=lambda v: (
            history.pair_count[pair_key(first.id, v.id)],
            v.owner == first.owner,  # another owner's version teaches more
            -round(v.sigma, 1),
            is_house(v),  # people's bots meet each other when nothing else tells them apart
            abs(v.mu - first.mu),
            v.id,
        ),
    )


def _nearest(mu, by_mu, mus, taken, allowed, k):
    """The k versions nearest to `mu` that are free and allowed, walking out from it."""
    found = []
    right = bisect.bisect_left(mus, mu)
    left = right - 1
    while len(found) < k and (left >= 0 or right < len(by_mu)):
        go_left = right >= len(by_mu) or (left >= 0 and mu - mus[left] <= mus[right] - mu)
        v = by_mu[left] if go_left else by_mu[right]
        if go_left:
            left -= 1
        else:
            right += 1
        if v.id not in taken and allowed(v):
            found.append(v)
    return found


def matches_allowed(
    *,
    games_per_hour: int,
    games_last_hour: int,
    games_per_match: int,
    in_flight: int,
    max_in_flight: int,
) -> int:
    """How many new matches the budget allows now: the games left in this hour's budget (in
    flight matches counted as played), within the cap of matches in flight at once."""
    if games_per_match <= 0 or games_per_hour <= 0:
        return 0
    by_budget = max(0, games_per_hour - games_last_hour) // games_per_match
    return max(0, min(by_budget, max_in_flight - in_flight))


def ranked(versions: Iterable[Version]) -> list[Version]:
    """The board's order: the conservative rating (mu - 3 sigma), best first."""
    return sorted(versions, key=lambda v: (-(v.mu - 3 * v.sigma), v.id))
