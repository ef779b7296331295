"""Ranking points (RULES.md section 5): the source site's simple ladder, apart from the openskill
ratings. A competitive game gives each human who won it 20 points and each who lost it 5, unless
two players at the table play from the same IP address (one person could be both)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.db import connection

from tables.models import STARTING_CHIPS, Wallet

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
    """Add the points of one game, in the caller's transaction: one statement for winners and
    losers, a wallet made on first need (an upsert; rows taken in player order, as
    tables.chips.locked_wallets takes them). It was two a side: four at a game's end."""
    points = {pk: LOSS_POINTS for pk in losers} | {pk: WIN_POINTS for pk in winners}
    if not points:
        return
    meta = Wallet._meta
    table, player, chips, ranking = (
        connection.ops.quote_name(name)
        for name in (
            meta.db_table,
            meta.get_field("player").column,
            meta.get_field("chips").column,
            meta.get_field("ranking_points").column,
        )
    )
    rows = ", ".join(["(%s, %s, %s)"] * len(points))
    params = [value for pk in sorted(points) for value in (pk, STARTING_CHIPS, points[pk])]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({player}, {chips}, {ranking}) VALUES {rows} "
            f"ON CONFLICT ({player}) DO UPDATE SET {ranking} = {table}.{ranking} + "
            f"excluded.{ranking}",
            params,
        )
