"""When a deal seed may be shown. Until then everyone sees its commitment instead (a hash that
pins the seed without giving it away, engine/seeds.py), so that the deals can be checked
afterwards against what was published before they were played.

- A match's seed, and its games' seeds, once the match is done or cancelled. Not while it is
  failed: a failed match may be played again on the same deals.
- A tournament's seed once the tournament is done or cancelled: every match seed derives from
  it, also those of rounds not paired yet.
"""

from __future__ import annotations

from typing import Any

from engine.seeds import seed_commitment
from tournaments.models import Match, Tournament

MATCH_REVEALED = (Match.Status.DONE, Match.Status.CANCELLED)
TOURNAMENT_REVEALED = (Tournament.Status.DONE, Tournament.Status.CANCELLED)


def match_seed_revealed(match: Match) -> bool:
    return match.status in MATCH_REVEALED


def tournament_seed_revealed(tournament: Tournament) -> bool:
    return tournament.status in TOURNAMENT_REVEALED


def seed_fields(seed: int, revealed: bool) -> dict[str, Any]:
    """`seed` (None until revealed) and `seed_commitment`, as the API and the pages show them."""
    return {"seed": seed if revealed else None, "seed_commitment": seed_commitment(seed)}
