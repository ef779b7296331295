"""Where a game's cards come from: a seed, or the explicit deals of a record.

A deal source answers `deal(k)` for hand k. The seeded source draws hands in order from one
`random.Random(seed)` and caches them, so the same seed gives the same deals in every process and
on every run (never `hash()`), and a state that is explored twice sees the same cards twice.
"""

from __future__ import annotations

import random
from typing import NamedTuple


class Deal(NamedTuple):
    hands: tuple[tuple[str, ...], ...]  # seat i's three cards, in dealt order (slots 0, 1, 2)
    vira: str | None = None  # the turned card, where the variant has one
    extra: tuple[str, ...] = ()  # further cards from the stock, for variants that need them


class SeededDeals:
    def __init__(self, seed: int, deck: tuple[str, ...], players: int, vira: bool, extra: int = 0):
        self.seed = seed
        self._rng = random.Random(seed)
        self._deck = list(deck)
        self._players = players
        self._vira = vira
        self._extra = extra
        self._count = 3 * players + (1 if vira else 0) + extra
        self._deals: list[Deal] = []
        # Drawn before any card, so that one seed fixes the first dealer and every deal.
        self.first_dealer = self._rng.randrange(players)

    def deal(self, k: int) -> Deal:
        deals = self._deals
        while len(deals) <= k:
            cards = self._rng.sample(self._deck, self._count)
            n3 = 3 * self._players
            hands = tuple(tuple(cards[i : i + 3]) for i in range(0, n3, 3))
            vira = cards[n3] if self._vira else None
            extra = tuple(cards[n3 + (1 if self._vira else 0) :]) if self._extra else ()
            deals.append(Deal(hands, vira, extra))
        return deals[k]


class FixedDeals:
    """Explicit deals (from a record or a test). Past the last one there is no deal: None."""

    def __init__(self, deals: list[Deal]):
        self._deals = list(deals)

    def deal(self, k: int) -> Deal | None:
        return self._deals[k] if k < len(self._deals) else None

    def __len__(self) -> int:
        return len(self._deals)
