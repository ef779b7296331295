"""A table host's database connections, on PostgreSQL without the per-test transaction: its
robots think in threads of their own that keep no connection, so a host holds at most
TRUCO_TABLE_HOST_DB_THREADS of them however many robots think at once. With one pool of 64
threads for both, each kept the connection it once opened: two hosts under 500 people opened
more than PostgreSQL's 100 and their people were told "too many clients"."""

from __future__ import annotations

import asyncio
import time

import pytest
from django.db import connection

from tables.host import TableHost
from tables.models import LiveMatch

pytestmark = pytest.mark.postgres


class Thinker:
    """A table whose robots read the database while they think (a bundle's version looked up
    when its process starts) and take a moment doing it."""

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
