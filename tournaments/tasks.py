"""Celery tasks: thin, keyword-only ids, re-reading everything, delegating to domain code.

`run_match` is acknowledged late and given back if its worker process is lost, so a match whose
worker died is delivered again; `tournaments.execution` makes any number of deliveries record
one result.
"""

from __future__ import annotations

from celery import shared_task

from stack.retries import retry_countdown
from tournaments import dispatch, execution


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
