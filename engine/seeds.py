"""Deal seeds: how one seed gives the next (one way only), and the commitment that is shown
before a seed may be.

A match's seed gives its games' seeds, a tournament's seed its matches' seeds. Every step is a
keyed hash (blake2b), so that a seed revealed once its match or game is over says nothing of its
siblings or of its parent: nobody can work back from a finished game to the deals still to come.
Before a seed is revealed the public sees its commitment (sha256), which pins the seed without
giving it away; afterwards anyone can check the revealed seed against it.
"""

from __future__ import annotations

import hashlib

# Seeds are stored in signed 64-bit columns; 63 bits is too many to guess from a commitment.
SEED_BITS = 63
COMMITMENT_PREFIX = "truco-seed:"


def derive(seed: int, name: str) -> int:
    """A child seed of `seed` for `name` (a match key, "game/3"...): a 63-bit one-way hash."""
    digest = hashlib.blake2b(f"{seed}/{name}".encode(), digest_size=8, person=b"truco-derive")
    return int.from_bytes(digest.digest(), "big") >> (64 - SEED_BITS)


def game_seed(match_seed: int, index: int) -> int:
    """The deal seed of game (or duplicate pair) `index` of a match."""
    return derive(match_seed, f"game/{index}")


def seed_commitment(seed: int) -> str:
    """What the public sees of a seed until it may be revealed: sha256 of "truco-seed:<seed>",
    in hex, so that anyone can check it with one line of any language."""
    return hashlib.sha256(f"{COMMITMENT_PREFIX}{seed}".encode()).hexdigest()


def decider_seed(match_seed: int, number: int) -> int:
    """The seed of the `number`th extra game that settles a drawn elimination match (the seed
    of a one-game match, as the tournaments have always played it)."""
    return derive(match_seed, f"decider/{number}")


def decider_game_seed(match_seed: int, number: int) -> int:
    """The deal seed of the `number`th decider."""
    return game_seed(decider_seed(match_seed, number), 0)
