"""What a variant calls things at the table: its bets, answers, side bets, the hand played on the
threshold, its own extra actions. A variant declares a `Words` (engine/variant.py
`Variant.words`); the table, the story of a hand and the page's script ask the variant for them,
never its name, so a fifth variant brings its own words.

The names of bets and answers are the players' own words and stay as they are in every
language. Descriptions (the labels and hints of a variant's extra actions) are English, marked
with `gettext_noop` so that the site's translation catalogue collects them and translates them
when shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any


def gettext_noop(message: str) -> str:
    """Marks a message for translation without translating it here (engine code has no
    language): the site translates it when it shows it."""
    return message


@dataclass(frozen=True)
class ExtraAction:
    """An action verb particular to a variant (Mineiro's lots: keep, burn, pass), as the table
    offers it: its label and what choosing it does."""

    label: str
    hint: str = ""


@dataclass(frozen=True)
class Words:
    raises: tuple[str, ...]  # the ladder's steps after the hand's own value: truco, seis, ...
    accept: str  # accepting a bet: aceito, quiero
    refuse: str  # refusing it: corro, no quiero
    manilha: str | None = None  # what the strongest cards are called, where they have a name
    hand_of_n: str | None = None  # the hand a team plays on the threshold: mão de onze / dez
    # The side bets' actions and their names at the table (Argentino: envido, flor).
    side_bets: Mapping[str, str] = field(default_factory=dict)
    side_bet_accept: str | None = None  # accepting a side bet, where it has its own word
    side_bet_refuse: str | None = None
    fold: str | None = None  # what folding the hand is called (irse al mazo)
    extra_actions: Mapping[str, ExtraAction] = field(default_factory=dict)

    def __post_init__(self):
        object.__setattr__(self, "side_bets", MappingProxyType(dict(self.side_bets)))
        object.__setattr__(self, "extra_actions", MappingProxyType(dict(self.extra_actions)))

    def raise_name(self, step: int) -> str:
        """The name of ladder step `step` (1: the first raise); past the named steps, the last."""
        return self.raises[step - 1] if 0 < step <= len(self.raises) else self.raises[-1]

    def to_json(self) -> dict[str, Any]:
        return {
            "raises": list(self.raises),
            "accept": self.accept,
            "refuse": self.refuse,
            "manilha": self.manilha,
            "hand_of_n": self.hand_of_n,
            "side_bets": dict(self.side_bets),
            "side_bet_accept": self.side_bet_accept or self.accept,
            "side_bet_refuse": self.side_bet_refuse or self.refuse,
            "fold": self.fold,
        }


BRAZILIAN = Words(
    raises=("truco", "seis", "nove", "doze"),
    accept="aceito",
    refuse="corro",
    manilha="manilha",
    hand_of_n="mão de onze",
)
