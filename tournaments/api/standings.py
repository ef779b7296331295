"""The standings of a tournament as the API serves them, cached per tournament.

The cache key carries a version read in one cheap query (how many matches are done and when the
last one finished), so a finished or re-run match makes the next request recompute: nothing has
to remember to invalidate it. A draft is never cached (its entrants may still change).
"""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.db.models import Count, Max, Q

from engine.errors import PluginError
from engine.plugins import get_format
from formats import FormatError
from formats.standings import METRIC_LABELS
from stack import worker_health
from tournaments.models import Match, Tournament
from tournaments.scheduling import expected_matches, format_options, standings

CACHE_SECONDS = 300


def results_version(tournament: Tournament) -> tuple[int, int, str]:
    """(matches done, of which played (byes excluded), last finish): changes with every result."""
    found = Match.objects.filter(tournament=tournament, status=Match.Status.DONE).aggregate(
        done=Count("id"),
        played=Count("id", filter=Q(entrant_b__isnull=False)),
        last=Max("finished_at"),
    )
    last = found["last"].isoformat() if found["last"] else ""
    return found["done"], found["played"], last


def resolved_metrics(tournament: Tournament) -> list[str]:
    try:
        return list(
            get_format(tournament.format).resolve_options(format_options(tournament))["metrics"]
        )
    except (PluginError, FormatError):
        return list(tournament.metrics or [])


def total_matches(tournament: Tournament, entrants: int) -> int | None:
    try:
        return expected_matches(tournament, entrants)
    except (PluginError, FormatError, ValueError):
        return None


def progress(done: int, total: int | None) -> dict[str, Any]:
    percent = None
    if total:
        percent = round(100 * min(done, total) / total, 1)
    return {"done": done, "total": total, "percent": percent}


def compute(tournament: Tournament, played: int) -> dict[str, Any]:
    rows = standings(tournament)
    return {
        "tournament": tournament.pk,
        "name": tournament.name,
        "status": tournament.status,
        "format": tournament.format,
        "metrics": (metrics := resolved_metrics(tournament)),
        "metric_labels": [METRIC_LABELS.get(m, m) for m in metrics],
        "progress": progress(played, total_matches(tournament, len(rows))),
        "rows": [
            {
                "rank": shown_rank(row.rank, row.values, metrics),
                "entrant": {"id": row.entrant_id, "name": row.name},
                "values": row.values,
                "rating": row.rating or None,
            }
            for row in rows
        ],
    }


def shown_rank(rank: int, values: dict[str, float], metrics: list[str]) -> int:
    """The rank a reader sees: where the format places entrants (an elimination's `placement`
    first), that place itself, so that "#" and "Place" agree (four first-round losers of eight
    are all 5th); the later metrics only order them within it. Otherwise the standings' rank."""
    if metrics and metrics[0] == "placement" and values.get("placement") is not None:
        return int(values["placement"])
    return rank


def standings_payload(tournament: Tournament) -> dict[str, Any]:
    done, played, last = results_version(tournament)
    if tournament.status == Tournament.Status.DRAFT:
        return compute(tournament, played)
    key = f"truco:standings:{tournament.pk}:{tournament.status}:{done}:{last}"
    payload = cache.get(key)
    if payload is None:
        payload = compute(tournament, played)
        cache.set(key, payload, CACHE_SECONDS)
    return {**payload, "workers": workers_of(tournament)}


def workers_of(tournament: Tournament) -> dict[str, Any] | None:
    """Whether a worker is there to play the running tournament's matches (None when it is
    not running: nothing is waiting for a worker). Never cached with the standings."""
    if tournament.status != Tournament.Status.RUNNING:
        return None
    return worker_health.status()


def standings_table(standings: dict[str, Any], rows: list | None = None) -> dict[str, Any]:
    """The context of the standings table template (tournaments/_standings_table.html): every
    row, or these of the standings' `rows` (a page of them)."""
    metrics = standings["metrics"]
    return {
        "metrics": metrics,
        "metric_labels": standings.get("metric_labels", metrics),
        "rows": [
            {**row, "cells": [row["values"].get(m) for m in metrics]}
            for row in (standings["rows"] if rows is None else rows)
        ],
    }
