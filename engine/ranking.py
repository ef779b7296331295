"""Card strength tables: a number per card, higher beats lower, equal numbers tie."""

from __future__ import annotations

from .cards import FRENCH_SUITS

# Manilha suits from weakest to strongest: ouros (diamonds), espadilha, copas, zap (clubs).
MANILHA_SUIT_ORDER = tuple(reversed(FRENCH_SUITS))


def vira_tables(ranks: tuple[str, ...], deck: tuple[str, ...]) -> dict[str, dict[str, int]]:
    """For each vira card, the strength of every card of `deck`. The manilhas are the rank that
    follows the vira's in the cycle `ranks` (after the last comes the first); outside manilhas
    suits do not matter."""
    tables: dict[str, dict[str, int]] = {}
    by_rank: dict[str, dict[str, int]] = {}
    for i, vira_rank in enumerate(ranks):
        manilha = ranks[(i + 1) % len(ranks)]
        table = {}
        for card in deck:
            rank, suit = card[:-1], card[-1]
            if rank == manilha:
                table[card] = len(ranks) + MANILHA_SUIT_ORDER.index(suit)
            else:
                table[card] = ranks.index(rank)
        by_rank[vira_rank] = table
    for card in deck:
        tables[card] = by_rank[card[:-1]]
    return tables


def fixed_table(order_high_to_low: list[list[str]]) -> dict[str, int]:
    """A fixed ranking: groups of equal cards, strongest group first."""
    top = len(order_high_to_low)
    return {card: top - i for i, group in enumerate(order_high_to_low) for card in group}
