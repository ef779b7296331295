"""Checking a game record's cards against a seed: dealing afresh from the seed must give exactly
the first dealer and every card of every hand the record shows. This is what lets anyone
verify, once a seed is revealed, that the deals were fixed before the game was played."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import TrucoError
from .plugins import registry


def deal_differences(record: Mapping[str, Any], seed: int) -> list[str]:
    """Where `record` differs from the deals of `seed` (empty when every card matches)."""
    try:
        variant = registry().variant(record["variant"])
        state = variant.new_game(record["players"], record.get("options") or None, seed=seed)
        hands = record["hands"]
        differences = []
        if state.first_dealer != record["first_dealer"]:
            differences.append(
                f"first dealer: the seed deals from seat {state.first_dealer}, "
                f"the record says {record['first_dealer']}"
            )
        for k, hand in enumerate(hands):
            dealt = state.rules.deal_to_record(state.deals.deal(k))
            for key, expected in dealt.items():
                if hand.get(key) != expected:
                    differences.append(
                        f"hand {k} {key}: the seed deals {expected}, the record says "
                        f"{hand.get(key)}"
                    )
        return differences
    except (KeyError, TypeError, AttributeError, TrucoError) as exc:
        return [f"the record cannot be dealt again: {type(exc).__name__}: {exc}"]
