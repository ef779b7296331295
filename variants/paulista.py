"""Truco Paulista (RULES.md section 1): vira and manilhas, truco 1-3-6-9-12, mão de onze and
mão de ferro, covered cards; 2 or 4 players."""

from __future__ import annotations

from engine.cards import CLEAN_RANKS, DECKS, FRENCH_RANKS
from engine.hookspecs import hookimpl
from engine.options import Option, OptionSchema
from engine.ranking import vira_tables
from engine.rules import TrucoRules
from engine.table_words import BRAZILIAN
from engine.variant import Variant

TARGET = Option("target", "int", 12, "points that win the game", minimum=3, maximum=30)

PAULISTA_OPTIONS = (
    Option(
        "deck",
        "choice",
        "dirty",
        "dirty: 40 cards; clean: 24 cards (Q J K A 2 3)",
        ("dirty", "clean"),
    ),
    Option(
        "all_tied",
        "choice",
        "no_points",
        "when all three tricks tie: nobody scores, or the dealer's team wins the hand",
        ("no_points", "dealer_team"),
    ),
    Option(
        "covered_cards", "bool", True, "from the second trick on a card may be played face down"
    ),
    Option(
        "truco_at_eleven",
        "choice",
        "illegal",
        "truco in a hand of eleven or an iron hand: not allowed, or the caller's team loses the game",
        ("illegal", "loses_game"),
    ),
    Option("iron_hand_blind", "bool", True, "in the iron hand nobody sees their own cards"),
    TARGET,
)


class ViraRules(TrucoRules):
    """Strengths from the vira: the next rank in the cycle makes the four manilhas."""

    ranks = FRENCH_RANKS

    def __init__(self, variant_name, options):
        clean = options.get("deck") == "clean"
        self.deck_name = "french24" if clean else "french40"
        self.ranks = CLEAN_RANKS if clean else FRENCH_RANKS
        super().__init__(variant_name, options)
        self._tables = vira_tables(self.ranks, DECKS[self.deck_name])

    def strength_table(self, vira):
        return self._tables[vira]


class Paulista(Variant):
    name = "paulista"
    title = "Truco Paulista"
    summary = (
        "French deck (40 cards, or the clean 24). A turned card, the vira, makes the next rank "
        "the four manilhas (clubs > hearts > spades > diamonds), then 3 2 A K J Q 7 6 5 4. Best of "
        "three tricks; a hand is worth 1, and truco raises it to 3, 6, 9 and 12. A team on 11 sees "
        "its partner's cards and plays for 3 or runs (1 to the opponents); both on 11 play the "
        "iron hand blind. First to 12 wins."
    )
    players = (2, 4)
    schema = OptionSchema(PAULISTA_OPTIONS)
    rules_class = ViraRules
    words = BRAZILIAN


@hookimpl
def truco_register_variants(register):
    register(Paulista())
