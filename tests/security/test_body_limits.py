"""Bodies too deep or too large answer 400/413 with a message on every JSON endpoint, never a
500: JSON nested 100,000 deep, bodies over DATA_UPLOAD_MAX_MEMORY_SIZE (JSON and forms), too
many form fields. Through the test client on several endpoints, and over a real socket."""

from __future__ import annotations

import http.client
import json
from urllib.parse import urlsplit

import pytest

from tests.factories import BotFactory, StaffFactory, UserFactory
from tests.surface import client_for

pytestmark = pytest.mark.django_db

DEEP = "[" * 100_000 + "]" * 100_000


def endpoints(user) -> list[tuple[str, str]]:
    from tables.quick import quick_match

    bot = BotFactory(owner=user)
    table = quick_match(user, variant="paulista", bot="random")  # user's turn to act
    return [
        ("post", "/api/bots/"),
        ("patch", f"/api/bots/{bot.pk}/"),
        ("post", "/api/tournaments/"),
        ("post", "/api/entrants/"),
        ("post", "/api/play/quick/"),
        ("post", "/api/auth/token/"),
        ("post", f"/api/play/matches/{table.pk}/act/"),
        ("post", f"/api/play/matches/{table.pk}/chat/"),
    ]


def send(client, method, url, body: str | bytes, content_type="application/json"):
    return getattr(client, method)(url, data=body, content_type=content_type)


def test_json_nested_100000_deep_is_a_400_with_a_message_everywhere():
    user = StaffFactory()  # may reach every endpoint's parser
    client = client_for(user)
    for method, url in endpoints(user):
        response = send(client, method, url, DEEP)
        assert response.status_code == 400, (url, response.status_code)
        assert "nested deeper than 64 levels" in response.json()["detail"], url


def test_json_nested_within_the_bound_is_parsed_as_usual(user_api):
    params = {"a": [[[[{"b": 1}]]]]}  # an unknown parameter, so the plugin answers
    response = user_api.post(
        "/api/bots/", {"name": "n", "plugin": "mcts", "params": params}, format="json"
    )
    assert response.status_code == 400 and "unknown parameter a" in str(response.json())


def test_a_body_over_the_bound_is_a_413_with_a_message(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    user = StaffFactory()
    client = client_for(user)
    big = json.dumps({"name": "x" * 20_000, "plugin": "random"})
    for method, url in endpoints(user):
        response = send(client, method, url, big)
        assert response.status_code == 413, (url, response.status_code)
        assert "over 10000 bytes" in response.json()["detail"]
    form = send(
        client, "post", "/api/bots/", f"name={'x' * 20_000}", "application/x-www-form-urlencoded"
    )
    assert form.status_code == 413 and "over 10000 bytes" in form.json()["detail"]


def test_too_many_form_fields_is_a_400_with_a_message(settings):
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 100
    client = client_for(UserFactory())
    body = "&".join(f"f{i}=1" for i in range(500))
    response = send(client, "post", "/api/bots/", body, "application/x-www-form-urlencoded")
    assert response.status_code == 400
    assert response.json()["detail"] == "the request has more than 100 fields"


def test_broken_and_non_standard_json_is_a_400(user_api):
    for body in ("{", '{"name": NaN}', b"\xff\xfe\x00", "[1,]"):
        response = send(user_api, "post", "/api/bots/", body)
        assert response.status_code == 400, body
        assert "JSON parse error" in response.json()["detail"]


@pytest.mark.django_db(transaction=True)
def test_over_a_real_socket_the_server_answers_and_keeps_serving(live_server):
    """A live server: the hostile bodies get their answers and the next request is served."""
    host = urlsplit(live_server.url)

    def post(path: str, body: bytes) -> tuple[int, dict]:
        connection = http.client.HTTPConnection(host.hostname, host.port, timeout=30)
        connection.request("POST", path, body, {"Content-Type": "application/json"})
        response = connection.getresponse()
        payload = json.loads(response.read() or b"{}")
        connection.close()
        return response.status, payload

    status, payload = post("/api/auth/token/", DEEP.encode())
    assert status == 400 and "nested deeper" in payload["detail"]
    status, payload = post("/api/auth/token/", b'{"username": "' + b"x" * 3_000_000 + b'"}')
    assert status == 413 and "bytes" in payload["detail"]
    UserFactory(username="after")
    status, payload = post(
        "/api/auth/token/",
        json.dumps({"username": "after", "password": "secret-pass-123"}).encode(),
    )
    assert status == 200 and payload["token"]
