"""Celery tasks: thin, keyword-only ids, re-reading everything, delegating to domain code.

`run_match` is acknowledged late and given back if its worker process is lost, so a match whose
worker died is delivered again; `tournaments.execution` makes any number of deliveries record
one result.
"""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from tournaments import dispatch, execution

# A busy or failed match is tried again after at most this long; kept well under the Redis
# visibility timeout so that a waiting retry is not mistaken for a lost message.
MAX_RETRY_COUNTDOWN = 60.0


def retry_countdown(wait: float) -> float:
    visibility = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("visibility_timeout")
    cap = min(MAX_RETRY_COUNTDOWN, visibility / 2) if visibility else MAX_RETRY_COUNTDOWN
    return max(0.5, min(wait + 0.5, cap))


@shared_task(
    bind=True,
    name="tournaments.run_match",
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    max_retries=None,
)
def run_match(self, *, match_id: int) -> str:
    outcome = execution.execute(match_id, execution.current_worker())
    if outcome.should_advance:
        dispatch.continue_tournament(outcome.tournament_id)
    elif outcome.kind in ("busy", "error"):
        # busy: another worker holds a live claim; this message stands by in case it dies.
        raise self.retry(countdown=retry_countdown(outcome.wait))
    return outcome.kind


@shared_task(name="tournaments.advance", acks_late=True, ignore_result=True)
def advance_tournament(*, tournament_id: int) -> None:
    dispatch.continue_tournament(tournament_id)


@shared_task(name="tournaments.sweep", ignore_result=True)
def sweep() -> int:
    return dispatch.sweep()


@shared_task(
    bind=True, name="tournaments.validate_bot", acks_late=True, ignore_result=True, max_retries=40
)
def validate_bot(self, *, bot_id: int) -> str:
    """The smoke match of a newly uploaded bot version (tournaments/bundles/validation.py). On
    a worker that cannot build the jail the version stays `validating` and the task is tried
    again (another worker, or this one once fixed), rather than rejecting a bot for the
    server's trouble."""
    from engine.jail.probe import JailUnavailable
    from tournaments.bundles.validation import validate_version

    try:
        return validate_version(bot_id)
    except JailUnavailable as exc:
        raise self.retry(countdown=retry_countdown(30.0), exc=exc) from None
