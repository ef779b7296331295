"""Celery tasks of human play: the tables' periodic sweep (Celery beat). People's tables are
played by table hosts (tables/host.py), not by Celery workers."""

from __future__ import annotations

from celery import shared_task

from tables import services


@shared_task(name="play.sweep", ignore_result=True)
def sweep() -> int:
    """Every table in play has a host (an orphan is given to one): services.sweep."""
    return services.sweep()
