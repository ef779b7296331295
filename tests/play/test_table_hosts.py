"""Table hosts end to end (issue 20), on PostgreSQL and Redis: a live ASGI server whose channel
layer is Redis (so it holds no table itself), two `manage.py table_host` processes, and a real
Celery worker that validates an uploaded bundle. A person plays a two-game table through the
REST API against that bundle, which says on its log each time its process starts.

- One process for the whole match: the bot hears `match` once, however many decisions, games
  and requests the table takes (docs/bot-protocol.md promises it everywhere).
- Killing the host that holds the table mid-game loses no decision: the other host takes the
  table when its lease runs out, starts the bot again and the match ends with every decision the
  person made, in order.
"""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
import zipfile

import pytest
import requests
from rest_framework.authtoken.models import Token

from stack.workers import PROJECT_DIR
from tables.models import LiveMatch
from tests.e2e_support import TEST_REDIS_URL
from tests.factories import UserFactory
from tests.push_support import TableSpectator
from tournaments.models import Game, Match

pytestmark = pytest.mark.services

HELLO = "hello, a process of mine starts"
BOT = f"""
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "match":
        print({HELLO!r}, file=sys.stderr, flush=True)
    elif message["type"] == "act":
        print(json.dumps({{"action": message["legal"][0]}}), flush=True)
"""
MANIFEST = """name = "hello-bot"
command = ["python3", "bot.py"]
variants = ["paulista"]
players = [2]
"""
hosts_env = pytest.mark.live_stack_env(
    CHANNELS_REDIS_URL=TEST_REDIS_URL, TRUCO_TABLE_LEASE_SECONDS="2"
)


def bundle() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("bot.toml", MANIFEST)
        archive.writestr("bot.py", BOT)
    return out.getvalue()


def start_host(live_stack, name: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "manage.py", "table_host"],
        cwd=PROJECT_DIR,
        env={**live_stack.env, "TRUCO_HOST_NAME": name},
        stdout=open(live_stack.var_dir / f"{name}.log", "ab"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def stop(process: subprocess.Popen, how=signal.SIGTERM) -> None:
    if process.poll() is None:
        os.killpg(process.pid, how)
        process.wait(15)


@pytest.fixture
def hosts(live_stack):
    started = {name: start_host(live_stack, name) for name in ("host-a", "host-b")}
    yield started
    for process in started.values():
        stop(process)


def uploaded_bot(site: str, token: str) -> int:
    made = requests.post(
        f"{site}/api/bots/",
        files={"bundle": ("bot.zip", bundle(), "application/zip")},
        headers={"Authorization": f"Token {token}"},
        timeout=60,
    )
    assert made.status_code == 201, made.text[:1000]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        status = requests.get(f"{site}/api/bots/{made.json()['id']}/", timeout=30).json()["status"]
        if status == "ready":
            return made.json()["id"]
        assert status == "validating", status
        time.sleep(0.5)
    raise AssertionError("the bundle was not validated in time")


class Person:
    def __init__(self, site: str):
        self.session = requests.Session()
        token = Token.objects.create(user=UserFactory()).key
        self.session.headers["Authorization"] = f"Token {token}"
        self.site = site
        self.played: list[str] = []  # the decisions the table accepted, in order

    def open(self, bot_id: int) -> str:
        created = self.session.post(
            f"{self.site}/api/play/quick/",
            json={"variant": "paulista", "bot": bot_id, "games": 2, "turn_seconds": 0},
            timeout=30,
        )
        assert created.status_code == 201, created.text[:1000]
        self.url = f"{self.site}/api/play/matches/{created.json()['match']}/"
        self.state = created.json()
        return created.json()["match"]

    def my_turn(self, seconds: float = 30) -> dict:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            state = self.state
            if state["status"] == "done" or state.get("your_turn"):
                return state
            if state.get("waiting") == "next":  # the table's master deals the next game
                dealt = self.session.post(self.url + "open/", json={}, timeout=60)
                assert dealt.status_code in (200, 503), dealt.text[:500]
            time.sleep(0.1)
            self.state = self.session.get(self.url, timeout=30).json()
        raise AssertionError(f"no decision of mine came: {self.state.get('waiting')}")

    def act(self) -> None:
        for _attempt in range(20):
            state = self.my_turn()
            if state["status"] == "done":
                return
            # Cards and acceptances (the first legal action): every hand asks the bot to play.
            action = state["observations"][str(state["to_act"])]["legal"][0]
            answer = self.session.post(
                self.url + "act/", json={"action": action, "turn": state["turn"]}, timeout=60
            )
            if answer.status_code == 200:
                self.played.append(action)
                self.state = answer.json()
                return
            # 503: the table is between two hosts; 409: what we saw was already old (the
            # game ended meanwhile): look again and decide again, as a person would.
            assert answer.status_code in (409, 503), answer.text[:500]
            time.sleep(0.3)
            self.state = self.session.get(self.url, timeout=30).json()
        raise AssertionError(f"the table refused every try: {answer.text[:300]}")


def person_decisions(match: Match, seat_of_game) -> list[str]:
    """The person's decisions in the match's records, in order, but for the auto-played."""
    out = []
    for game in Game.objects.filter(match=match).order_by("index"):
        seat = seat_of_game(game)
        for hand in game.record["hands"]:
            out += [action for who, action in hand["actions"] if who == seat]
    return out


def bot_starts(match: Match) -> int:
    return sum(
        text.count(HELLO)
        for game in Game.objects.filter(match=match)
        for text in game.private.get("logs", {}).values()
    )


def person_seat(game: Game) -> int:
    return 0 if game.a_team == 0 else 1  # side a is the person's (the quick table's master)


def played_to_its_end(match: Match) -> bool:
    """A two-game table match (it needs a winner): its two games, and deciders only while
    they are drawn on games and on points (engine/match_plan.py). How many that makes is
    chance's; the rule is not."""
    games = list(match.games.order_by("index").values_list("winner_side", "score_a", "score_b"))
    if len(games) < 2 or match.games_played != len(games):
        return False
    wins_a = sum(1 for side, _, _ in games[:2] if side == "a")
    points_a = sum(a for _, a, _ in games[:2])
    points_b = sum(b for _, _, b in games[:2])
    drawn = wins_a == 1 and points_a == points_b
    return len(games) == 2 if not drawn else len(games) == 3 and games[2][0] in ("a", "b")


@hosts_env
def test_a_bot_process_plays_a_whole_table_match_and_a_dead_host_loses_no_decision(
    live_stack, hosts
):
    bot_id = uploaded_bot(live_stack.url, Token.objects.create(user=UserFactory()).key)

    # One process for a whole two-game match.
    calm = Person(live_stack.url)
    match_id = calm.open(bot_id)
    while calm.my_turn()["status"] != "done":
        calm.act()
    match = Match.objects.get(pk=match_id)
    assert match.status == Match.Status.DONE and played_to_its_end(match)
    assert person_decisions(match, person_seat) == calm.played
    assert bot_starts(match) == 1, "the bot was started more than once for one match"

    # The host holding the table dies mid-game: the other takes it over.
    rough = Person(live_stack.url)
    match_id = rough.open(bot_id)
    rough.act()
    live = LiveMatch.objects.get(match_id=match_id)
    while live.waiting == LiveMatch.Waiting.NEXT or not any(
        seat != rough.state["you"][0] for seat, _ in live.actions
    ):  # the bot has played in this game: its process runs on the holding host
        rough.act()
        live = LiveMatch.objects.get(match_id=match_id)
    holder = live.host
    assert holder in hosts
    # A spectator's page watches over the push channel meanwhile: the host that takes the
    # table over knows no connection of the dead one's, and asks them all to watch again.
    spectator = TableSpectator(live_stack.url, match_id)
    spectator.start()
    assert spectator.first.wait(30), spectator.failure
    stop(hosts[holder], signal.SIGKILL)
    killed_at = time.monotonic()
    while rough.my_turn(seconds=60)["status"] != "done":
        rough.act()
    assert spectator.ended.wait(30), "the spectator heard nothing after the host died"
    spectator.stop()
    assert spectator.failure is None, spectator.failure
    assert any(at > killed_at for at, _ in spectator.states)  # states pushed by the new host
    match = Match.objects.get(pk=match_id)
    assert match.status == Match.Status.DONE and played_to_its_end(match)
    assert LiveMatch.objects.get(match_id=match_id).host in set(hosts) - {holder}
    assert person_decisions(match, person_seat) == rough.played  # no decision lost
    # (What the restarted process logs in the resumed game is not asserted here: see the
    # issue's note.)
