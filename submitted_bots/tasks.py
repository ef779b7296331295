"""Celery tasks of submitted bots: thin, keyword-only ids, delegating to domain code."""

from __future__ import annotations

from celery import shared_task

from engine.jail.probe import JailUnavailable
from stack.retries import retry_countdown
from submitted_bots.bundles.cache import BundleUnavailable
from submitted_bots.smoke_match import validate_version


@shared_task(
    bind=True, name="tournaments.validate_bot", acks_late=True, ignore_result=True, max_retries=40
)
def validate_bot(self, *, bot_id: int) -> str:
    """The smoke match of a newly uploaded bot version (submitted_bots/smoke_match.py). On
    a worker that cannot build the jail or read the bundle storage the version stays
    `validating` and the task is tried again (another worker, or this one once fixed), rather
    than rejecting a bot for the server's trouble."""
    try:
        return validate_version(bot_id)
    except (JailUnavailable, BundleUnavailable) as exc:
        raise self.retry(countdown=retry_countdown(30.0), exc=exc) from None
