"""The interface of a variant's side bets (Argentino's envido and flor): what bots, the table and
the story of a hand need to know of them, without importing a variant's internals.

A variant with side bets sets `Variant.side_bets` to an object with this interface; a variant
without leaves it None. Everything here is arithmetic on public facts or on a seat's own cards:
nothing that would show a card a seat may not see.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class SideBets(Protocol):
    calls: tuple[str, ...]  # the actions that call or raise the side bet, in chain order
    flor_action: str | None  # the action that declares a flor, where the variant has one
    flor_value: int  # points per flor the winning team holds

    def points(self, cards: Sequence[str]) -> int:
        """What a hand of three cards is worth in the side bet (envido: best suit pair + 20)."""

    def has_flor(self, cards: Sequence[str]) -> bool:
        """Whether a hand of three cards is a flor."""

    def value_if_accepted(
        self, calls: Sequence[str], score: Sequence[int], target: int, team: int, rule: str
    ) -> int:
        """What the chain `calls` is worth to `team` if accepted, at this score."""

    def value_if_refused(self, calls: Sequence[str]) -> int:
        """What the callers of the chain `calls` score if its last call is refused."""

    def may_follow(self, calls: Sequence[str]) -> tuple[str, ...]:
        """The calls that may follow the chain `calls`."""
