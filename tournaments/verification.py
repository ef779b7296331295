"""Verifying a finished match: its revealed seed hashes to the commitment shown while it was
played, each game's seed derives from it (the match's plan, engine/match_plan.py), and
dealing each game again from its seed gives exactly the cards of its record. Shared by
`manage.py verify_match` and `GET /api/matches/{id}/verify/`."""

from __future__ import annotations

from typing import Any

from engine.deal_check import deal_differences
from engine.seeds import decider_game_seed, seed_commitment
from tournaments.models import Match
from tournaments.scheduling import match_plan
from tournaments.seed_disclosure import match_seed_revealed, tournament_seed_revealed
from tournaments.seeds import match_seed


class NotVerifiable(Exception):
    """The match cannot be verified yet (its seed is still secret)."""


def expected_seed(match: Match, planned: list[int], index: int) -> int:
    """The deal seed of game `index`: planned, or that of a decider after the plan."""
    if index < len(planned):
        return planned[index]
    return decider_game_seed(match.seed, index - len(planned))


def verify_match(match: Match, commitment: str | None = None) -> dict[str, Any]:
    """A report of every check: `ok` is true only when all of them pass. `commitment` is the
    one the caller saw before the match was over, if they kept it."""
    if not match_seed_revealed(match):
        raise NotVerifiable(
            f"match {match.pk} is {match.status}: its seed stays secret until it is done"
        )
    checks: list[dict[str, Any]] = []

    def check(name: str, ok: bool, detail: str) -> None:
        checks.append({"check": name, "ok": ok, "detail": detail})

    computed = seed_commitment(match.seed)
    if commitment is not None:
        given = commitment.strip().lower()
        check(
            "commitment",
            given == computed,
            "the revealed seed hashes to the commitment given"
            if given == computed
            else f"sha256 of the revealed seed is {computed}, not {given}",
        )
    tournament = match.tournament
    if tournament_seed_revealed(tournament):
        derived = match_seed(tournament.seed, match.key)
        check(
            "match seed",
            derived == match.seed,
            "derives from the tournament seed and the match key"
            if derived == match.seed
            else f"the tournament seed and key {match.key!r} give {derived}, not {match.seed}",
        )
    planned = [game.seed for game in match_plan(tournament, match.seed).scheduled]
    games = list(match.games.order_by("index"))
    for game in games:
        want = expected_seed(match, planned, game.index)
        check(
            f"game {game.index} seed",
            game.seed == want,
            "derives from the match seed" if game.seed == want else f"expected {want}",
        )
        differences = deal_differences(game.record, game.seed)
        check(
            f"game {game.index} cards",
            not differences,
            "every card is dealt by its seed" if not differences else "; ".join(differences),
        )
    return {
        "match": match.pk,
        "status": match.status,
        "seed": match.seed,
        "seed_commitment": computed,
        "games": len(games),
        "ok": all(c["ok"] for c in checks),
        "checks": checks,
    }
