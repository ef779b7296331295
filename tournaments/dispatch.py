"""Handing matches to Celery workers, and the sweep that recovers what a dead worker dropped.

A match is published once, when it leaves `pending` for `queued`, under the tournament's row
lock so that two workers finishing matches at once do not both publish the same new ones. If the
process dies between the commit and the publish, the task that was advancing the tournament was
not acknowledged yet (acks_late): it runs again and publishes what is still pending.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from .models import Match, Tournament
from .scheduling import advance

log = logging.getLogger(__name__)

BOT_ONLY = Q(entrant_a__bot__isnull=False, entrant_b__bot__isnull=False)


def publish(match_ids: list[int]) -> None:
    from config.celery import app

    from .tasks import run_match

    if not match_ids:
        return
    with app.producer_or_acquire() as producer:
        for match_id in match_ids:
            run_match.apply_async(kwargs={"match_id": match_id}, producer=producer)


def publish_pending(tournament_id: int) -> int:
    """Queue every pending bot match of a running tournament; how many were queued."""
    pending = Match.objects.filter(tournament_id=tournament_id, status=Match.Status.PENDING)
    if not pending.filter(BOT_ONLY).exists():  # the usual case: no lock, no commit
        return 0
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        if tournament.status != Tournament.Status.RUNNING:
            return 0
        ids = list(
            Match.objects.filter(tournament=tournament, status=Match.Status.PENDING)
            .filter(BOT_ONLY)
            .order_by("round__number", "id")
            .values_list("id", flat=True)
        )
        if not ids:
            return 0
        Match.objects.filter(id__in=ids, status=Match.Status.PENDING).update(
            status=Match.Status.QUEUED, queued_at=timezone.now()
        )
        publish(ids)
    return len(ids)


def continue_tournament(tournament_id: int) -> None:
    """After a match is recorded: schedule what became ready, and queue it."""
    advance(tournament_id)
    publish_pending(tournament_id)


def sweep() -> int:
    """Send again the matches whose worker is gone (running or retrying past their lease: they
    go back to queued, so a later sweep does not send them twice), queue pending matches, and
    advance running tournaments with nothing in flight. Idempotent; returns matches re-sent."""
    with transaction.atomic():
        stale = list(
            Match.objects.select_for_update()
            .filter(
                tournament__status=Tournament.Status.RUNNING,
                status__in=(Match.Status.RUNNING, Match.Status.RETRYING),
                lease_until__lt=timezone.now(),
            )
            .values_list("id", flat=True)
        )
        if stale:
            log.warning("sweep: sending %d stale matches again: %s", len(stale), stale)
            Match.objects.filter(id__in=stale).update(
                status=Match.Status.QUEUED, queued_at=timezone.now()
            )
            publish(stale)
    for tournament_id in Tournament.objects.filter(status=Tournament.Status.RUNNING).values_list(
        "id", flat=True
    ):
        continue_tournament(tournament_id)
    return len(stale)
