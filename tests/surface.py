"""Fixtures shared by the API, web and play tests (imported by their conftest.py files)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import PlayerFactory, StaffFactory, UserFactory


@pytest.fixture(autouse=True)
def no_broker(monkeypatch):
    """Matches that would go to Celery workers are collected here instead; a test that needs
    them played runs tournaments.execution itself."""
    sent: list[int] = []
    monkeypatch.setattr(
        "tournaments.dispatch.send", lambda batches: [sent.extend(batch) for batch in batches]
    )
    return sent


@pytest.fixture(autouse=True)
def queued_validations(monkeypatch):
    """Uploaded versions whose validation would go to a worker are collected here; a test that
    needs one validated calls submitted_bots.smoke_match.validate_version itself."""
    sent: list[int] = []
    monkeypatch.setattr("submitted_bots.bundles.uploads.publish_validation", sent.append)
    return sent


@pytest.fixture(autouse=True)
def bundle_storage(settings, tmp_path):
    """Uploaded bundles and their unpacked folders go to this test's own folder."""
    settings.STORAGES = {
        **settings.STORAGES,
        "bundles": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(tmp_path / "bundles")},
        },
    }
    settings.TRUCO_BUNDLE_CACHE_DIR = tmp_path / "bundle-cache"
    from django.core.files.storage import storages

    storages._storages.pop("bundles", None)
    yield
    storages._storages.pop("bundles", None)


@pytest.fixture(autouse=True)
def fresh_cache():
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def staff(db):
    return StaffFactory()


@pytest.fixture
def staff_api(staff):
    client = APIClient()
    client.force_authenticate(staff)
    return client


@pytest.fixture
def user(db):
    return UserFactory()


@pytest.fixture
def user_api(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def human(db):
    """A human player with an account."""
    return PlayerFactory()


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def play_until(client, match_id: int, state: dict, done=lambda s: s["status"] == "done") -> dict:
    """The human plays its first legal action at each of its turns until `done(state)` (by
    default: the match is over); the last table state."""
    for _ in range(500):
        if done(state):
            return state
        seat = str(state["to_act"])
        state = client.post(
            f"/api/play/matches/{match_id}/act/",
            {"action": state["observations"][seat]["legal"][0], "turn": state["turn"]},
        ).json()
    raise AssertionError(f"not reached in 500 actions; last state: {state}")
