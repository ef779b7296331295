"""End to end on the production shape: a person plays a practice table to its end through the
HTTP API of a live web server, on PostgreSQL, the bots' replies played by a real Celery worker
on Redis (the `live_stack` fixture of tests/e2e_support.py)."""

from __future__ import annotations

import time

import pytest
import requests
from rest_framework.authtoken.models import Token

from tests.factories import UserFactory
from tournaments.models import Game, Match

pytestmark = pytest.mark.services


def practice_table(live_stack) -> tuple[requests.Session, str, dict]:
    """A signed-in person (a token) opens a practice table against heuristic, no timer."""
    token = Token.objects.create(user=UserFactory())
    session = requests.Session()
    session.headers["Authorization"] = f"Token {token.key}"
    created = session.post(
        f"{live_stack.url}/api/play/quick/",
        json={"variant": "paulista", "bot": "heuristic", "turn_seconds": 0},
        timeout=30,
    )
    assert created.status_code == 201, created.text[:2000]
    state = created.json()
    return session, f"{live_stack.url}/api/play/matches/{state['match']}/", state


def wait_for_human(session: requests.Session, url: str, state: dict, seconds: float = 20.0):
    """Poll the table until the bots have answered (a worker advances it, not the request)."""
    deadline = time.monotonic() + seconds
    while state["waiting"] == "bots" and time.monotonic() < deadline:
        time.sleep(0.05)
        response = session.get(url, timeout=10)
        assert response.status_code == 200, response.text[:500]
        state = response.json()
    assert state["waiting"] != "bots", "no worker answered for the bots"
    return state


@pytest.mark.live_stack_env(TRUCO_INSTANT_BOT_PLUGINS="")  # every reply from the worker
def test_a_person_plays_a_table_to_its_end_on_postgresql_with_a_real_worker(live_stack):
    session, table, state = practice_table(live_stack)
    assert session.get(table, timeout=10).status_code == 200
    assert requests.get(table, timeout=10).status_code == 200  # a spectator, signed out
    actions = 0
    while state["status"] != "done":
        state = wait_for_human(session, table, state)
        if state["status"] == "done":
            break
        assert state["your_turn"], state
        legal = state["observations"][str(state["to_act"])]["legal"]
        response = session.post(
            f"{table}act/", json={"action": legal[0], "turn": state["turn"]}, timeout=10
        )
        assert response.status_code == 200, response.text[:2000]
        state = response.json()
        actions += 1
        assert actions < 400
    match = Match.objects.get(pk=state["match"])
    assert match.status == Match.Status.DONE and match.winner_id is not None
    assert Game.objects.filter(match=match).count() == match.games_played == 1
    assert "play.advance" in live_stack.log("worker")  # the bots' replies came from the worker
    assert "Traceback" not in live_stack.log("web")


def test_the_table_and_the_standings_say_when_no_worker_is_running(live_stack):
    from stack.workers import stop_worker

    session, table, state = practice_table(live_stack)
    standings = f"{live_stack.url}/api/tournaments/{state['tournament']['id']}/standings/"
    workers = session.get(table, timeout=10).json()["workers"]
    assert workers["alive"] is True and len(workers["workers"]) == 1, workers
    assert requests.get(standings, timeout=10).json()["workers"]["alive"] is True

    stop_worker(live_stack.worker)
    deadline = time.monotonic() + 20
    while workers["alive"] and time.monotonic() < deadline:
        time.sleep(0.5)
        workers = session.get(table, timeout=10).json()["workers"]
    assert workers["alive"] is False
    assert "no worker is running" in workers["detail"]
    assert live_stack.env["TRUCO_QUEUE"] in workers["detail"]
    assert requests.get(standings, timeout=10).json()["workers"]["alive"] is False


def test_heuristic_bots_reply_in_the_actions_own_answer(live_stack):
    """The default: a trusted, fast bot's replies come with the answer to the action."""
    session, table, state = practice_table(live_stack)
    for _ in range(5):
        if state["status"] != "running":
            break
        legal = state["observations"][str(state["to_act"])]["legal"]
        state = session.post(
            f"{table}act/", json={"action": legal[0], "turn": state["turn"]}, timeout=10
        ).json()
        assert state["waiting"] in ("human", "done"), state["waiting"]
        assert state["status"] == "done" or state["your_turn"]
