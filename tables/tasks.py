"""Celery tasks of human play: thin, keyword-only ids, delegating to `tables.services`."""

from __future__ import annotations

from celery import shared_task

from tables import services


@shared_task(name="play.advance", acks_late=True, ignore_result=True)
def advance_live(*, match_id: int) -> None:
    """Play the bots of a live match up to the next human decision."""
    services.advance(match_id)


@shared_task(name="play.expire_turn", acks_late=True, ignore_result=True)
def expire_turn(*, match_id: int, game_no: int, ply: int) -> bool:
    """The turn timer of one decision: auto-play it if it is still pending and past due."""
    return services.expire(match_id, game_no, ply)


@shared_task(name="play.sweep", ignore_result=True)
def sweep() -> int:
    """Catch up every table in play (an expired turn, stalled robots): services.sweep."""
    return services.sweep()
