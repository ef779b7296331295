"""End to end on the production shape (a live web server and a real Celery worker on
PostgreSQL and Redis: the `live_stack` fixture): a new user signs up, registers a bot, enters it
and themselves through the tournament page, withdraws one; the organiser starts; the worker
plays it and the standings show the entrant. And a remote bot (a URL) plays a tournament on the
worker and appears in the standings."""

from __future__ import annotations

import time

import pytest
import requests
from rest_framework.authtoken.models import Token

from submitted_bots.models import Bot
from tests.factories import BotFactory, StaffFactory, TournamentFactory
from tests.remote.botserver import BotServer
from tournaments.models import Entrant, Match, Tournament

pytestmark = pytest.mark.services


def csrf(session: requests.Session) -> str:
    return session.cookies.get("csrftoken", "")


def form_post(session: requests.Session, url: str, data: dict) -> requests.Response:
    """A form of the site, as a browser posts it (CSRF token and Referer)."""
    return session.post(
        url,
        data={"csrfmiddlewaretoken": csrf(session), **data},
        headers={"Referer": url},
        timeout=30,
    )


def wait_until_done(tournament_id: int, seconds: float = 90) -> Tournament:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        tournament = Tournament.objects.get(pk=tournament_id)
        if tournament.status == Tournament.Status.DONE:
            return tournament
        time.sleep(0.2)
    statuses = list(Match.objects.filter(tournament_id=tournament_id).values("status", "error"))
    raise AssertionError(f"the tournament did not finish: {statuses}")


def staff_session() -> requests.Session:
    session = requests.Session()
    session.headers["Authorization"] = f"Token {Token.objects.create(user=StaffFactory()).key}"
    return session


def test_a_new_user_signs_up_enters_withdraws_and_the_started_tournament_shows_them(
    live_stack,
):
    site = live_stack.url
    cup = TournamentFactory(
        name="Open Cup", registration_open=True, games_per_match=2, format="round-robin"
    )
    rival = BotFactory(name="house-bot", plugin="random")
    Entrant.objects.create(tournament=cup, name=rival.label, bot=rival)

    user = requests.Session()
    user.get(f"{site}/accounts/signup/", timeout=30)
    signed_up = form_post(
        user,
        f"{site}/accounts/signup/",
        {"username": "newcomer", "password1": "a-long-pass-9876", "password2": "a-long-pass-9876"},
    )
    assert signed_up.status_code == 200 and "Sign out newcomer" in signed_up.text
    made = user.post(
        f"{site}/api/bots/",
        json={"name": "newbot", "plugin": "random"},
        headers={"X-CSRFToken": csrf(user), "Referer": site},
        timeout=30,
    )
    assert made.status_code == 201, made.text[:500]
    page_url = f"{site}/tournaments/{cup.pk}/"
    assert "Enter myself" in user.get(page_url, timeout=30).text
    entered = form_post(user, f"{page_url}enter/", {"bot": made.json()["id"]})
    assert "newcomer/newbot is entered." in entered.text
    entered = form_post(user, f"{page_url}enter/", {"human": "1"})
    assert "newcomer is entered." in entered.text
    me = Entrant.objects.get(tournament=cup, name="newcomer")
    withdrawn = form_post(user, f"{page_url}withdraw/", {"entrant": me.pk})
    assert "Withdrawn." in withdrawn.text

    started = staff_session().post(f"{site}/api/tournaments/{cup.pk}/start/", timeout=30)
    assert started.status_code == 200, started.text[:500]
    wait_until_done(cup.pk)
    rows = requests.get(f"{site}/api/tournaments/{cup.pk}/standings/", timeout=30).json()["rows"]
    assert {row["entrant"]["name"] for row in rows} == {"newcomer/newbot", "house-bot"}
    page = requests.get(page_url, timeout=30).text
    assert "newbot" in page and 'href="/users/newcomer/"' in page
    assert "newbot" in requests.get(f"{site}/users/newcomer/", timeout=30).text
    assert "Traceback" not in live_stack.log("web")


@pytest.fixture
def remote_bots_on_loopback(monkeypatch):
    """The operator's settings for the web server and the worker (read from the environment
    that the live stack's processes inherit): remote bots on, the test's loopback allowed."""
    monkeypatch.setenv("TRUCO_REMOTE_BOTS", "1")
    monkeypatch.setenv("TRUCO_REMOTE_BOT_HOSTS", "127.0.0.1")
    monkeypatch.setenv("TRUCO_REMOTE_BOT_NETWORKS", "127.0.0.0/8")


def test_a_remote_bot_plays_a_tournament_on_the_worker_and_appears_in_the_standings(
    remote_bots_on_loopback, live_stack
):
    with BotServer("good") as server:
        owner = StaffFactory(username="far-owner")
        token = Token.objects.create(user=owner).key
        session = requests.Session()
        session.headers["Authorization"] = f"Token {token}"
        site = live_stack.url
        made = session.post(
            f"{site}/api/bots/", json={"name": "far", "url": server.url}, timeout=30
        )
        assert made.status_code == 201, made.text[:500]
        cup = TournamentFactory(name="Remote Cup", registration_open=True, games_per_match=2)
        for bot in (Bot.objects.get(pk=made.json()["id"]), BotFactory(name="near")):
            Entrant.objects.create(tournament=cup, name=bot.label, bot=bot)
        assert (
            session.post(f"{site}/api/tournaments/{cup.pk}/start/", timeout=30).status_code == 200
        )
        wait_until_done(cup.pk)
    match = Match.objects.get(tournament=cup)
    # Two planned games, and deciders while they are drawn (an elimination match has a
    # winner): what the rules guarantee, not what one deal gave.
    assert set(match.terminations) == {"normal"} and match.worker  # played by the worker
    assert match.games_played == 2 + match.summary["deciders"] >= 2
    assert match.winner_id is not None
    assert sum(1 for m in server.messages if m["type"] == "act") > 0
    rows = requests.get(f"{site}/api/tournaments/{cup.pk}/standings/", timeout=30).json()["rows"]
    assert {row["entrant"]["name"] for row in rows} == {"far-owner/far", "near"}
