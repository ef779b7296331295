"""Ranking points (RULES.md section 5): the source site's simple ladder, apart from the openskill
ratings. A competitive game gives each human who won it 20 points and each who lost it 5, unless
two players at the table play from the same IP address (one person could be both)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.db.models import F

from tables.models import Wallet

WIN_POINTS = 20
LOSS_POINTS = 5


def shared_address(addresses: Mapping[int, Iterable[str]]) -> bool:
    """True if two players (player id: the addresses seen from them) share an address."""
    seen: dict[str, int] = {}
    for player, ips in addresses.items():
        for ip in set(ips):
            if seen.setdefault(ip, player) != player:
                return True
    return False


def award(winners: Iterable[int], losers: Iterable[int]) -> None:
    """Add the points of one game, in the caller's transaction."""
    for ids, points in ((set(winners), WIN_POINTS), (set(losers), LOSS_POINTS)):
        if ids:
            Wallet.objects.bulk_create([Wallet(player_id=pk) for pk in ids], ignore_conflicts=True)
            Wallet.objects.filter(player_id__in=ids).update(
                ranking_points=F("ranking_points") + points
            )
