"""Each seat's own random seed: derived one-way from the deal seed with a secret, so that nothing
a bot is given lets it compute the deal (and so the other seats' cards).

The secret is `TRUCO_BOT_SEED_SECRET` when set (the server sets it from its settings, so that a
match played again plays the same way); otherwise one is drawn at random for this process and
put in its environment, so that the worker processes it spawns (`--jobs`) share it. Bots in the
jail never see the environment."""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets

ENV = "TRUCO_BOT_SEED_SECRET"


def configure(value: str) -> None:
    """Use this secret from now on, in this process and the ones it starts."""
    os.environ[ENV] = value


def secret() -> bytes:
    value = os.environ.get(ENV)
    if not value:
        value = os.environ[ENV] = secrets.token_hex(32)
    return value.encode()


def bot_seed(game_seed: int, seat: int, salt: int = 0) -> int:
    """A 63-bit seed for `seat` in the game dealt from `game_seed` (`salt` tells apart the bots
    of one seat created at different points of one game, as at human tables)."""
    message = f"truco-bot-seed:{game_seed}:{seat}:{salt}".encode()
    digest = hmac.new(secret(), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1
