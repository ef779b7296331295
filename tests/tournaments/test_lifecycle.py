"""What an organiser does: start, pause, resume, cancel, and re-run a match."""

from __future__ import annotations

import pytest

from submitted_bots.models import Bot
from tournaments import execution, lifecycle
from tournaments.models import Match, Tournament
from tournaments.runner import run_in_process

pytestmark = pytest.mark.postgres  # row locks and commits as in production


def test_a_tournament_starts_once(make_tournament):
    tournament = make_tournament(4)
    lifecycle.start(tournament, publish=False)
    with pytest.raises(lifecycle.LifecycleError, match="is running, not a draft"):
        lifecycle.start(tournament, publish=False)


def test_a_tournament_with_one_entrant_does_not_start(make_tournament):
    tournament = make_tournament(1)
    with pytest.raises(lifecycle.LifecycleError, match="at least 2 entrants, it has 1"):
        lifecycle.start(tournament, publish=False)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.DRAFT


def test_pause_stops_scheduling_and_resume_goes_on_to_the_end(make_tournament):
    tournament = make_tournament(4)
    lifecycle.start(tournament, publish=False)
    for match in Match.objects.filter(tournament=tournament):
        execution.execute(match.pk, "w:1")
    lifecycle.pause(tournament)
    assert run_in_process(tournament) == Tournament.Status.PAUSED
    assert not Match.objects.filter(tournament=tournament, round__number=2).exists()
    lifecycle.resume(tournament, publish=False)
    assert run_in_process(tournament) == Tournament.Status.DONE
    assert Match.objects.filter(tournament=tournament, key="W2-1", status="done").exists()


def test_cancel_cancels_the_unfinished_matches_for_good(make_tournament):
    tournament = make_tournament(4)
    lifecycle.start(tournament, publish=False)
    lifecycle.cancel(tournament)
    assert set(Match.objects.filter(tournament=tournament).values_list("status", flat=True)) == {
        Match.Status.CANCELLED
    }
    with pytest.raises(lifecycle.LifecycleError, match="cannot resume .* it is cancelled"):
        lifecycle.resume(tournament)


def test_a_failed_match_can_be_re_run_and_the_tournament_completes(make_tournament, settings):
    settings.TRUCO_MATCH_MAX_ATTEMPTS = 1
    tournament = make_tournament(2)
    lifecycle.start(tournament, publish=False)
    match = Match.objects.get(tournament=tournament)
    plugin = match.entrant_a.bot.plugin
    Bot.objects.filter(pk=match.entrant_a.bot_id).update(plugin="missing-on-this-worker")
    assert run_in_process(tournament) == Tournament.Status.RUNNING  # stuck on the failed match
    match.refresh_from_db()
    assert match.status == Match.Status.FAILED

    Bot.objects.filter(pk=match.entrant_a.bot_id).update(plugin=plugin)  # the plugin is back
    lifecycle.rerun_match(match, publish=False)
    match.refresh_from_db()
    assert match.status == Match.Status.PENDING and match.attempts == 0 and not match.error
    assert run_in_process(tournament) == Tournament.Status.DONE


def test_a_finished_match_is_re_run_with_the_same_result(make_tournament):
    tournament = make_tournament(4, format="round-robin")
    lifecycle.start(tournament, publish=False)
    match = Match.objects.filter(tournament=tournament).first()
    execution.execute(match.pk, "w:1")
    match.refresh_from_db()
    before = (match.winner_id, match.wins_a, match.points_a, match.points_b)
    lifecycle.rerun_match(match, publish=False)
    assert match.games.count() == 0
    execution.execute(match.pk, "w:2")
    match.refresh_from_db()
    assert (match.winner_id, match.wins_a, match.points_a, match.points_b) == before
    assert match.games.count() == 4


def test_a_match_whose_result_was_built_on_cannot_be_re_run(make_tournament):
    tournament = make_tournament(4)
    run_in_process(tournament)
    tournament.status = Tournament.Status.RUNNING  # as if the final were still to be played
    tournament.save()
    semi = Match.objects.get(tournament=tournament, key="W1-1")
    with pytest.raises(lifecycle.LifecycleError, match="a later round was already paired"):
        lifecycle.rerun_match(semi)


@pytest.mark.parametrize("status", ["pending", "running"])
def test_a_match_in_progress_cannot_be_re_run(make_tournament, status):
    tournament = make_tournament(2)
    lifecycle.start(tournament, publish=False)
    match = Match.objects.get(tournament=tournament)
    Match.objects.filter(pk=match.pk).update(status=status)
    with pytest.raises(lifecycle.LifecycleError, match=f"W1-1 is already {status}"):
        lifecycle.rerun_match(match)
