"""A table host's leases on its tables (tables/host.py): one host per table, so never two
processes for one seat.

A host claims a table by taking the lease on its live match row (`host`, `host_lease_until`: a
compare-and-set), renews the leases of all its tables every TRUCO_TABLE_LEASE_SECONDS / 3, and
gives a table back by clearing them. A table whose lease ran out is another host's to claim.

The renewals run in a thread of their own (`Renewer`), not on the host's event loop: in the
start-up rush (a hundred people opening their tables in the same second, a hundred bots
starting) a busy loop renewed late, leases lapsed, another host took tables that were in play
and their people were told "the table changed while you played". A renewal is one
`UPDATE ... RETURNING` statement for all of a host's tables; the tables it did not renew (another
host holds them now, or they are over) are handed back to the host (`lost`) to drop.

Each hold of a table is a claim with a number of its own (`claim_of`). The renewal hands back
the claims it read, not bare tables: a host that dropped a table and took it again while a
renewal was under way keeps its new claim, where a bare table number had it drop the table it
had just taken, and its person waited a lease for the next host.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from datetime import timedelta

from django.db import close_old_connections, connection
from django.db.models import Exists, Q
from django.utils import timezone

from tables.models import LiveMatch, TableHostBeat
from tournaments.models import Match

log = logging.getLogger(__name__)

_LIVE = LiveMatch._meta
_COLUMN = {name: _LIVE.get_field(name).column for name in ("match", "host", "host_lease_until")}
_COLUMN["waiting"] = _LIVE.get_field("waiting").column


def renew_sql(count: int) -> str:
    """The renewal of `count` tables' leases held by one host, the tables renewed returned."""
    marks = ", ".join(["%s"] * count)
    return (
        f"UPDATE {_LIVE.db_table} SET {_COLUMN['host_lease_until']} = %s "
        f"WHERE {_COLUMN['host']} = %s AND {_COLUMN['waiting']} <> %s "
        f"AND {_COLUMN['match']} IN ({marks}) RETURNING {_COLUMN['match']}"
    )


class Leases:
    """The leases a host named `name` holds, each `seconds` long. `owned` is what the renewals
    renew: the host adds a table once it holds its lease and takes it away when it drops it
    (from its event loop; the renewal thread reads it under `lock`). Each hold is a claim
    numbered apart (`claims`), so that a renewal's news about one claim never drops the next."""

    def __init__(self, name: str, seconds: float):
        self.name = name
        self.seconds = float(seconds)
        self.lock = threading.Lock()
        self._claims: dict[int, int] = {}  # table -> the number of the claim that holds it
        self._numbered = 0

    # --- what the host holds ------------------------------------------------------------------
    def owned(self) -> list[int]:
        with self.lock:
            return sorted(self._claims)

    def claims(self) -> dict[int, int]:
        """The tables held, each with the number of its claim."""
        with self.lock:
            return dict(self._claims)

    def claim_of(self, match_id: int) -> int | None:
        with self.lock:
            return self._claims.get(match_id)

    def hold(self, match_id: int) -> None:
        """Hold table `match_id` under a new claim."""
        with self.lock:
            self._numbered += 1
            self._claims[match_id] = self._numbered

    def let_go(self, match_id: int) -> None:
        with self.lock:
            self._claims.pop(match_id, None)

    # --- the rows -------------------------------------------------------------------------
    def until(self):
        return timezone.now() + timedelta(seconds=self.seconds)

    def take(self, match_id: int) -> bool:
        """Take the lease of table `match_id` if nobody holds it (or this host does, or its
        holder's ran out) and it is in play: True if taken."""
        now = timezone.now()
        # The row's own conditions stay in the UPDATE's WHERE (the match's status in an EXISTS,
        # not a join): PostgreSQL reads them again on the row as it is once a claim it waited
        # for has committed. A join puts them in a subquery, read on the row as it was, and two
        # hosts hearing one claim (the pub/sub layer sends it to every host) both took it.
        running = Exists(Match.objects.filter(pk=match_id, status="running"))
        taken = (
            LiveMatch.objects.filter(running, match_id=match_id)
            .exclude(waiting=LiveMatch.Waiting.DONE)
            .filter(Q(host="") | Q(host=self.name) | Q(host_lease_until__lt=now))
            .update(host=self.name, host_lease_until=now + timedelta(seconds=self.seconds))
        )
        return taken == 1

    def release(self, match_id: int) -> None:
        """Give table `match_id` back at once: another host may claim it now."""
        self.let_go(match_id)
        LiveMatch.objects.filter(match_id=match_id, host=self.name).update(
            host="", host_lease_until=None
        )

    def renew(self, match_ids: Iterable[int] | None = None) -> set[int]:
        """Renew the leases of `match_ids` (all the host holds by default) in one statement;
        the tables renewed. A table not renewed is not this host's any more."""
        ids = sorted(self.owned() if match_ids is None else match_ids)
        if not ids:
            return set()
        until = connection.ops.adapt_datetimefield_value(self.until())
        with connection.cursor() as cursor:
            cursor.execute(renew_sql(len(ids)), [until, self.name, LiveMatch.Waiting.DONE, *ids])
            return {row[0] for row in cursor.fetchall()}

    def beat(self) -> None:
        """The host's heartbeat: it runs, and holds this many tables."""
        TableHostBeat.objects.update_or_create(
            name=self.name, defaults={"seen_at": timezone.now(), "tables": len(self.owned())}
        )


class Renewer(threading.Thread):
    """Renews a host's leases every `every` seconds and beats, in this thread with its own
    database connection, whatever the host's event loop is busy with; the claims whose lease
    it could not renew go to `lost` as {table: claim number} (called from this thread: the
    host hands them to its loop)."""

    def __init__(self, leases: Leases, every: float, lost: Callable[[dict[int, int]], None]):
        super().__init__(name=f"leases {leases.name}", daemon=True)
        self.leases = leases
        self.every = every
        self.lost = lost
        self.stopping = threading.Event()

    def run(self) -> None:
        try:
            while not self.stopping.wait(self.every):
                self.renew_once()
        finally:
            connection.close()

    def renew_once(self) -> None:
        try:
            close_old_connections()
            claims = self.leases.claims()
            kept = self.leases.renew(claims)
            gone = {match_id: claim for match_id, claim in claims.items() if match_id not in kept}
            if gone:
                self.lost(gone)
            self.leases.beat()
        except Exception:  # the database away a moment: renew again next time
            log.exception("table host %s: renewing its leases failed", self.leases.name)
            connection.close()

    def stop(self) -> None:
        self.stopping.set()
        if self.is_alive() and threading.current_thread() is not self:
            self.join(timeout=10)
