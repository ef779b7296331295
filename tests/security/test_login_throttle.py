"""Repeated wrong passwords meet a lockout (django-axes) on /api/auth/token/, the login page
and the admin login: a 429 that says so, while others still log in with their own password.
The token view also has a rate per address (DRF throttling)."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "secret-pass-123"  # tests.factories.UserFactory's


def token(client, username, password):
    return client.post(
        "/api/auth/token/", {"username": username, "password": password}, format="json"
    )


def test_forty_wrong_passwords_on_the_token_endpoint_meet_a_429(settings):
    victim, someone_else = UserFactory(), UserFactory()
    attacker = APIClient(REMOTE_ADDR="203.0.113.7")
    codes = [token(attacker, victim.username, f"guess{i}").status_code for i in range(40)]
    limit = settings.AXES_FAILURE_LIMIT
    assert codes[:limit] == [400] * limit  # "unable to log in" while attempts are counted
    assert set(codes[limit:]) == {429}
    locked = token(attacker, victim.username, PASSWORD)  # even the right one, from there
    assert locked.status_code == 429
    assert "too many wrong passwords" in locked.json()["detail"]
    assert int(locked["Retry-After"]) == settings.AXES_COOLOFF_TIME.total_seconds()
    # Someone else, from the same address or another, still gets a token.
    assert token(attacker, someone_else.username, PASSWORD).status_code == 200
    assert token(APIClient(REMOTE_ADDR="198.51.100.2"), victim.username, PASSWORD).json()["token"]


def test_the_login_page_and_the_admin_login_lock_out_with_a_page_that_says_so(settings):
    victim, staff = UserFactory(), UserFactory(is_staff=True)
    browser = Client(REMOTE_ADDR="203.0.113.8")
    for form, user in (("/accounts/login/", victim), ("/admin/login/", staff)):
        codes = [
            browser.post(form, {"username": user.username, "password": "nope"}).status_code
            for _ in range(40)
        ]
        limit = settings.AXES_FAILURE_LIMIT
        assert codes[: limit - 1] == [200] * (limit - 1)  # the form again, with its error
        assert set(codes[limit:]) == {429}
        page = browser.post(form, {"username": user.username, "password": PASSWORD})
        assert page.status_code == 429
        assert "Too many wrong passwords" in page.content.decode()
    other = Client(REMOTE_ADDR="203.0.113.8")
    welcome = other.post(
        "/accounts/login/", {"username": UserFactory().username, "password": PASSWORD}
    )
    assert welcome.status_code == 302  # logged in and sent on


def test_a_right_password_resets_the_count():
    user = UserFactory()
    client = APIClient(REMOTE_ADDR="203.0.113.9")
    for _ in range(3):
        for _ in range(5):
            assert token(client, user.username, "wrong").status_code == 400
        assert token(client, user.username, PASSWORD).status_code == 200


def test_the_token_endpoint_has_a_rate_per_address(monkeypatch):
    # DRF reads the rates once, at import: the test sets the class's copy.
    monkeypatch.setattr(
        "rest_framework.throttling.ScopedRateThrottle.THROTTLE_RATES", {"login": "5/minute"}
    )
    client = APIClient(REMOTE_ADDR="203.0.113.10")
    codes = [token(client, f"nobody{i}", "x").status_code for i in range(8)]
    assert codes == [400] * 5 + [429] * 3
    assert "throttled" in token(client, "nobody", "x").json()["detail"].lower()
