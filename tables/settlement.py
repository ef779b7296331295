"""Paying a finished game of a live table (RULES.md section 5), once: the pot of a staked
competitive game (`tables.chips`) and the ranking points of a competitive one
(`tables.ranking`). Practice tables pay nothing; a game between players who share an IP
address moves neither ranking points nor chips (the stakes stay with their owners), so that
throwaway accounts cannot feed a main one. Called in the transaction that ends the game, under
the live match's lock."""

from __future__ import annotations

from django.db import connection
from django.utils import timezone

from tables import chips, ranking
from tables.models import Presence, SettledGame, TableSettings
from tournaments.seating import Seat

SHARED_IP = "two players at the table share an IP address"


def addresses(live_id: int, players: set[int]) -> dict[int, list[str]]:
    rows = Presence.objects.filter(live_id=live_id, player_id__in=players)
    return {player: ips for player, ips in rows.values_list("player_id", "ips")}


def settle_game(
    match_id: int, index: int, table: TableSettings, seats: list[Seat], winner: int | None
) -> SettledGame | None:
    """Pay game `index` of the match, played at `seats` and won by team `winner` (None: no
    winner). Nothing for a practice table or a game already paid (a re-run match)."""
    humans = {s.player for s in seats if s.is_human}
    if not table.competitive or not humans:
        return None
    winning = {s.seat for s in seats if winner is not None and s.seat % 2 == winner}
    # One person shares an address with nobody: their addresses need not be read.
    shared = len(humans) > 1 and ranking.shared_address(addresses(match_id, humans))
    settled = SettledGame(
        match_id=match_id,
        index=index,
        stake=table.stake,
        ranked=not shared and winner is not None,
        not_ranked_because=SHARED_IP if shared else "" if winner is not None else "no winner",
    )
    if table.stake and not shared:
        if SettledGame.objects.filter(match_id=match_id, index=index).exists():
            return None
        balances = {pk: w.chips for pk, w in chips.locked_wallets(humans).items()}
        moves, settled.pot, settled.bank_share = chips.game_movements(
            table.stake, {s.seat: s.player for s in seats}, winning, balances
        )
        chips.apply(moves, match_id=match_id, game_index=index)
        settled.save()
    elif not claimed(settled):
        return None  # paid already
    if settled.ranked:
        ranking.award(
            {s.player for s in seats if s.is_human and s.seat in winning},
            {s.player for s in seats if s.is_human and s.seat not in winning},
        )
    return settled


def claimed(settled: SettledGame) -> bool:
    """Insert the row of a game whose pay is known before paying it (no chips move), unless the
    game was paid already: one statement where a look, then an insert, were two."""
    meta = SettledGame._meta
    fields = [f for f in meta.concrete_fields if not f.primary_key]
    settled.settled_at = timezone.now()
    quote = connection.ops.quote_name
    columns = ", ".join(quote(f.column) for f in fields)
    unique = ", ".join(quote(meta.get_field(name).column) for name in ("match", "index"))
    values = [f.get_db_prep_save(getattr(settled, f.attname), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {quote(meta.db_table)} ({columns}) "
            f"VALUES ({', '.join(['%s'] * len(fields))}) "
            f"ON CONFLICT ({unique}) DO NOTHING RETURNING {quote(meta.pk.column)}",
            values,
        )
        row = cursor.fetchone()
    if row is None:
        return False
    settled.pk = row[0]
    settled._state.adding = False
    return True
