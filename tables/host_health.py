"""Is a table host running? Read from their heartbeats (tables.TableHostBeat, written every
few seconds by each host): a table's page says when none is, instead of waiting for robots
that nobody plays."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from tables.models import TableHostBeat


def status() -> dict[str, Any]:
    """{alive, detail, workers}: the hosts seen within three of their lease renewals."""
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
