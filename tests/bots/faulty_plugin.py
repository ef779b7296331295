"""Bots that misbehave on purpose, registered through a real `truco` entry point by the
`faulty_bots` fixture (so child processes find them exactly as they find installed plugins)."""

from __future__ import annotations

import os
import time

from engine.bot import Bot
from engine.hookspecs import hookimpl


class Raises(Bot):
    def act(self, observation):
        raise ValueError("the bot broke")


class Illegal(Bot):
    def act(self, observation):
        return "play 9z"


class Malformed(Bot):
    def act(self, observation):
        return {"card": observation.legal[0]}


class SlowOnce(Bot):
    """Sleeps past the deadline on its first decision of the game only (told by the
    observation, since a child killed at its deadline comes back as a fresh bot)."""

    parameters = ("sleep",)

    def act(self, observation):
        mine = [a for s, a in observation.history if s == observation.seat]
        if observation.hand_no == 0 and not mine and not observation.tricks:
            time.sleep(float(self.params.get("sleep", 0.3)))
        return observation.legal[0]


class AlwaysSlow(Bot):
    parameters = ("sleep",)

    def act(self, observation):
        time.sleep(float(self.params.get("sleep", 0.3)))
        return observation.legal[0]


class Loops(Bot):
    def act(self, observation):
        while True:
            pass


class Exits(Bot):
    def act(self, observation):
        os._exit(3)


class Hog(Bot):
    """Tries to allocate far more memory than a child may have."""

    def act(self, observation):
        self.hoard = bytearray(8 * 1024**3)
        return observation.legal[0]


class Snoops(Bot):
    """Plays like `random` but breaks if it can see the runner's secrets."""

    def act(self, observation):
        if "TRUCO_TEST_SECRET" in os.environ:
            raise RuntimeError("the runner's environment leaked into the child")
        return self.rng.choice(observation.legal)


class Phones(Bot):
    """Plays like `random` but breaks if it can reach the port named in its parameters (the
    runner's database, say) over the network."""

    parameters = ("port",)

    def act(self, observation):
        import socket

        try:
            socket.create_connection(("127.0.0.1", self.params["port"]), timeout=2).close()
        except OSError:
            return self.rng.choice(observation.legal)
        raise RuntimeError("the child reached the network")


class BadStart(Bot):
    def __init__(self, **kwargs):
        raise RuntimeError("cannot start")


BOTS = {
    "faulty-phones": Phones,
    "faulty-raises": Raises,
    "faulty-illegal": Illegal,
    "faulty-malformed": Malformed,
    "faulty-slow-once": SlowOnce,
    "faulty-slow": AlwaysSlow,
    "faulty-loops": Loops,
    "faulty-exits": Exits,
    "faulty-hog": Hog,
    "faulty-snoops": Snoops,
    "faulty-bad-start": BadStart,
}


@hookimpl
def truco_register_bots(register):
    for name, factory in BOTS.items():
        register(name, factory)
