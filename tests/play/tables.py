"""Reading a live table in a test as it stands (no row lock: the test runs outside any
transaction on PostgreSQL, where a lock would be an error)."""

from __future__ import annotations

from tables.models import LiveMatch
from tables.services import Table, table_of
from tournaments.models import Match


def table_now(match_id: int) -> Table:
    match = Match.objects.get(pk=match_id)
    return table_of(match, LiveMatch.objects.get(match=match))
