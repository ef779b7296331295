"""A table host's database connections, on PostgreSQL without the per-test transaction: its
robots think in threads of their own that keep no connection, so a host holds at most
TRUCO_TABLE_HOST_DB_THREADS of them however many robots think at once. With one pool of 64
threads for both, each kept the connection it once opened: two hosts under 500 people opened
more than PostgreSQL's 100 and their people were told "too many clients"."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from django.db import connection

from tables.host import Held, TableHost
from tables.models import LiveMatch
from tables.quick import quick_match
from tables.services import open_match
from tests.factories import UserFactory

pytestmark = pytest.mark.postgres


class Thinker:
    """A table whose robots read the database while they think (a bundle's version looked up
    when its process starts) and take a moment doing it."""

    def presence_due(self) -> bool:
        return False

    def think(self, until: float) -> str:
        LiveMatch.objects.exists()
        time.sleep(0.2)
        return "waiting"


def connections_here() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0]


def test_robots_thinking_at_once_leave_the_host_no_more_connections_than_its_database_threads(
    settings,
):
    settings.TRUCO_TABLE_HOST_THREADS = 12
    settings.TRUCO_TABLE_HOST_DB_THREADS = 2
    host = TableHost("connections-host")
    before = connections_here()

    async def twelve_tables_think():
        until = time.monotonic() + 1
        return await asyncio.gather(*(host.think(Thinker(), until) for _ in range(12)))

    try:
        assert asyncio.run(twelve_tables_think()) == ["waiting"] * 12
        # The database's jobs still run, each thread keeping its connection.
        assert asyncio.run(host.run(LiveMatch.objects.count)) >= 0
        opened = connections_here() - before
    finally:
        host.pool.shutdown(wait=True)
        host.robots.shutdown(wait=True)
    assert opened <= 2


def test_who_is_away_is_read_in_the_database_threads_not_the_robots(settings):
    """A table whose person plays through the REST API (not connected to the host) asks the
    Presence rows who is away before its robots think: the host reads them in a thread that
    keeps its connection, so a robot's thread opens none (a connection a decision, else)."""
    user = UserFactory()
    match = quick_match(user, variant="paulista", bot="random", games=1, turn_seconds=0)
    open_match(match.pk, user, "10.0.0.1")
    host = TableHost("presence-host")
    assert host.leases.take(match.pk)
    held = Held(match.pk)
    assert host.rebuild(held)
    table = held.table
    read_in: list[str] = []
    read = table.presence

    def presence():  # where the rows are read (not where the second's copy is used)
        before = table._presence
        rows = read()
        if table._presence is not before:
            read_in.append(threading.current_thread().name)
        return rows

    table.presence = presence
    try:
        asyncio.run(host.think(table, time.monotonic() + 0.5))
    finally:
        host.pool.shutdown(wait=True)
        host.robots.shutdown(wait=True)
    assert read_in and all(name.startswith("table") for name in read_in), read_in
