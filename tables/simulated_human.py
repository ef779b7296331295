"""A simulated person at a table, through the HTTP API only (what play.js does): opens a
practice table against a bot, thinks, acts with the `turn` of the state it answers, and waits
for the page to show the bots' replies, timing that wait. Now and then it thinks past the turn
timer, so the timer plays for it. Used by `manage.py soak`."""

from __future__ import annotations

import http.client
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit


class JsonClient:
    """One kept-alive HTTP connection with a token: JSON in, (status, JSON) out."""

    def __init__(self, base_url: str, token: str, timeout: float = 30.0):
        parts = urlsplit(base_url)
        self.host, self.port = parts.hostname, parts.port or 80
        self.timeout = timeout
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
        self.connection: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body)
        for attempt in (1, 2):  # a kept-alive connection the server closed: once more
            if self.connection is None:
                self.connection = http.client.HTTPConnection(self.host, self.port, self.timeout)
            try:
                self.connection.request(method, path, data, self.headers)
                response = self.connection.getresponse()
                raw = response.read()
            except (OSError, http.client.HTTPException):
                self.connection.close()
                self.connection = None
                if attempt == 2:
                    raise
                continue
            try:
                return response.status, json.loads(raw or b"null")
            except ValueError:
                return response.status, {"detail": raw[:200].decode(errors="replace")}
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()


@dataclass
class HumanStats:
    actions: int = 0
    latencies: list[float] = field(default_factory=list)  # action -> bots' replies shown
    requests: list[float] = field(default_factory=list)  # of which the action's own request
    timers: int = 0  # decisions left to the turn timer on purpose
    conflicts: int = 0  # 409: the decision was taken meanwhile (the timer)
    tables: int = 0  # tables played to their end
    errors: list[str] = field(default_factory=list)


@dataclass
class Habits:
    variant: str = "paulista"
    bot: str = "heuristic"
    turn_seconds: int = 3
    think: float = 0.8  # seconds at most before acting
    let_timer_play: float = 0.03  # chance of thinking past the turn timer
    poll: float = 0.25  # seconds between two looks at the table while another seat is to act


class SimulatedHuman:
    def __init__(self, base_url: str, token: str, habits: Habits, seed: int):
        self.client = JsonClient(base_url, token)
        self.habits = habits
        self.rng = random.Random(seed)
        self.stats = HumanStats()

    def run(self, stop_at: float) -> HumanStats:
        try:
            while time.monotonic() < stop_at:
                self.play_table(stop_at)
        except Exception as exc:  # the report says so; the soak goes on with the others
            self.stats.errors.append(f"{type(exc).__name__}: {exc}")
        finally:
            self.client.close()
        return self.stats

    def play_table(self, stop_at: float) -> None:
        h = self.habits
        status, state = self.client.request(
            "POST",
            "/api/play/quick/",
            {"variant": h.variant, "bot": h.bot, "turn_seconds": h.turn_seconds},
        )
        if status != 201:
            self.stats.errors.append(f"quick: {status} {state}")
            time.sleep(1)
            return
        path = f"/api/play/matches/{state['match']}/"
        while state["status"] == "running" and time.monotonic() < stop_at:
            if not state["your_turn"]:
                time.sleep(h.poll)
                state = self.look(path)
                continue
            if self.rng.random() < h.let_timer_play:
                self.stats.timers += 1
                time.sleep(h.turn_seconds + 0.5)
                state = self.look(path)
                continue
            time.sleep(self.rng.uniform(0.05, h.think))
            state = self.act(path, state)
        if state["status"] == "done":
            self.stats.tables += 1

    def look(self, path: str) -> dict:
        status, state = self.client.request("GET", path)
        if status != 200:
            raise RuntimeError(f"GET {path}: {status} {state}")
        return state

    def act(self, path: str, state: dict) -> dict:
        legal = state["observations"][str(state["to_act"])]["legal"]
        action = self.rng.choice(legal)
        started = time.perf_counter()
        status, after = self.client.request(
            "POST", f"{path}act/", {"action": action, "turn": state["turn"]}
        )
        self.stats.requests.append(time.perf_counter() - started)
        if status == 409:  # the timer played it meanwhile
            self.stats.conflicts += 1
            return self.look(path)
        if status != 200:
            raise RuntimeError(f"act {action!r}: {status} {after}")
        self.stats.actions += 1
        while after["waiting"] == "bots":  # one request that answers once they replied
            after = self.look(f"{path}?wait=5")
        self.stats.latencies.append(time.perf_counter() - started)
        return after
