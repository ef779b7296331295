"""Celery tasks: thin, keyword-only ids, re-reading everything, delegating to domain code.

`run_match` is acknowledged late and given back if its worker process is lost, so a match whose
worker died is delivered again; `tournaments.execution` makes any number of deliveries record
one result.
"""

from __future__ import annotations

from celery import shared_task

from stack.retries import retry_countdown
from tournaments import dispatch, execution, ladder_scheduler


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


@shared_task(
    name="tournaments.run_matches",
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
)
def run_matches(*, match_ids: list[int]) -> dict[str, int]:
    """Several short matches in one task (tournaments/dispatch.py task_batches): claimed in one
    transaction, recorded in another, their tournaments advanced once. A match that could not
    be played now (busy under another claim, failed) is sent again on its own."""
    outcomes = execution.execute_batch(match_ids, execution.current_worker())
    for tournament_id in sorted(
        {o.tournament_id for o in outcomes.values() if o.should_advance and o.tournament_id}
    ):
        dispatch.continue_tournament(tournament_id)
    kinds: dict[str, int] = {}
    for match_id, outcome in sorted(outcomes.items()):
        kinds[outcome.kind] = kinds.get(outcome.kind, 0) + 1
        if outcome.kind in ("busy", "error"):
            dispatch.publish_later(match_id, retry_countdown(outcome.wait))
    return kinds


@shared_task(name="tournaments.advance", acks_late=True, ignore_result=True)
def advance_tournament(*, tournament_id: int) -> None:
    dispatch.continue_tournament(tournament_id)


@shared_task(name="tournaments.sweep", ignore_result=True)
def sweep() -> int:
    return dispatch.sweep()


@shared_task(name="tournaments.ladder", ignore_result=True)
def ladder() -> int:
    """The ladder's scheduler (CELERY_BEAT_SCHEDULE; the embedded stack runs it itself)."""
    return ladder_scheduler.tick()
