"""Every random choice of a tournament derives from its seed and a name (a match key, "seeding"),
through a hash that is the same in every process and every run: never hash() or the clock."""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Mapping
from datetime import date
from typing import Any

# 40 bits keep the engine's game seeds (match seed * 1_000_003 + index) inside a signed 64-bit
# column, so every game's seed can be stored as it was played.
SEED_BITS = 40


def new_tournament_seed() -> int:
    return secrets.randbits(31)


def derive_seed(seed: int, name: str) -> int:
    digest = hashlib.blake2b(f"{seed}/{name}".encode(), digest_size=SEED_BITS // 8).digest()
    return int.from_bytes(digest, "big")


def match_seed(tournament_seed: int, key: str) -> int:
    return derive_seed(tournament_seed, f"match/{key}")


def decider_seed(match_seed: int, number: int) -> int:
    """The seed of the `number`th extra game that settles a drawn elimination match."""
    return derive_seed(match_seed, f"decider/{number}")


def daily_seed(day: date, variant: str, rules: Mapping[str, Any], players: int) -> int:
    """The seed of the day's deals (RULES.md section 5, seed 002): every daily table of the same
    variant, resolved rule options and number of players on the same UTC day deals alike."""
    canonical = json.dumps(rules, sort_keys=True, separators=(",", ":"), default=str)
    return derive_seed(0, f"daily/{day.isoformat()}/{variant}/{players}/{canonical}")
