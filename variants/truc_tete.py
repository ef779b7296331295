"""Truc Tete (RULES.md section 3, seed 004): Paulista's cards, vira and manilhas, played 1 vs 1 only.

Everything it needs is in the shared machinery: a tied trick goes to the player who won another
trick, a player never calls twice in a row, a runner gives the caller the value before the last
call, and truco in the hand of eleven loses the game at once. So the variant is a schema and a
summary over Paulista's vira rules.
"""

from __future__ import annotations

from engine.hookspecs import hookimpl
from engine.options import Option, OptionSchema
from engine.table_words import BRAZILIAN
from engine.variant import Variant
from variants.paulista import PAULISTA_OPTIONS, ViraRules

_PAULISTA = {option.name: option for option in PAULISTA_OPTIONS}

TRUC_TETE_OPTIONS = (
    _PAULISTA["covered_cards"],
    Option(
        "truco_at_eleven",
        "choice",
        "loses_game",
        "truco in the hand of eleven or the iron hand: the caller loses the game at once, or it "
        "is simply not allowed",
        ("loses_game", "illegal"),
    ),
    _PAULISTA["iron_hand_blind"],
    _PAULISTA["target"],
)


class TrucTete(Variant):
    name = "truc-tete"
    title = "Truc Tete"
    summary = (
        "One against one with the French 40-card deck. The vira makes the next rank the four "
        "manilhas (clubs > hearts > spades > diamonds), then 3 2 A K J Q 7 6 5 4. A tied trick "
        "goes to the player who wins another one; all three tied, nobody scores. A hand is worth "
        "1; truco raises it to 3, 6, 9 and 12, never twice in a row by the same player, and a "
        "player who runs gives the value before the last call. On 11 a player plays for 3 or "
        "gives 1, and calling truco then loses the game; both on 11 play blind. First to 12 wins."
    )
    players = (2,)
    schema = OptionSchema(TRUC_TETE_OPTIONS)
    rules_class = ViraRules
    words = BRAZILIAN


@hookimpl
def truco_register_variants(register):
    register(TrucTete())
