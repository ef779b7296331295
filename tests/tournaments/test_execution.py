"""A match ends with exactly one result however often, and by whomever, it is tried."""

from __future__ import annotations

import subprocess
import time
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from players.models import Player
from submitted_bots.models import Bot
from tournaments import dispatch, execution, lifecycle
from tournaments.models import Entrant, Game, Match, Tournament
from tournaments.runner import run_in_process

pytestmark = pytest.mark.postgres  # row locks and commits as in production

HOST = execution.current_worker().rpartition(":")[0]


def first_match(tournament) -> Match:
    return Match.objects.filter(tournament=tournament, entrant_b__isnull=False).order_by("id")[0]


def started(make_tournament, **fields):
    tournament = make_tournament(4, **fields)
    lifecycle.start(tournament, publish=False)
    return tournament


def dead_pid() -> int:
    process = subprocess.Popen(["true"])
    process.wait()
    return process.pid


def records(match) -> list:
    return list(Game.objects.filter(match=match).order_by("index").values_list("record", flat=True))


def test_running_a_match_twice_records_one_result(make_tournament):
    match = first_match(started(make_tournament, games_per_match=6))
    assert execution.execute(match.pk, "w1:1").kind == "recorded"
    assert execution.execute(match.pk, "w2:2").kind == "finished"
    match.refresh_from_db()
    assert match.status == Match.Status.DONE and match.attempts == 1
    # An elimination match: six games, and deciders only if they are drawn (chance's part)
    played = 6 + match.summary["deciders"]
    assert match.games.count() == match.games_played == played
    assert match.wins_a + match.wins_b == played
    assert match.winner_id in (match.entrant_a_id, match.entrant_b_id)


def test_a_second_delivery_while_a_live_claim_holds_the_match_is_told_to_wait(make_tournament):
    match = first_match(started(make_tournament))
    claim = execution.claim_match(match.pk, "other-host:123")
    assert isinstance(claim, execution.Claim)
    outcome = execution.claim_match(match.pk, f"{HOST}:{dead_pid()}")
    assert outcome.kind == "busy"
    assert 0 < outcome.wait <= execution.lease_seconds()
    match.refresh_from_db()
    assert match.attempts == 1 and match.worker == "other-host:123"


@pytest.mark.parametrize(
    "stale_claim",
    ["dead process on this host", "lease ran out on another host", "this very process"],
)
def test_a_stale_claim_is_taken_over_and_the_match_replayed_from_scratch(
    make_tournament, stale_claim
):
    tournament = started(make_tournament, seed=5)
    match = first_match(tournament)
    me = f"{HOST}:424242"
    worker = {
        "dead process on this host": f"{HOST}:{dead_pid()}",
        "lease ran out on another host": "other-host:77",
        "this very process": me,
    }[stale_claim]
    assert isinstance(execution.claim_match(match.pk, worker), execution.Claim)
    if stale_claim == "lease ran out on another host":
        Match.objects.filter(pk=match.pk).update(lease_until=timezone.now() - timedelta(seconds=1))

    assert execution.execute(match.pk, me).kind == "recorded"
    match.refresh_from_db()
    assert match.status == Match.Status.DONE and match.attempts == 2 and match.worker == me

    twin = started(make_tournament, seed=5)  # the same seeds, played undisturbed
    twin_match = first_match(twin)
    execution.execute(twin_match.pk, me)
    twin_match.refresh_from_db()
    assert len(records(match)) == 4
    assert records(match) == records(twin_match)
    assert (match.wins_a, match.points_a, match.points_b) == (
        twin_match.wins_a,
        twin_match.points_a,
        twin_match.points_b,
    )


def test_an_attempt_whose_claim_was_taken_over_records_nothing(make_tournament):
    match = first_match(started(make_tournament))
    slow = execution.claim_match(match.pk, "slow-host:1")
    Match.objects.filter(pk=match.pk).update(lease_until=timezone.now() - timedelta(seconds=1))
    fast = execution.claim_match(match.pk, "fast-host:2")
    assert execution.record(fast, execution.play(fast)) is True
    assert execution.record(slow, execution.play(slow)) is False
    match.refresh_from_db()
    # four games, and deciders only if they are drawn (an elimination match needs a winner)
    assert match.games.count() == match.games_played == 4 + match.summary["deciders"]
    assert match.attempts == 2 and match.worker == "fast-host:2"


def test_a_failing_match_is_retried_then_marked_failed(make_tournament, settings):
    settings.TRUCO_MATCH_MAX_ATTEMPTS = 2
    match = first_match(started(make_tournament))
    Bot.objects.filter(pk=match.entrant_a.bot_id).update(plugin="uninstalled-bot")
    first = execution.execute(match.pk, "w:1")
    assert first.kind == "error" and first.wait > 0
    match.refresh_from_db()
    assert match.status == Match.Status.RETRYING
    assert "unknown bot 'uninstalled-bot'" in match.error
    assert execution.execute(match.pk, "w:1").kind == "failed"
    match.refresh_from_db()
    assert match.status == Match.Status.FAILED and match.attempts == 2
    assert match.games.count() == 0


def test_a_match_that_keeps_losing_its_worker_is_given_up(make_tournament, settings):
    settings.TRUCO_MATCH_MAX_ATTEMPTS = 2
    match = first_match(started(make_tournament))
    for _ in range(2):
        execution.claim_match(match.pk, f"{HOST}:{dead_pid()}")
    outcome = execution.execute(match.pk, f"{HOST}:1")
    assert outcome.kind == "failed"
    match.refresh_from_db()
    assert match.status == Match.Status.FAILED
    assert "gave up after 2 attempts" in match.error and "was lost" in match.error


def test_a_result_arriving_after_the_tournament_was_cancelled_is_discarded(make_tournament):
    tournament = started(make_tournament)
    match = first_match(tournament)
    claim = execution.claim_match(match.pk, "w:1")
    lifecycle.cancel(tournament)
    assert execution.record(claim, execution.play(claim)) is False
    match.refresh_from_db()
    assert match.status == Match.Status.CANCELLED and match.games.count() == 0


def test_a_paused_tournament_holds_its_queued_matches(make_tournament):
    tournament = started(make_tournament)
    match = first_match(tournament)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.QUEUED)
    lifecycle.pause(tournament)
    assert execution.execute(match.pk, "w:1").kind == "held"
    match.refresh_from_db()
    assert match.status == Match.Status.PENDING and match.attempts == 0


def test_matches_with_a_human_team_are_left_to_the_human_play_flow(make_tournament):
    tournament = make_tournament(3)
    human = Entrant.objects.create(tournament=tournament, name="people")
    human.members.add(Player.objects.create(name="ana"))
    lifecycle.start(tournament, publish=False)
    match = Match.objects.get(tournament=tournament, entrant_b=human)
    assert execution.execute(match.pk, "w:1").kind == "human"
    match.refresh_from_db()
    assert match.status == Match.Status.PENDING and match.attempts == 0


def test_publishing_queues_each_pending_match_once(make_tournament, monkeypatch):
    sent = []
    monkeypatch.setattr(dispatch, "send", lambda batches: sent.extend(sum(batches, [])))
    tournament = started(make_tournament, format="round-robin")
    assert dispatch.publish_pending(tournament.pk) == 6  # every round of bots at once
    assert dispatch.publish_pending(tournament.pk) == 0
    assert sorted(sent) == sorted(
        Match.objects.filter(tournament=tournament).values_list("id", flat=True)
    )
    assert set(Match.objects.filter(tournament=tournament).values_list("status", flat=True)) == {
        Match.Status.QUEUED
    }


def test_the_sweep_sends_again_the_matches_whose_worker_is_gone(make_tournament, monkeypatch):
    sent = []
    monkeypatch.setattr(dispatch, "send", lambda batches: sent.extend(sum(batches, [])))
    tournament = started(make_tournament)
    lost, alive = Match.objects.filter(tournament=tournament).order_by("id")[:2]
    execution.claim_match(lost.pk, "gone-host:1")
    execution.claim_match(alive.pk, "busy-host:2")
    Match.objects.filter(pk=lost.pk).update(lease_until=timezone.now() - timedelta(seconds=1))
    sent.clear()
    assert dispatch.sweep() == 1
    assert sent == [lost.pk]
    lost.refresh_from_db()
    assert lost.status == Match.Status.QUEUED
    assert dispatch.sweep() == 0  # sent once, not at every sweep
    assert execution.execute(lost.pk, "new-host:3").kind == "recorded"


def test_the_same_tournament_seed_plays_the_same_games(make_tournament):
    results = []
    for _ in range(2):
        tournament = make_tournament(4, seed=1234)
        assert run_in_process(tournament) == Tournament.Status.DONE
        results.append(
            list(
                Game.objects.filter(match__tournament=tournament)
                .order_by("match__key", "index")
                .values_list("match__key", "seed", "record")
            )
        )
    assert results[0] == results[1]
    assert len(results[0]) >= 3 * 4  # three matches of four games (and deciders, if drawn)


def test_the_match_task_is_acknowledged_late_and_given_back_if_its_worker_is_lost():
    from tournaments.tasks import run_match

    assert run_match.acks_late and run_match.reject_on_worker_lost and run_match.ignore_result


def test_the_match_task_waits_and_retries_while_another_worker_holds_the_match(make_tournament):
    from celery.exceptions import Retry

    from tournaments.tasks import run_match

    match = first_match(started(make_tournament))
    execution.claim_match(match.pk, "other-host:9")
    with pytest.raises(Retry):
        run_match(match_id=match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.RUNNING and match.worker == "other-host:9"


def test_the_match_task_records_the_match_and_queues_what_became_ready(
    make_tournament, monkeypatch
):
    from tournaments.tasks import run_match

    sent = []
    monkeypatch.setattr(dispatch, "send", lambda batches: sent.extend(sum(batches, [])))
    tournament = make_tournament(4)
    lifecycle.start(tournament)
    semis = list(Match.objects.filter(tournament=tournament).order_by("id"))
    assert sent == [m.pk for m in semis]
    sent.clear()
    assert [run_match(match_id=m.pk) for m in semis] == ["recorded", "recorded"]
    final = Match.objects.get(tournament=tournament, key="W2-1")
    assert sent == [final.pk] and final.status == Match.Status.QUEUED
    assert run_match(match_id=final.pk) == "recorded"
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.DONE


def test_a_bot_that_empties_its_bank_loses_the_game_by_timeout(make_tournament, monkeypatch):
    """A bot answering just inside each decision's budget held a worker for minutes a game: the
    tournament's time control (a bank per game plus an increment per decision) is the workers'
    too, and shown by the API."""
    from bots.random_bot import RandomBot

    act = RandomBot.act

    def slow(self, observation):
        # Well inside the decision's budget (30 s), not inside a 1 s bank: whoever acts first
        # empties its bank at its first decision. (At 0.1 s a decision, a game that chance ends
        # in fewer than ten decisions of each bot ended normally: a fresh-clone run saw one.)
        time.sleep(1.2)
        return act(self, observation)

    monkeypatch.setattr(RandomBot, "act", slow)
    tournament = started(make_tournament, games_per_match=1, bank_seconds=1, increment_seconds=0)
    match = first_match(tournament)
    began = time.monotonic()
    assert execution.execute(match.pk, "w1:1").kind == "recorded"
    assert time.monotonic() - began < 10  # one decision past its bank ends the game
    [game] = Game.objects.filter(match=match)
    assert game.termination == "timeout"
    assert "time bank of the 1+0 time control" in game.record["result"]["detail"]
    match.refresh_from_db()
    assert match.status == Match.Status.DONE and match.winner_id is not None
    shown = APIClient().get(f"/api/tournaments/{tournament.pk}/").json()
    assert shown["time_control"] == "1+0" and shown["bank_seconds"] == 1
    page = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "time control 1+0" in page and "30 s a decision" in page
