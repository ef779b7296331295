"""Issue 16, item 3: anyone could hold the web server's threads with `GET ?wait=10` on a table
whose bot thinks slowly. Waiting is for the table's own players (scripts), bounded (5 s), one
waiting request per player at a time and throttled; pages and spectators are pushed states."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tables.api.views import one_wait_per_player
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    """A person's practice table against random, and their signed-in client."""
    user = UserFactory()
    api = APIClient()
    api.force_authenticate(user)
    created = api.post("/api/play/quick/", {"variant": "paulista", "bot": "random"}, format="json")
    assert created.status_code == 201, created.content
    return api, user, f"/api/play/matches/{created.json()['match']}/"


def test_a_stranger_or_a_spectator_may_not_wait(table):
    _, _, url = table
    refused = APIClient().get(url + "?wait=5")
    assert refused.status_code == 403
    assert "push channel" in refused.json()["detail"]
    stranger = APIClient()
    stranger.force_authenticate(UserFactory())
    assert stranger.get(url + "?wait=5").status_code == 403
    assert APIClient().get(url).status_code == 200  # watching without waiting is fine


def test_a_player_waits_at_most_five_seconds(table):
    api, _, url = table
    assert api.get(url + "?wait=0.2").status_code == 200
    too_long = api.get(url + "?wait=10")
    assert too_long.status_code == 400 and "0 to 5" in too_long.json()["detail"]


def test_a_player_waits_on_one_request_at_a_time(table):
    api, user, url = table
    with one_wait_per_player(user.player.pk):  # a request of theirs waiting meanwhile
        second = api.get(url + "?wait=1")
    assert second.status_code == 429 and "one waiting request" in second.json()["detail"]
    assert api.get(url + "?wait=0.1").status_code == 200  # and again once it has answered
