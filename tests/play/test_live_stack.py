"""End to end: a person plays a practice table to its end through the HTTP API of a live ASGI
server on PostgreSQL, with a real Celery worker on Redis beside it (the `live_stack` fixture of
tests/e2e_support.py). The robots' replies are played by the table host inside the web server
(no channel layer is configured: the embedded shape), never by a request."""

from __future__ import annotations

import time

import pytest
import requests
from rest_framework.authtoken.models import Token

from tables.models import LiveMatch
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
    """Poll the table until the bots have answered (the table host plays them, not the
    request)."""
    deadline = time.monotonic() + seconds
    while state["waiting"] == "bots" and time.monotonic() < deadline:
        time.sleep(0.05)
        response = session.get(url, timeout=10)
        assert response.status_code == 200, response.text[:500]
        state = response.json()
    assert state["waiting"] != "bots", "no table host answered for the bots"
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
    live = LiveMatch.objects.get(match=match)
    assert live.waiting == LiveMatch.Waiting.DONE and live.version > actions
    assert "Traceback" not in live_stack.log("web")


def test_the_table_says_its_host_is_running_and_the_standings_when_no_worker_is(live_stack):
    from stack.workers import stop_worker

    session, table, state = practice_table(live_stack)
    standings = f"{live_stack.url}/api/tournaments/{state['tournament']['id']}/standings/"
    hosts = session.get(table, timeout=10).json()["workers"]
    assert hosts["alive"] is True and len(hosts["workers"]) == 1, hosts
    assert requests.get(standings, timeout=10).json()["workers"]["alive"] is True

    stop_worker(live_stack.worker)  # the matches' worker: tables do not need it
    deadline = time.monotonic() + 20
    workers = requests.get(standings, timeout=10).json()["workers"]
    while workers["alive"] and time.monotonic() < deadline:
        time.sleep(0.5)
        workers = requests.get(standings, timeout=10).json()["workers"]
    assert workers["alive"] is False
    assert "no worker is running" in workers["detail"]
    assert live_stack.env["TRUCO_QUEUE"] in workers["detail"]
    assert session.get(table, timeout=10).json()["workers"]["alive"] is True  # the table plays on


def test_heuristic_bots_reply_in_the_actions_own_answer(live_stack):
    """The default: a trusted, fast bot's replies come with the answer to the action."""
    session, table, state = practice_table(live_stack)
    state = wait_for_human(session, table, state)  # the host's first moves
    for _ in range(5):
        if state["status"] != "running":
            break
        assert state["your_turn"], state
        legal = state["observations"][str(state["to_act"])]["legal"]
        state = session.post(
            f"{table}act/", json={"action": legal[0], "turn": state["turn"]}, timeout=10
        ).json()
        assert state["waiting"] in ("human", "done"), state["waiting"]
        assert state["status"] == "done" or state["your_turn"]
