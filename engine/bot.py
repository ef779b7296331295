"""The bot interface. A bot is created per seat and per game and only ever sees observations."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from .observation import Observation


class DecisionTimeout(Exception):
    """Raised by a seat's actor whose hard deadline passed (a child-process bot that was killed):
    the runner plays the game's default move for it, and a second time forfeits the game."""


class BotCrashed(Exception):
    """Raised by a seat's actor whose bot died or raised out of reach (in a child process)."""


class Bot:
    """Subclass and implement `act`. `rng` is this seat's own seeded generator: use it, never
    the global `random`, so that matches are reproducible from their seed."""

    def __init__(
        self,
        *,
        variant: str,
        options: Mapping[str, Any],
        seat: int,
        players: int,
        rng: random.Random,
        **params: Any,
    ):
        self.variant = variant
        self.options = options
        self.seat = seat
        self.players = players
        self.rng = rng
        self.params = params

    def reject_unknown_params(self, known) -> None:
        """For bots with a fixed set of parameters: a misspelt one is an error, not ignored."""
        unknown = sorted(set(self.params) - set(known))
        if unknown:
            raise TypeError(
                f"unknown parameter {', '.join(unknown)}; valid: {', '.join(sorted(known)) or 'none'}"
            )

    def act(self, observation: Observation) -> str:
        """Return one of `observation.legal`."""
        raise NotImplementedError

    def on_hand_end(self, observation: Observation) -> None:
        """Called after each hand with this seat's view of the state that follows it."""

    def on_game_end(self, observation: Observation) -> None:
        """Called once when the game ends."""
