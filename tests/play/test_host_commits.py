"""A table host's writes do not wait for the disk, its records do (tables/host.py, LOCK_ROW_SQL),
on PostgreSQL: a durable commit was most of a decision's server time (issue 20: 10 ms at most a
person's action). Checked in the transaction itself, as PostgreSQL sees it."""

from __future__ import annotations

import pytest
from django.db import connection, transaction

from tables.host import Held, TableHost
from tests.play import test_decision_queries as decisions

pytestmark = pytest.mark.postgres


def synchronous_commit() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit")
        return cursor.fetchone()[0]


@pytest.fixture
def held_table():
    _, match = decisions.quick_table()
    host = TableHost("test-host", threads=1)
    try:
        assert host.take_lease(match.pk)
        yield host, Held(match.pk)
    finally:
        host.pool.submit(lambda: connection.close()).result()
        host.pool.shutdown(wait=True)


def test_a_decisions_transaction_does_not_wait_for_the_disk_and_nothing_after_it(held_table):
    host, held = held_table
    with transaction.atomic():
        assert host.lock_row(held)[0] == host.name
        assert synchronous_commit() == "off"
    assert synchronous_commit() == "on"  # for that transaction only: the next one waits


def test_a_records_transaction_waits_for_the_disk(held_table):
    host, held = held_table
    with transaction.atomic():
        assert host.lock_row(held, durable=True)[0] == host.name
        assert synchronous_commit() == "on"


def test_the_host_records_a_match_durably_and_plays_its_decisions_without_waiting(monkeypatch):
    """A whole match at a host: every decision's lock says not to wait, the record's does not."""
    seen: list[bool] = []
    lock_row = TableHost.lock_row

    def noted(self, held, *, durable=False):
        seen.append(durable)
        return lock_row(self, held, durable=durable)

    monkeypatch.setattr(TableHost, "lock_row", noted)
    user, match = decisions.quick_table()
    decisions.play_at_host(user, match)
    assert seen.count(True) == 1 and len(seen) > 10  # the record, once; the decisions
    decisions.assert_recorded_once_and_rated_once(match, user)
