"""A table host's leases (tables/host_leases.py), on PostgreSQL without the per-test transaction
(the renewals run in a thread of their own, with their own connection, as in a host):

- a host whose event loop is busy (a hundred tables starting at once) keeps its tables: their
  leases are renewed by its thread, and another host cannot take them (a lapsed lease let
  another host take tables in play, and their people were told "the table changed while you
  played");
- a renewal is one statement for all of a host's tables, and tells the host which it lost
  (another host holds them now, or they are over);
- a table given back is another host's to take at once.
"""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tables.host_leases import Leases, Renewer
from tables.models import LiveMatch
from tables.quick import quick_match
from tables.services import open_match
from tests.factories import UserFactory

pytestmark = pytest.mark.postgres

LEASE = 1.2  # seconds


def quick_table() -> int:
    user = UserFactory()
    match = quick_match(user, variant="paulista", bot="heuristic", games=1, turn_seconds=0)
    open_match(match.pk, user, "10.0.0.1")
    return match.pk


def holder(match_id: int) -> str:
    return LiveMatch.objects.get(match_id=match_id).host


def test_a_busy_host_keeps_its_tables_its_thread_renews_their_leases():
    tables = [quick_table(), quick_table()]
    mine, other = Leases("host-a", LEASE), Leases("host-b", LEASE)
    for match_id in tables:
        assert mine.take(match_id)
        mine.hold(match_id)
    lost: list[dict[int, int]] = []
    renewer = Renewer(mine, LEASE / 3, lost.append)
    renewer.start()
    try:
        time.sleep(3 * LEASE)  # the host's loop busy all this while: it renews nothing itself
        assert not any(other.take(match_id) for match_id in tables)
    finally:
        renewer.stop()
    assert [holder(match_id) for match_id in tables] == ["host-a", "host-a"]
    assert lost == []
    assert not renewer.is_alive()


def test_without_renewals_a_lease_lapses_and_another_host_takes_the_table():
    match_id = quick_table()
    mine, other = Leases("host-a", LEASE), Leases("host-b", LEASE)
    assert mine.take(match_id)
    assert not other.take(match_id)  # held: not another's
    time.sleep(LEASE + 0.2)
    assert other.take(match_id)
    assert holder(match_id) == "host-b"


def test_a_renewal_is_one_statement_and_says_which_tables_the_host_lost():
    held, taken, over = quick_table(), quick_table(), quick_table()
    mine, other = Leases("host-a", LEASE), Leases("host-b", LEASE)
    for match_id in (held, taken, over):
        assert mine.take(match_id)
        mine.hold(match_id)
    # Another host took one (its lease had run out), and one is over.
    LiveMatch.objects.filter(match_id=taken).update(host_lease_until=timezone.now())
    assert other.take(taken)
    LiveMatch.objects.filter(match_id=over).update(waiting=LiveMatch.Waiting.DONE)
    before = LiveMatch.objects.get(match_id=held).host_lease_until
    with CaptureQueriesContext(connection) as captured:
        kept = mine.renew()
    assert kept == {held}
    assert len(captured.captured_queries) == 1
    assert LiveMatch.objects.get(match_id=held).host_lease_until > before
    assert holder(taken) == "host-b"

    claims = mine.claims()
    lost: list[dict[int, int]] = []
    renewer = Renewer(mine, LEASE / 3, lost.append)
    done = threading.Thread(target=renewer.renew_once)
    done.start()
    done.join(10)
    assert lost == [{taken: claims[taken], over: claims[over]}]  # the claims it read


def test_a_table_given_back_is_another_hosts_at_once():
    match_id = quick_table()
    mine, other = Leases("host-a", 60), Leases("host-b", 60)
    assert mine.take(match_id)
    mine.hold(match_id)
    assert not other.take(match_id)
    mine.release(match_id)
    assert mine.owned() == []
    assert other.take(match_id)
    assert holder(match_id) == "host-b"


def test_two_hosts_claiming_a_table_at_once_never_both_take_it():
    """The claim's compare-and-set is read again on the row as it is once the other claim has
    committed: two hosts that hear the same claim (the pub/sub layer sends a claim to every
    host) never both hold the table. Before, its conditions sat in a subquery that PostgreSQL
    does not read again after waiting for the row, so the second host took a table the first
    had just taken, both played it, and its person was told "the table changed while you
    played" at every decision."""
    match_id = quick_table()
    first, second = Leases("host-a", 60), Leases("host-b", 60)
    outcome: dict[str, bool] = {}
    first_took = threading.Event()
    commit_first = threading.Event()

    def claim_first():
        try:
            with transaction.atomic():
                outcome["host-a"] = first.take(match_id)
                first_took.set()
                commit_first.wait(10)
        finally:
            connection.close()

    def claim_second():
        try:
            outcome["host-b"] = second.take(match_id)  # waits for the first's row lock
        finally:
            connection.close()

    a = threading.Thread(target=claim_first)
    a.start()
    assert first_took.wait(10)
    b = threading.Thread(target=claim_second)
    b.start()
    waiting_for_the_row(seconds=10)
    commit_first.set()
    a.join(10)
    b.join(10)
    assert outcome == {"host-a": True, "host-b": False}
    assert holder(match_id) == "host-a"


def waiting_for_the_row(seconds: float) -> None:
    """Until another connection waits for a row lock (the second claim's UPDATE)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                "AND datname = current_database()"
            )
            if cursor.fetchone()[0]:
                return
        time.sleep(0.02)
    raise AssertionError("the second claim never waited for the first's row lock")
