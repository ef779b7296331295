"""Handing matches to Celery workers, and the sweep that recovers what a dead worker dropped.

A match is published once, when it leaves `pending` for `queued`, under the tournament's row
lock so that two workers finishing matches at once do not both publish the same new ones. If the
process dies between the commit and the publish, the task that was advancing the tournament was
not acknowledged yet (acks_late): it runs again and publishes what is still pending.
"""

from __future__ import annotations

import logging
import uuid
from datetime import timedelta
from types import SimpleNamespace

from celery import current_app as app  # the project's app (config/celery.py)
from django.conf import settings
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from kombu.exceptions import ChannelError, OperationalError

from stack.bulk import update_rows
from tournaments.batching import BATCH_FIELDS, batches_of
from tournaments.execution import claim_is_stale, current_worker
from tournaments.models import Match, Tournament
from tournaments.scheduling import advance

log = logging.getLogger(__name__)

BOT_ONLY = Q(entrant_a__bot__isnull=False, entrant_b__bot__isnull=False)


RUN_MATCH = "tournaments.run_match"  # the tasks (tournaments/tasks.py), sent by their names
RUN_MATCHES = "tournaments.run_matches"


def task_batches(match_ids: list[int]) -> list[list[int]]:
    """The matches as the messages that carry them (`batches_of`), read from the database."""
    return batches_of(match_ids, Match.objects.filter(id__in=match_ids).values_list(*BATCH_FIELDS))


def publish(match_ids: list[int]) -> None:
    """Send these (queued) matches to the workers, marking each with the message it went in."""
    if match_ids:
        batches = task_batches(match_ids)
        mark(batches)
        send(batches)


def mark(batches: list[list[int]], **also) -> None:
    """Mark each match with the message it goes in (`Match.batch`), and set these other fields
    (`also`), in one statement."""
    marks = []
    for batch in batches:
        message = uuid.uuid4()
        marks += [SimpleNamespace(pk=match_id, batch=message, **also) for match_id in batch]
    update_rows(marks, ["batch", *also], model=Match)


def send(batches: list[list[int]]) -> None:
    """A message to the workers for each batch of matches."""
    with app.producer_or_acquire() as producer:
        for batch in batches:
            if len(batch) == 1:
                app.send_task(RUN_MATCH, kwargs={"match_id": batch[0]}, producer=producer)
            else:
                app.send_task(RUN_MATCHES, kwargs={"match_ids": batch}, producer=producer)


def publish_later(match_id: int, countdown: float) -> None:
    """Send one match again after `countdown` seconds (its claim is busy, or it failed)."""
    app.send_task(RUN_MATCH, kwargs={"match_id": match_id}, countdown=countdown)


def publish_pending(tournament_id: int) -> int:
    """Queue every pending bot match of a running tournament; how many were queued."""
    pending = Match.objects.filter(tournament_id=tournament_id, status=Match.Status.PENDING)
    if not pending.filter(BOT_ONLY).exists():  # the usual case: no lock, no commit
        return 0
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        if tournament.status != Tournament.Status.RUNNING:
            return 0
        rows = list(
            Match.objects.filter(tournament=tournament, status=Match.Status.PENDING)
            .filter(BOT_ONLY)
            .order_by("round__number", "id")
            .values_list(*BATCH_FIELDS)
        )
        if not rows:
            return 0
        ids = [row[0] for row in rows]
        # Queued and marked with their messages in one statement (the rows are pending: the
        # tournament's lock keeps every other publisher out), then sent.
        batches = batches_of(ids, rows)
        mark(batches, status=Match.Status.QUEUED, queued_at=timezone.now())
        send(batches)
    return len(ids)


def send_queued(batches: list[list[int]]) -> None:
    """Send the messages of matches already committed as queued (`advance(queue=True)`). A
    broker that cannot be reached loses nothing: the sweep sends again the queued matches whose
    messages are not in the queue (`resend_lost`), so this logs and returns."""
    try:
        send(batches)
    except (OperationalError, OSError) as exc:
        log.warning(
            "%d queued matches not sent (%s): the sweep sends them once the broker is back",
            sum(map(len, batches)),
            exc,
        )


def continue_tournament(tournament_id: int) -> None:
    """After a match is recorded: schedule what became ready, and queue it."""
    send_queued(advance(tournament_id, queue=can_queue_at_creation()).batches)
    publish_pending(tournament_id)  # what was put back to pending, or created in a transaction


def can_queue_at_creation() -> bool:
    """Whether new matches may be created queued and sent once their transaction commits:
    not inside a caller's transaction, whose commit comes after the send (a worker would not
    find the rows its message names); there they are created pending and `publish_pending`
    queues them under the tournament's lock, as before."""
    return not transaction.get_connection().in_atomic_block


def sweep() -> int:
    """Send again the matches whose worker is gone (running or retrying past their lease: they
    go back to queued, so a later sweep does not send them twice) and the queued matches whose
    message the broker lost, queue pending matches, and advance running tournaments with
    nothing in flight. Idempotent; returns matches re-sent. A broker that cannot be reached
    changes nothing: the next sweep tries again."""
    sent = 0
    for step in (sweep_stale, resend_lost):
        try:
            sent += step()
        except Exception as exc:  # the broker is down: the transaction was rolled back
            log.warning("sweep: %s did not run: %s", step.__name__, exc)
    for tournament_id in Tournament.objects.filter(status=Tournament.Status.RUNNING).values_list(
        "id", flat=True
    ):
        try:
            continue_tournament(tournament_id)
        except Exception as exc:  # likewise: its matches stay pending for the next sweep
            log.warning("sweep: tournament %s not advanced: %s", tournament_id, exc)
    return sent


def sweep_stale() -> int:
    """Running or retrying matches past their lease, and running matches claimed on this
    machine by a process that is gone (a killed worker: no need to wait for its lease)."""
    now = timezone.now()
    me = current_worker()
    with transaction.atomic():
        claimed = (
            Match.objects.select_for_update()
            .filter(
                tournament__status=Tournament.Status.RUNNING,
                status__in=(Match.Status.RUNNING, Match.Status.RETRYING),
            )
            .filter(lease_until__isnull=False)  # a live human match has none
            .values_list("id", "status", "worker", "lease_until")
        )
        stale = [
            match_id
            for match_id, status, worker, lease_until in claimed
            if lease_until < now
            or (status == Match.Status.RUNNING and claim_is_stale(worker, lease_until, now, me))
        ]
        if stale:
            log.warning("sweep: sending %d stale matches again: %s", len(stale), stale)
            Match.objects.filter(id__in=stale).update(
                status=Match.Status.QUEUED, queued_at=timezone.now()
            )
            publish(stale)
    return len(stale)


def messages_waiting() -> int | None:
    """Messages waiting in this project's queue on the broker; None if it cannot be asked."""

    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    try:
        with app.connection_for_read() as conn:
            try:
                return conn.default_channel.queue_declare(queue=queue, passive=True).message_count
            except ChannelError:  # no such queue: a restarted or flushed broker
                return 0
    except Exception as exc:
        log.warning("sweep: the broker cannot be asked for its queue (%s)", exc)
        return None


def resend_lost() -> int:
    """Send again the queued matches whose message the broker lost (a Redis restarted without
    persistence or flushed, an embedded broker's message taken by a worker that was killed).
    Which messages are gone cannot be asked of a broker; how many can: the messages the queued
    matches should have (one per batch, `Match.batch`) beyond those waiting in the queue. The
    queue is first in, first out, so the missing ones are the oldest; only batches queued
    longer than TRUCO_QUEUED_RESEND_SECONDS are taken (a worker takes a message and claims its
    matches within milliseconds). A match sent twice is played once (tournaments/execution.py)."""
    queued = Match.objects.filter(
        tournament__status=Tournament.Status.RUNNING, status=Match.Status.QUEUED
    )
    if not queued.exists():
        return 0
    # The queue first, then the matches queued by then. Counted the other way round, the
    # messages of matches whose queuing committed in between (a round published meanwhile:
    # its messages are sent before its transaction commits, and on a busy machine, or while the
    # broker comes back, that is seconds) are in the queue's count but not in the matches'
    # one, and as many lost messages go unnoticed (tests/tournaments/test_batches.py).
    counted_at = timezone.now()
    waiting = messages_waiting()
    if waiting is None:
        return 0
    expected = expected_messages(queued.filter(queued_at__lte=counted_at))
    if waiting >= expected:
        return 0
    cutoff = timezone.now() - timedelta(seconds=settings.TRUCO_QUEUED_RESEND_SECONDS)
    with transaction.atomic():
        # Locked, and read again past any concurrent sweep's update of queued_at, so that two
        # sweeps at once do not both send them.
        locked = list(
            queued.select_for_update(of=("self",))
            .filter(queued_at__lt=cutoff)
            .order_by("queued_at", "id")
            .values_list("id", "batch")
        )
        lost = oldest_batches(locked, expected - waiting)
        if not lost:
            return 0
        log.warning(
            "sweep: %d queued matches in %d messages but %d messages in the queue: "
            "sending %d again: %s",
            queued.count(),
            expected,
            waiting,
            len(lost),
            lost,
        )
        Match.objects.filter(id__in=lost).update(queued_at=timezone.now())
        publish(lost)
    return len(lost)


def expected_messages(queued) -> int:
    """The messages these queued matches should have in the queue: one per batch (a match
    with no batch was sent alone)."""
    counts = queued.aggregate(
        batches=Count("batch", distinct=True), alone=Count("id", filter=Q(batch__isnull=True))
    )
    return counts["batches"] + counts["alone"]


def oldest_batches(rows: list[tuple[int, uuid.UUID | None]], messages: int) -> list[int]:
    """The matches of the `messages` oldest messages (rows in the order they were queued)."""
    taken: list[int] = []
    seen: set = set()
    for match_id, batch in rows:
        key = batch or ("alone", match_id)
        if key not in seen:
            if len(seen) == messages:
                continue
            seen.add(key)
        taken.append(match_id)
    return taken
