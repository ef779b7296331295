"""Hostile bots that try to publish what they found (here a fake secret) through the only
channels a forfeit has: the exception's message, their log, their answers."""

from __future__ import annotations

import os
import sys

from engine.bot import Bot
from engine.hookspecs import hookimpl

SECRET = "FAKE-SECRET-postgres://admin:hunter2@db"


class RaisesSecret(Bot):
    def act(self, observation):
        raise RuntimeError(f"found {SECRET}")


class LogsSecretAndExits(Bot):
    """Writes the secret to its log (standard error), then dies mid-game."""

    def act(self, observation):
        print(f"stderr {SECRET}", file=sys.stderr, flush=True)
        os._exit(3)


class PrintsSecretAndExits(Bot):
    """Prints the secret (the jail's shim sends a bot's prints to its log), then dies."""

    def act(self, observation):
        print(f"stdout {SECRET}", flush=True)
        os._exit(3)


class AnswersSecret(Bot):
    def act(self, observation):
        return f"play {SECRET}"


BOTS = {
    "leaky-raises": RaisesSecret,
    "leaky-exits": LogsSecretAndExits,
    "leaky-stdout": PrintsSecretAndExits,
    "leaky-illegal": AnswersSecret,
}


@hookimpl
def truco_register_bots(register):
    for name, factory in BOTS.items():
        register(name, factory)
