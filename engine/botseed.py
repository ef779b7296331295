"""Each seat's own random seed: derived one-way from the deal seed with a secret, so that nothing
a bot is given lets it compute the deal (and so the other seats' cards).

The secret is `TRUCO_BOT_SEED_SECRET` when set: a server always sets it (from its settings,
tournaments/apps.py), so that a match played again plays the same way, and nobody outside knows
it. The command line (`python -m engine match`, `arena`, `check-bot`) without that variable
derives it from the run's `--seed` (`reproducible_from`), so that the same command gives the same
games, the bots' own random choices included. Such a secret is no secret, and need not be: whoever
knows a run's seed knows its deals already (engine/seeds.py derives them from it, in public), so
the bots' seeds tell nothing more; a server's deal seeds are its own, and so is its secret.
Anything else that plays without the variable draws a secret at random for its process.

The secret is put in the process's environment, so that the worker processes it spawns
(`--jobs`) share it. Bots in the jail never see the environment."""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets

ENV = "TRUCO_BOT_SEED_SECRET"

# Secrets this process put in the environment itself (drawn at random, or derived from a
# seed), as opposed to one its operator or the server's settings gave.
_OWN: set[str] = set()


def configure(value: str) -> None:
    """Use this secret from now on, in this process and the ones it starts."""
    os.environ[ENV] = value
    _OWN.discard(value)


def secret() -> bytes:
    value = os.environ.get(ENV)
    if not value:
        value = os.environ[ENV] = secrets.token_hex(32)
        _OWN.add(value)
    return value.encode()


def given_secret() -> bool:
    """Whether the secret in use was given (by the environment or `configure`), not made here."""
    value = os.environ.get(ENV)
    return bool(value) and value not in _OWN


def reproducible_from(seed: int) -> bool:
    """The command line's rule: unless a secret was given, derive it from the run's seed, so that
    the same seed gives the same bots' seeds. True when it did."""
    if given_secret():
        return False
    value = hashlib.sha256(f"truco-cli-bot-seeds:{seed}".encode()).hexdigest()
    os.environ[ENV] = value
    _OWN.add(value)
    return True


def bot_seed(game_seed: int, seat: int, salt: int = 0) -> int:
    """A 63-bit seed for `seat` in the game dealt from `game_seed` (`salt` tells apart the bots
    of one seat created at different points of one game, as at human tables)."""
    message = f"truco-bot-seed:{game_seed}:{seat}:{salt}".encode()
    digest = hmac.new(secret(), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1
