"""A variant plugin: its name, option schema, presets, rules summary and how to start a game."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from .deals import Deal, FixedDeals, SeededDeals
from .errors import OptionError
from .options import OptionSchema
from .rules import TrucoRules
from .side_bets import SideBets
from .state import GameState
from .table_words import Words


class Variant:
    name: ClassVar[str]
    title: ClassVar[str]
    summary: ClassVar[str]  # a short rules summary for the admin, the API and the web pages
    players: ClassVar[tuple[int, ...]] = (2, 4)
    schema: ClassVar[OptionSchema]
    rules_class: ClassVar[type[TrucoRules]]
    # What the table calls its bets and answers (engine/table_words.py): every variant says.
    words: ClassVar[Words]
    # Its side bets (Argentino's envido and flor: engine/side_bets.py), or None.
    side_bets: ClassVar[SideBets | None] = None

    def __init__(self) -> None:
        # Keyed by the resolved options, and by the preset alone (None: the defaults).
        self._rules: dict[tuple | str | None, TrucoRules] = {}

    @property
    def presets(self) -> Mapping[str, Mapping[str, Any]]:
        return self.schema.presets

    def resolve_options(self, options: Mapping[str, Any] | None = None, preset: str | None = None):
        return self.schema.resolve(options, preset)

    def rules(
        self, options: Mapping[str, Any] | None = None, preset: str | None = None
    ) -> TrucoRules:
        """The rules for these options; built once and shared, since rules hold no game state."""
        if not options:  # the common case, asked at every new game: skip resolving again
            known = self._rules.get(preset)
            if known is not None:
                return known
        resolved = self.resolve_options(options, preset)
        key = tuple(sorted(resolved.items()))
        rules = self._rules.get(key)
        if rules is None:
            rules = self._rules[key] = self.rules_class(self.name, resolved)
            rules.schema = self.schema
        if not options:
            self._rules[preset] = rules
        return rules

    def check_players(self, players: object) -> int:
        if type(players) is not int or players not in self.players:
            allowed = " or ".join(str(p) for p in self.players)
            raise OptionError(f"{self.name} is played by {allowed} players, not {players!r}")
        return players

    def new_game(
        self,
        players: int = 2,
        options: Mapping[str, Any] | None = None,
        *,
        preset: str | None = None,
        seed: int = 0,
        deals: Sequence[Deal] | FixedDeals | None = None,
        first_dealer: int | None = None,
        start_score: Sequence[int] = (0, 0),
    ) -> GameState:
        """A new game. Cards come from `deals` if given, else from `seed`; the first dealer is
        drawn from the seed too unless given, so one seed fixes the whole game."""
        players = self.check_players(players)
        rules = self.rules(options, preset)
        if deals is None:
            source = SeededDeals(
                seed, rules.deck, players, rules.uses_vira, self.extra_cards(rules, players)
            )
            if first_dealer is None:
                first_dealer = source.first_dealer
        elif isinstance(deals, FixedDeals):
            source = deals
        else:
            source = FixedDeals(list(deals))
        if first_dealer is None:
            first_dealer = random.Random(seed).randrange(players)
        return rules.new_state(players, source, first_dealer, start_score)

    def extra_cards(self, rules: TrucoRules, players: int) -> int:
        """How many cards beyond the hands and the vira a deal needs (Mineiro's lots)."""
        return 0

    def words_for(self, rules: TrucoRules) -> Words:
        """The words at a table of these rules (a preset may change them: Mineiro's pagat
        presets play the hand of eleven, not of ten)."""
        return self.words

    def deck_for(self, rules: TrucoRules) -> str:
        """The deck of these rules, as engine/cards.py names it (french40, french24, spanish40):
        the table draws its card faces from it."""
        return rules.deck_name

    def describe(self) -> dict[str, Any]:
        rules = self.rules()
        return {
            "name": self.name,
            "title": self.title,
            "players": list(self.players),
            "summary": self.summary,
            "options": self.schema.describe(),
            "presets": {k: dict(v) for k, v in self.schema.presets.items()},
            "deck": self.deck_for(rules),
            "words": self.words_for(rules).to_json(),
            "side_bets": list(self.side_bets.calls) if self.side_bets is not None else [],
        }
