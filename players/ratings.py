"""Ratings across tournaments, per variant, with uncertainty: openskill's Plackett-Luce model,
which rates teams (a 2v2 team of two humans) as well as single bots.

A competitive match updates its players' ratings once, in the same transaction that records it
(so a match recorded once is rated once); each update is kept as a RatingPoint (a rating's
history). A drawn match is a tie. Byes are not rated.
"""

from __future__ import annotations

from functools import lru_cache

from django.utils import timezone
from openskill.models import PlackettLuce

from players.models import Rating, RatingPoint
from stack.bulk import insert_rows, update_rows


@lru_cache(maxsize=1)
def model() -> PlackettLuce:
    return PlackettLuce()


def default_ordinal() -> float:
    fresh = model().rating()
    return fresh.mu - 3 * fresh.sigma


def rate_teams(
    teams: list[list[tuple[float, float]]], winner: int | None
) -> list[list[tuple[float, float]]]:
    """New (mu, sigma) of each player of two teams; `winner` is 0, 1 or None for a draw."""
    m = model()
    rated = [[m.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams]
    ranks = [1, 1] if winner is None else [1 + (winner != 0), 1 + (winner != 1)]
    new = m.rate(rated, ranks=ranks)
    return [[(r.mu, r.sigma) for r in team] for team in new]


def rate(variant: str, team_a: list[int], team_b: list[int], winner: int | None) -> None:
    """Update the ratings of the players (ids) of both sides of a finished match; `winner` is
    0 (side A), 1 (side B) or None for a draw. Call inside the transaction that records the
    match: rating rows are locked in player order, so two matches that share a player neither
    deadlock nor lose an update."""
    rate_many(variant, [(team_a, team_b, winner)])


def rate_many(variant: str, results: list[tuple[list[int], list[int], int | None]]) -> None:
    """`rate` for several matches (team A, team B, winner) of one variant, one after the other
    in the given order, with every player's row locked once (all of them, in player order) and
    written once: what the matches recorded in one transaction cost in round trips is three
    statements, not three a match."""
    results = [
        (team_a, team_b, winner)
        for team_a, team_b, winner in results
        # a player on both sides (a bot against itself): nothing to learn; robots played a
        # side nobody sat at: nobody to rate against
        if team_a and team_b and not set(team_a) & set(team_b)
    ]
    if not results:
        return
    players = sorted({p for team_a, team_b, _ in results for p in (*team_a, *team_b)})
    locked = Rating.objects.select_for_update().filter(variant=variant, player_id__in=players)
    rows = {r.player_id: r for r in locked.order_by("player_id")}
    if len(rows) < len(players):  # first rated match of someone in this variant
        fresh = model().rating()
        Rating.objects.bulk_create(
            [
                Rating(player_id=p, variant=variant, mu=fresh.mu, sigma=fresh.sigma)
                for p in players
                if p not in rows
            ],
            ignore_conflicts=True,  # another match may have created it meanwhile
        )
        rows = {r.player_id: r for r in locked.order_by("player_id")}
    now = timezone.now()
    points = []
    for team_a, team_b, winner in results:
        teams = [[(rows[p].mu, rows[p].sigma) for p in team] for team in (team_a, team_b)]
        for team, new in zip((team_a, team_b), rate_teams(teams, winner), strict=True):
            for player, (mu, sigma) in zip(team, new, strict=True):
                row = rows[player]
                row.mu, row.sigma, row.matches, row.updated_at = mu, sigma, row.matches + 1, now
        points += [
            {
                "rating_id": row.pk,
                "mu": row.mu,
                "sigma": row.sigma,
                "matches": row.matches,
                "at": now,
            }
            for row in (rows[p] for p in sorted({*team_a, *team_b}))
        ]
    update_rows(list(rows.values()), ["mu", "sigma", "matches", "updated_at"])
    insert_rows(RatingPoint, points)
