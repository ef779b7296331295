"""Reading a live table in a test as it stands (no row lock: the test runs outside any
transaction on PostgreSQL, where a lock would be an error)."""

from __future__ import annotations

from tables.models import LiveMatch
from tables.services import Table, table_of
from tournaments.models import Match


def table_now(match_id: int) -> Table:
    match = Match.objects.get(pk=match_id)
    return table_of(match, LiveMatch.objects.get(match=match))


def first_legal_decision(table, player_id: int) -> dict:
    """A host's `act` command for the first legal action of the seat to act at `table` (a
    table a host keeps), sent by its person `player_id`."""
    seat = table.game.to_act
    return {
        "player": player_id,
        "action": table.game.observation(seat).legal[0],
        "seat": seat,
        "turn": table.turn,
        "ip": "10.0.0.1",
    }
