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


def live_match_saved(sender, instance, **kwargs) -> None:
    if settings.TRUCO_TABLES != "hosts" or getattr(_host, "active", False):
        return
    match_id = instance.match_id
    transaction.on_commit(lambda: routing.changed(match_id))
