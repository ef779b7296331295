"""The bot interface. A bot is created per seat and per game (or, if it opts in, per seat and per
match) and only ever sees observations."""

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
    the global `random`, so that matches are reproducible from their seed.

    `parameters` names the bot parameters the bot takes (`self.params`, or keyword arguments of
    its own `__init__`); any other parameter is refused when the bot is built, wherever it is
    built (in the worker, the CLI or a sandboxed child process), so a misspelt one is an error
    rather than silently ignored. A bot without parameters takes none.

    Memory across the games of a match: by default a bot is built afresh for every game. A bot
    class that sets `match_memory = True` is built once per seat per match instead (for the
    first game it plays in it) and then hears each further game through `new_game(seat=...,
    rng=...)`: its seat in that game (sides alternate, so it changes) and that game's own
    generator; whatever else it keeps (a model of its opponent, say) lasts the match. Outside a
    match (a single game, a robot standing in at a table) it is built for the game as usual. A
    bot in the jail runs in one process per match anyway (docs/bot-protocol.md)."""

    parameters: tuple[str, ...] = ()
    match_memory: bool = False  # True: one instance per seat for the whole match (new_game)

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
        self.reject_unknown_params(self.parameters)

    def reject_unknown_params(self, known) -> None:
        """A parameter not in `known` is an error, not ignored (Bot.__init__ checks `parameters`;
        a bot whose own `__init__` takes keyword arguments has already consumed those)."""
        unknown = sorted(set(self.params) - set(known))
        if unknown:
            raise TypeError(
                f"unknown parameter {', '.join(unknown)}; valid: {', '.join(sorted(known)) or 'none'}"
            )

    def new_game(self, *, seat: int, rng: random.Random) -> None:
        """A new game of the match starts (only for `match_memory` bots, from their second game
        on): this game's seat and generator. Override to reset per-game state; call this one."""
        self.seat = seat
        self.rng = rng

    def act(self, observation: Observation) -> str:
        """Return one of `observation.legal`."""
        raise NotImplementedError

    def on_hand_end(self, observation: Observation) -> None:
        """Called after each hand with this seat's view of the state that follows it."""

    def on_game_end(self, observation: Observation) -> None:
        """Called once when the game ends."""
