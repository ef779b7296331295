"""Cards and decks in the notation of RECORDS.md: rank then a lower-case suit letter.

Cards are plain strings ("4c", "7h", "12e"): they are what records, actions and the REST API
carry, and short interned strings are as fast as ints as dictionary keys.
"""

from __future__ import annotations

from .errors import RecordError

# French ranks in the manilha cycle, weakest to strongest (RULES.md 1): after 3 comes 4 again.
FRENCH_RANKS = ("4", "5", "6", "7", "Q", "J", "K", "A", "2", "3")
# The clean deck (seed 001) keeps only these ranks; its cycle is Q J K A 2 3.
CLEAN_RANKS = ("Q", "J", "K", "A", "2", "3")
# Suits in manilha order, strongest first: zap (clubs), copas, espadilha, ouros.
FRENCH_SUITS = ("c", "h", "s", "d")

SPANISH_RANKS = ("1", "2", "3", "4", "5", "6", "7", "10", "11", "12")
SPANISH_SUITS = ("e", "b", "o", "c")

DECKS: dict[str, tuple[str, ...]] = {
    "french40": tuple(r + s for s in FRENCH_SUITS for r in FRENCH_RANKS),
    "french24": tuple(r + s for s in FRENCH_SUITS for r in CLEAN_RANKS),
    "spanish40": tuple(r + s for s in SPANISH_SUITS for r in SPANISH_RANKS),
}


def rank_of(card: str) -> str:
    return card[:-1]


def suit_of(card: str) -> str:
    return card[-1]


def check_card(card: object, deck: str) -> str:
    """Return `card` if it belongs to `deck`, else raise a RecordError naming it."""
    if not isinstance(card, str) or card not in DECKS[deck]:
        raise RecordError(f"unknown card {card!r} for the {deck} deck")
    return card
