"""What an organiser does to a tournament: start, pause, resume, cancel, and re-run a match.
Each raises LifecycleError with a message when the action does not apply (the admin shows it,
the API answers 400 with it)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from tournaments import dispatch, scheduling
from tournaments.models import Match, Tournament


class LifecycleError(ValueError):
    pass


def start(tournament: Tournament, *, publish: bool = True) -> None:
    """Fix the seeds and schedule the first round; `publish=False` when the caller plays the
    matches itself (tournaments.runner.run_in_process)."""
    try:
        started = scheduling.start(tournament, queue=publish and dispatch.can_queue_at_creation())
    except ValidationError as exc:
        raise LifecycleError("; ".join(exc.messages)) from None
    except ValueError as exc:
        raise LifecycleError(str(exc)) from None
    if publish:
        dispatch.send_queued(started.batches)
        dispatch.publish_pending(tournament.pk)  # those created in the caller's transaction, if any


def _move(tournament: Tournament, allowed: tuple[str, ...], to: str, verb: str) -> Tournament:
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if locked.status not in allowed:
            raise LifecycleError(f"cannot {verb} tournament {locked.name!r}: it is {locked.status}")
        locked.status = to
        fields = ["status"]
        if to == Tournament.Status.CANCELLED:
            locked.finished_at = timezone.now()
            fields.append("finished_at")
            Match.objects.filter(tournament=locked, status__in=Match.UNFINISHED).update(
                status=Match.Status.CANCELLED, lease_until=None
            )
        locked.save(update_fields=fields)
    tournament.status = locked.status
    return locked


def pause(tournament: Tournament) -> None:
    """Matches being played finish; nothing new starts until the tournament is resumed."""
    _move(tournament, (Tournament.Status.RUNNING,), Tournament.Status.PAUSED, "pause")


def resume(tournament: Tournament, *, publish: bool = True) -> None:
    _move(tournament, (Tournament.Status.PAUSED,), Tournament.Status.RUNNING, "resume")
    if publish:
        dispatch.continue_tournament(tournament.pk)
    else:
        scheduling.advance(tournament.pk)


CANCELLABLE = (Tournament.Status.DRAFT, Tournament.Status.RUNNING, Tournament.Status.PAUSED)


def cancel(tournament: Tournament) -> None:
    """Stop for good: unfinished matches are cancelled; a result arriving later is discarded."""
    _move(tournament, CANCELLABLE, Tournament.Status.CANCELLED, "cancel")


def cancel_table(tournament: Tournament) -> None:
    """A player's table ended amicably: its tournament is cancelled in one update, read from
    nowhere (the caller cancelled its only match, holding that match's lock)."""
    now = timezone.now()
    Tournament.objects.filter(pk=tournament.pk, status__in=CANCELLABLE).update(
        status=Tournament.Status.CANCELLED, finished_at=now
    )
    tournament.status, tournament.finished_at = Tournament.Status.CANCELLED, now


def rerun_match(match: Match, *, publish: bool = True) -> None:
    """Play a failed match again, or a finished one whose result nothing was built on yet (no
    later round is paired). Its games are replaced; its rating update is not applied twice."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=match.tournament_id)
        match = (
            Match.objects.select_for_update(of=("self",)).select_related("round").get(pk=match.pk)
        )
        if tournament.status not in (Tournament.Status.RUNNING, Tournament.Status.PAUSED):
            raise LifecycleError(
                f"cannot re-run {match.key}: the tournament is {tournament.status}"
            )
        if match.is_bye:
            raise LifecycleError(f"cannot re-run {match.key}: it is a bye")
        if match.status in Match.UNFINISHED:
            raise LifecycleError(f"{match.key} is already {match.status}")
        # A fixed schedule (a round robin) pairs no round from results: nothing built on it.
        if (
            match.status == Match.Status.DONE
            and not scheduling.format_of(tournament).fixed_schedule
        ):
            later = Match.objects.filter(
                tournament=tournament, round__number__gt=match.round.number
            ).exists()
            if later:
                raise LifecycleError(
                    f"cannot re-run {match.key}: a later round was already paired from its result"
                )
        match.games.all().delete()
        match.status = Match.Status.PENDING
        match.attempts = 0
        match.error = ""
        match.worker = ""
        match.claim_token = None
        match.lease_until = None
        match.winner = None
        match.wins_a = match.wins_b = match.points_a = match.points_b = match.games_played = 0
        match.terminations = {}
        match.summary = {}
        match.started_at = match.finished_at = None
        match.save()
        match.round.status = match.round.Status.RUNNING
        match.round.finished_at = None
        match.round.save(update_fields=["status", "finished_at"])
    if publish:
        dispatch.publish_pending(tournament.pk)
