"""Registering a remote bot (a URL) through the API: off unless the operator allows it, the same
refusals as the engine's, owned by the user, its URL shown to its owner and staff only."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory
from tests.surface import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def remote_on(settings):
    settings.TRUCO_REMOTE_BOTS = True
    settings.TRUCO_REMOTE_BOT_HOSTS = "bots.example.com,127.0.0.1"
    settings.TRUCO_REMOTE_BOT_NETWORKS = ""


def register(client, url, **extra):
    return client.post("/api/bots/", {"name": "far", "url": url, **extra}, format="json")


def test_remote_bots_are_refused_while_the_operator_has_not_turned_them_on(user_api):
    response = register(user_api, "https://bots.example.com/truco")
    assert response.status_code == 400
    assert "remote bots are off" in str(response.json()["url"])


def test_a_user_registers_a_remote_bot_whose_url_only_they_and_staff_see(remote_on, api, staff_api):
    alice = UserFactory(username="alice")
    response = register(client_for(alice), "https://bots.example.com/truco?token=s3cret")
    assert response.status_code == 201, response.json()
    bot = response.json()
    assert bot["kind"] == "remote" and bot["owner"] == "alice" and bot["plugin"] == ""
    assert bot["url"] == "https://bots.example.com/truco?token=s3cret"
    assert api.get(f"/api/bots/{bot['id']}/").json()["url"] is None
    assert client_for(UserFactory()).get(f"/api/bots/{bot['id']}/").json()["url"] is None
    assert staff_api.get(f"/api/bots/{bot['id']}/").json()["url"].endswith("s3cret")


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("http://127.0.0.1:5432/", "loopback address"),
        ("http://169.254.169.254/latest/meta-data/", "not one this server calls"),
        ("https://evil.example.net/", "not one this server calls"),
        ("gopher://bots.example.com/", "http:// or https://"),
        ("https://u:p@bots.example.com/", "user name or password"),
        ("https://bots.example.com/" + "a" * 600, "at most"),
    ],
)
def test_urls_the_policy_refuses_are_a_400_with_the_reason(remote_on, user_api, url, message):
    response = register(user_api, url)
    assert response.status_code == 400
    assert message in str(response.json())


def test_a_remote_bot_has_no_plugin_and_no_parameters(remote_on, user_api):
    both = register(user_api, "https://bots.example.com/x", plugin="random")
    assert both.status_code == 400 and "not both" in str(both.json())
    params = register(user_api, "https://bots.example.com/x", params={"a": 1})
    assert params.status_code == 400 and "no parameters" in str(params.json())
    neither = user_api.post("/api/bots/", {"name": "nothing"}, format="json")
    assert neither.status_code == 400 and "a remote bot's `url`" in str(neither.json())
