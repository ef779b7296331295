"""A table changed outside its host (a vote, the master's options, a seat taken, a deal from a
web request): its host is told once the change is committed, so that it builds the table again
from the row and pushes it (TRUCO_TABLES=hosts). A host's own writes tell nobody
(`writing_as_host`)."""

from __future__ import annotations

import threading
from contextlib import contextmanager

from django.conf import settings
from django.db import transaction

from tables import routing

_host = threading.local()


@contextmanager
def writing_as_host():
    _host.active = True
    try:
        yield
    finally:
        _host.active = False


def live_match_saved(sender, instance, created: bool = False, **kwargs) -> None:
    if settings.TRUCO_TABLES != "hosts" or getattr(_host, "active", False):
        return
    match_id = instance.match_id
    if told_on_commit(match_id):
        return  # saved twice in one transaction (a vote that ends the game): told once
    held = held_as_written(instance, created)

    def tell() -> None:
        routing.changed(match_id, held=held)

    tell.truco_changed = match_id
    transaction.on_commit(tell)


def told_on_commit(match_id: int) -> bool:
    """Whether the host of table `match_id` is to be told already once this transaction commits
    (a callback of a savepoint rolled back is dropped with it: then it is not)."""
    pending = transaction.get_connection().run_on_commit
    return any(getattr(entry[1], "truco_changed", None) == match_id for entry in pending)


def held_as_written(live, created: bool) -> bool | None:
    """Whether a host holds the table, as the row saved says (None: not read, ask the row): the
    host is then told, or the table claimed, without a query. A row made in this transaction
    (a table opened, a match dealt) is held by no host yet. A row changed under its lock
    shows its host as it was then: a claim too many, of a table taken meanwhile, changes
    nothing (tables/host_leases.py), and a host whose lease ran out meanwhile died, its
    tables adopted by the others within half a lease (as when nobody is told)."""
    if created:
        return False
    if {"host", "host_lease_until"} & live.get_deferred_fields():
        return None
    return live.host_holds_it
