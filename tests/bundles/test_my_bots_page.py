"""The "My bots" page: upload, see your versions (and only yours), refusals as messages, retire."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from players.models import Rating
from submitted_bots.models import Bot
from tests.factories import BotFactory, UserFactory

from .zips import good_zip, make_zip

pytestmark = pytest.mark.django_db


@pytest.fixture
def browser_client(user):
    client = Client()
    client.force_login(user)
    return client


def test_anonymous_visitors_are_sent_to_sign_in(client):
    response = client.get("/bots/mine/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_an_upload_shows_the_new_version_validating(browser_client, user, queued_validations):
    response = browser_client.post(
        "/bots/mine/", {"bundle": SimpleUploadedFile("g.zip", good_zip())}, follow=True
    )
    page = response.content.decode()
    assert f"{user.username}/greedy v1 uploaded" in page
    bot = Bot.objects.get(owner=user)
    assert f'id="bot-{bot.pk}" data-status="validating"' in page
    assert 'http-equiv="refresh"' in page  # it reloads until the worker has decided


def test_a_refused_upload_says_why(browser_client):
    bad = make_zip({"bot.toml": 'name = "x"\ncommand = ["./bot"]'})
    page = browser_client.post(
        "/bots/mine/", {"bundle": SimpleUploadedFile("g.zip", bad)}, follow=True
    ).content.decode()
    assert "Upload refused: no such command: &#x27;./bot&#x27; is not a file of the bundle" in page
    nothing = browser_client.post("/bots/mine/", {}, follow=True).content.decode()
    assert "Choose a bundle zip" in nothing
    assert not Bot.objects.exists()


def test_the_page_shows_only_your_versions_with_reason_and_log(browser_client, user):
    rated = BotFactory(owner=user, name="rated", kind="bundle", version="1")
    Rating.objects.create(player=rated.player, variant="paulista", mu=27.5, sigma=2.0, matches=3)
    BotFactory(
        owner=user,
        name="mine",
        kind="bundle",
        version="1",
        status="rejected",
        status_reason="too slow (in paulista)",
        log="my stderr",
    )
    BotFactory(owner=UserFactory(), name="theirs", kind="bundle", version="1", log="their log")
    page = browser_client.get("/bots/mine/").content.decode()
    assert f"{user.username}/mine" in page and "too slow (in paulista)" in page
    assert "my stderr" in page
    assert "paulista 27.5 ± 4.0 (3 matches)" in page
    assert "theirs" not in page and "their log" not in page
    assert 'http-equiv="refresh"' not in page


def test_retiring_is_for_your_own_versions(browser_client, user):
    mine = BotFactory(owner=user, name="mine", kind="bundle", version="1")
    theirs = BotFactory(owner=UserFactory(), name="theirs", kind="bundle", version="1")
    assert browser_client.post(f"/bots/{theirs.pk}/retire/").status_code == 404
    browser_client.post(f"/bots/{mine.pk}/retire/")
    mine.refresh_from_db()
    theirs.refresh_from_db()
    assert mine.status == "retired" and not mine.is_active
    assert theirs.status == "ready"
