"""The chance that our envido points beat the other side's when it accepts our envido, from how
often it refuses one (Argentino): a side that refuses four chains in five accepts only with the
top fifth of hands, so even good points of ours lose to it, and a weak hand's envido is a point
it gives away by refusing.

The other side's points are those of random hands of the deck (each of its seats dealt three
cards), and it is taken to accept with its best hands, as many as it does not refuse. Only the
variant's own side-bet arithmetic (engine/side_bets.py) is used, never a card we may not see.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import combinations

from engine.cards import DECKS
from engine.plugins import get_variant


@lru_cache(maxsize=8)
def points_spread(variant: str, deck_name: str, seats: int) -> tuple[tuple[int, float], ...]:
    """(points, probability) of the best envido among `seats` random hands of the deck, highest
    first (two seats: a side of partners counts its better hand)."""
    side_bets = get_variant(variant).side_bets
    counts = Counter(side_bets.points(hand) for hand in combinations(DECKS[deck_name], 3))
    total = sum(counts.values())
    below, cdf = 0.0, {}
    for points in sorted(counts):
        below += counts[points] / total
        cdf[points] = below
    spread, previous = [], 0.0
    for points in sorted(cdf):
        at_most = cdf[points] ** seats
        spread.append((points, at_most - previous))
        previous = at_most
    return tuple(reversed(spread))


def beats_accepter(
    points: int, mano: bool, refuse_rate: float, variant: str, deck_name: str, seats: int = 1
) -> float:
    """The chance that `points` (ties go to the mano) beat a side that accepts with its best
    hands, refusing a share `refuse_rate` of our envidos."""
    accepting = min(max(1.0 - refuse_rate, 0.02), 1.0)
    left, beaten = accepting, 0.0
    for theirs, mass in points_spread(variant, deck_name, seats):
        taken = min(mass, left)
        if taken <= 0:
            break
        if points > theirs or (points == theirs and mano):
            beaten += taken
        left -= taken
    return beaten / accepting
