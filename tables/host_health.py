"""Is a table host running? Read from their heartbeats (tables.TableHostBeat, written every
few seconds by each host): a table's page says when none is, instead of waiting for robots
that nobody plays."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from tables.models import TableHostBeat

# Every state a host pushes says whether hosts run; hosts beat every few seconds, so the answer
# is read at most once a second per process rather than once per state (a query per push).
CACHE_SECONDS = 1.0
_cached: tuple[float, dict[str, Any]] | None = None


def status() -> dict[str, Any]:
    """{alive, detail, workers}: the hosts seen within three of their lease renewals (read
    again at most every CACHE_SECONDS)."""
    global _cached
    now = time.monotonic()
    if _cached is not None and now - _cached[0] < CACHE_SECONDS:
        return dict(_cached[1])
    answer = _read()
    _cached = (now, answer)
    return dict(answer)


def _read() -> dict[str, Any]:
    recent = timezone.now() - timedelta(seconds=3 * settings.TRUCO_TABLE_LEASE_SECONDS)
    names = list(TableHostBeat.objects.filter(seen_at__gte=recent).values_list("name", flat=True))
    if names:
        return {"alive": True, "detail": f"{len(names)} table host(s) running", "workers": names}
    return {
        "alive": False,
        "detail": "no table host is running: robots do not reply and turn timers wait "
        "(start one: python manage.py table_host)",
        "workers": [],
    }
