"""A bot that picks uniformly among the legal actions, with its seat's own generator."""

from __future__ import annotations

from engine.bot import Bot
from engine.hookspecs import hookimpl


class RandomBot(Bot):
    def act(self, observation):
        return self.rng.choice(observation.legal)


@hookimpl
def truco_register_bots(register):
    register("random", RandomBot)
