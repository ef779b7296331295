"""The periodic jobs of the whole site, as Celery beat runs them in the production shape
(CELERY_BEAT_SCHEDULE): the embedded stack's supervisor runs the same ones (demo, soak)."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings

from tables import services as tables
from tournaments import dispatch, ladder_scheduler


def periodic_jobs() -> list[tuple[float, Callable[[], int]]]:
    return [
        (settings.TRUCO_SWEEP_SECONDS, dispatch.sweep),
        (settings.TRUCO_TABLE_SWEEP_SECONDS, tables.sweep),
        (settings.TRUCO_LADDER_SECONDS, ladder_scheduler.tick),
    ]
