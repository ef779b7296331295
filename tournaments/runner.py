"""Running a tournament to its end from one process: either playing every match right here
(no broker, no worker: the same claim/play/record code the workers run), or waiting while
Celery workers play it, sweeping up after workers that die."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Count, Q, Sum

from tournaments import lifecycle, scheduling
from tournaments.dispatch import sweep
from tournaments.execution import Outcome, current_worker, execute
from tournaments.models import Match, Tournament


@dataclass
class Progress:
    done: int  # matches with games that are finished (byes excluded)
    running: int  # claimed by a worker right now
    games: int
    failed: int
    status: str


def progress(tournament: Tournament) -> Progress:
    """Where the tournament stands, in two queries (the command polls it several times a
    second)."""
    done, running, failed = (Q(status=s) for s in ("done", "running", "failed"))
    counts = Match.objects.filter(tournament=tournament, entrant_b__isnull=False).aggregate(
        done=Count("id", filter=done),
        running=Count("id", filter=running),
        failed=Count("id", filter=failed),
        games=Sum("games_played", filter=done),
    )
    status = Tournament.objects.values_list("status", flat=True).get(pk=tournament.pk)
    return Progress(
        done=counts["done"],
        running=counts["running"],
        games=counts["games"] or 0,
        failed=counts["failed"],
        status=status,
    )


def run_in_process(
    tournament: Tournament, on_match: Callable[[Outcome], None] | None = None
) -> str:
    """Play every match here, in schedule order, until the tournament ends or is stuck on
    failed matches. Returns the tournament's status."""
    status = Tournament.objects.values_list("status", flat=True).get(pk=tournament.pk)
    if status == Tournament.Status.DRAFT:
        lifecycle.start(tournament, publish=False)
    me = current_worker()
    playable = (Match.Status.PENDING, Match.Status.QUEUED, Match.Status.RETRYING)
    while True:
        status = Tournament.objects.values_list("status", flat=True).get(pk=tournament.pk)
        if status != Tournament.Status.RUNNING:
            return status
        ids = list(
            Match.objects.filter(tournament=tournament, status__in=playable)
            .order_by("round__number", "id")
            .values_list("id", flat=True)
        )
        if not ids:
            step = scheduling.advance(tournament.pk)
            if not step.created and not step.finished:
                return status  # stuck: only failed (or human) matches are left
            continue
        for match_id in ids:
            outcome = execute(match_id, me)
            if outcome.should_advance:
                scheduling.advance(tournament.pk)
            if on_match:
                on_match(outcome)


def wait_for_workers(
    tournament: Tournament,
    on_progress: Callable[[Progress], None] | None = None,
    poll_seconds: float = 0.2,
    timeout: float | None = None,
) -> str:
    """Wait while workers play the tournament; sweep now and then, so that matches of a worker
    that died are sent again. Returns the final status, or the current one on timeout or
    when the tournament is stuck on failed matches."""
    sweep_every = max(1.0, float(settings.TRUCO_SWEEP_SECONDS))
    next_sweep = time.monotonic() + sweep_every
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        state = progress(tournament)
        if on_progress:
            on_progress(state)
        if state.status not in (Tournament.Status.RUNNING, Tournament.Status.PAUSED):
            return state.status
        in_flight = Match.objects.filter(tournament=tournament, status__in=Match.UNFINISHED)
        if state.failed and not in_flight.exists():
            return state.status
        now = time.monotonic()
        if deadline is not None and now > deadline:
            return state.status
        if now >= next_sweep:
            sweep()
            next_sweep = now + sweep_every
        time.sleep(poll_seconds)
