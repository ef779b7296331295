"""Every random choice of a tournament derives from its seed and a name (a match key, "seeding"),
through a one-way hash that is the same in every process and every run: never hash() or the
clock. One-way, so that a match's seed revealed once it is finished gives neither the
tournament's seed nor any other match's (engine/seeds.py)."""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Mapping
from datetime import date
from typing import Any

from django.conf import settings

from engine.seeds import SEED_BITS, derive


def new_tournament_seed() -> int:
    """63 random bits: a seed nobody can guess, or find from its commitment by trying them all."""
    return secrets.randbits(SEED_BITS)


def derive_seed(seed: int, name: str) -> int:
    return derive(seed, name)


def match_seed(tournament_seed: int, key: str) -> int:
    return derive_seed(tournament_seed, f"match/{key}")


def daily_seed(day: date, variant: str, rules: Mapping[str, Any], players: int) -> int:
    """The seed of the day's deals (RULES.md section 5, seed 002): every daily table of the same
    variant, resolved rule options and number of players on the same UTC day deals alike.
    Keyed with the server's secret: otherwise anyone could compute the day's cards from the
    date, the variant and the options, all of them public."""
    canonical = json.dumps(rules, sort_keys=True, separators=(",", ":"), default=str)
    name = f"daily/{day.isoformat()}/{variant}/{players}/{canonical}"
    key = settings.TRUCO_DEAL_SECRET.encode()
    digest = hmac.new(key, name.encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)
