"""Making the actor of a seat that code plays: one implementation of bot seeding for every game,
whoever drives it (the runner, a match, a table of people).

In-process bots are built for the game with their own generator, seeded one-way from the deal
seed and the seat (engine/botseed.py); a bot built in the middle of a game (a robot standing in
for a person, a game resumed from its saved actions) is salted with the number of actions so
far, so that it does not repeat the choices of the one before it. A bot class that opts in to
match memory (`Bot.match_memory`) is built once per seat per match and hears each new game
instead (`Bot.new_game`). Bots outside the runner's process (jail, remote) come from the match's
`SeatPool` and hear of each game and their seat in it, with the same seed.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping
from typing import Any

from .bot_spec import IN_PROCESS, BotSpec
from .botseed import bot_seed
from .errors import PluginError
from .protocol import ProtocolError
from .seats import MatchContext, SeatPool


class BrokenBot:
    """Stands in for a bot whose constructor raised: its first decision is a crash."""

    def __init__(self, error: str):
        self.error = error

    def act(self, observation):
        raise ProtocolError("the bot could not start", self.error)


class ActorMaker:
    """Makes the actors of one game: `make(seat, spec, salt)`.

    `seat_key(seat)` names the seat across the games of a match (side A's first place, say), so
    that the pool gives it the same process (or the same remembering bot) in every game."""

    def __init__(
        self,
        *,
        variant: str,
        options: Mapping[str, Any],
        players: int,
        seed: int,
        registry,
        decision_seconds: float | None = None,
        pool: SeatPool | None = None,
        seat_keys=None,
        game_index: int = 0,
    ):
        self.variant = variant
        self.options = options
        self.players = players
        self.seed = seed
        self.registry = registry
        self.decision_seconds = decision_seconds
        self.pool = pool
        self.seat_keys = seat_keys
        self.game_index = game_index

    def seat_key(self, seat: int) -> Hashable:
        return self.seat_keys[seat] if self.seat_keys is not None else seat

    def make(self, seat: int, spec: BotSpec | str, salt: int = 0, key: Hashable = None):
        spec = BotSpec.of(spec)
        seed = bot_seed(self.seed, seat, salt)
        key = self.seat_key(seat) if key is None else key
        if spec.isolation != IN_PROCESS:
            if self.pool is None:
                raise PluginError("bots outside the runner's process need a SeatPool to live in")
            if spec.registered:
                self.registry.bot(spec.name)  # an unknown name fails here, before a jail starts
            context = MatchContext(self.variant, self.options, self.players, self.decision_seconds)
            actor = self.pool.actor(key, spec, context)
            actor.begin_game(game=self.game_index, seat=seat, seed=seed)
            return actor
        factory = self.registry.bot(spec.name)
        rng = random.Random(seed)
        remembers = self.pool is not None and getattr(factory, "match_memory", False) is True
        if remembers:
            kept = self.pool.kept(key, spec)
            if kept is not None:
                try:
                    kept.new_game(seat=seat, rng=rng)
                except Exception as exc:  # as a constructor that raised: this game's crash
                    return BrokenBot(f"{type(exc).__name__}: {exc}")
                return kept
        try:
            bot = factory(
                variant=self.variant,
                options=self.options,
                seat=seat,
                players=self.players,
                rng=rng,
                **dict(spec.params),
            )
        except Exception as exc:  # as in the jail: the game ends as this seat's crash
            return BrokenBot(f"{type(exc).__name__}: {exc}")
        if remembers:
            self.pool.keep(key, spec, bot)
        return bot


def close_bots(seats) -> None:
    """Stop out-of-process actors (in-process bots have nothing to stop)."""
    for bot in seats:
        close = getattr(bot, "close", None)
        if close is not None:
            close()
