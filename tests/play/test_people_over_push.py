"""Two people at a table of people, end to end on a live ASGI server (`live_stack`: PostgreSQL,
Redis, a real worker; the table host in the server's process): one opens the table, the other
sits, the first deals, and both play the whole game over the push channel, each hearing every
change of the table as it happens.

While the table waits for its people (not dealt yet), no host keeps it: a page's push
connection is told so (close code 4409) and polls until the deal. It used to fail on connecting
(the page's presence written for a live row not there yet), and the page connected again and
again, each time an error in the server."""

from __future__ import annotations

import contextlib
import json
import time

import pytest
import requests
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from rest_framework.authtoken.models import Token
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.factories import UserFactory

pytestmark = pytest.mark.services


class Someone:
    """A person with a signed-in browser session (for the push channel) and a token (REST)."""

    def __init__(self, site: str):
        self.user = UserFactory()
        session = SessionStore()
        session[SESSION_KEY] = str(self.user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = self.user.get_session_auth_hash()
        session.create()
        self.cookie = session.session_key
        self.site = site
        self.api = requests.Session()
        self.api.headers["Authorization"] = f"Token {Token.objects.create(user=self.user).key}"

    def post(self, path: str, body: dict) -> dict:
        answer = self.api.post(self.site + path, json=body, timeout=60)
        assert answer.status_code in (200, 201), answer.text[:500]
        return answer.json()

    def socket(self, match_id: int):
        return connect(
            self.site.replace("http", "ws", 1) + f"/ws/play/matches/{match_id}/",
            additional_headers={"Cookie": f"sessionid={self.cookie}", "Origin": self.site},
            open_timeout=30,
        )


def next_state(socket, seconds: float = 30) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        message = json.loads(socket.recv(timeout=deadline - time.monotonic()))
        if message["type"] == "state":
            return message["state"]
        assert message["type"] in ("acted", "chat"), message
    raise AssertionError("no state was pushed")


def settled(people: dict, states: dict, seconds: float = 30) -> dict:
    """The states pushed to each until the game is over or exactly one of them is to act (a
    deal is pushed as dealt, then as it waits for its first decision)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        turns = [w for w, s in states.items() if s["status"] != "done" and s["your_turn"]]
        if len(turns) == 1 or all(s["status"] == "done" for s in states.values()):
            return states
        for who, socket in people.items():
            try:
                message = json.loads(socket.recv(timeout=0.2))
            except TimeoutError:
                continue
            if message["type"] == "state":
                states[who] = message["state"]
    raise AssertionError(f"nobody was to act: {[s.get('waiting') for s in states.values()]}")


def test_two_people_play_a_whole_game_over_the_push_channel(live_stack):
    ana, bea = Someone(live_stack.url), Someone(live_stack.url)
    table = ana.post(
        "/api/play/quick/", {"variant": "paulista", "bot": "", "options": {"target": 3}}
    )
    match_id = table["match"]
    # Not dealt yet: nothing to push, the page polls meanwhile.
    with ana.socket(match_id) as early, pytest.raises(ConnectionClosed) as closed:
        early.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4409

    bea.post(f"/api/play/matches/{match_id}/sit/", {})
    ana.post(f"/api/play/matches/{match_id}/open/", {})  # the master deals
    with contextlib.ExitStack() as opened:  # each connection closed however the test ends
        people = {who: opened.enter_context(who.socket(match_id)) for who in (ana, bea)}
        states = {who: next_state(socket) for who, socket in people.items()}
        acts = 0
        while True:
            states = settled(people, states)
            if all(s["status"] == "done" for s in states.values()):
                break
            (who,) = [w for w, s in states.items() if s["your_turn"]]
            state = states[who]
            seat = state["to_act"]
            action = state["observations"][str(seat)]["legal"][0]
            people[who].send(
                json.dumps({"type": "act", "action": action, "seat": seat, "turn": state["turn"]})
            )
            acts += 1
            # Both hear the change: the one who acted and the other.
            states = {w: next_state(socket) for w, socket in people.items()}
            assert acts < 400, "the game did not end"
    assert acts > 3
    assert all(s["status"] == "done" for s in states.values())
