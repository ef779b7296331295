"""Staff upload bundles through the admin: a new version of the chosen owner's bot (their own
when none is chosen), validated like any upload; a bad bundle is a form error, never a 500."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from submitted_bots.models import Bot
from tests.factories import UserFactory

from .zips import good_zip

pytestmark = pytest.mark.django_db
ADD = "/admin/submitted_bots/bot/add/"


@pytest.fixture
def staff_client(staff):
    client = Client()
    client.force_login(staff)
    return client


def test_staff_upload_a_version_for_a_user(
    staff_client, django_capture_on_commit_callbacks, queued_validations
):
    assert staff_client.get(ADD).status_code == 200
    alice = UserFactory(username="alice")
    with django_capture_on_commit_callbacks(execute=True):
        response = staff_client.post(
            ADD,
            {
                "upload": SimpleUploadedFile("g.zip", good_zip()),
                "owner": alice.pk,
                "params": "{}",
                "is_active": "on",
            },
        )
    assert response.status_code == 302, response.content.decode()[:2000]
    bot = Bot.objects.get()
    assert bot.label == "alice/greedy v1" and bot.status == "validating"
    assert queued_validations == [bot.pk]
    assert staff_client.get(f"/admin/submitted_bots/bot/{bot.pk}/change/").status_code == 200


def test_a_bad_bundle_in_the_admin_is_a_form_error(staff_client, staff):
    bad = good_zip(**{"../x": "y"})
    response = staff_client.post(ADD, {"upload": SimpleUploadedFile("g.zip", bad), "params": "{}"})
    assert response.status_code == 200
    assert "goes out of the bundle" in response.content.decode()
    assert not Bot.objects.exists()


def test_a_plugin_bot_is_still_added_as_before(staff_client):
    response = staff_client.post(
        ADD,
        {"name": "mcts-fast", "plugin": "mcts", "params": '{"iterations": 50}', "is_active": "on"},
    )
    assert response.status_code == 302
    assert Bot.objects.get().label == "mcts-fast"
    missing = staff_client.post(ADD, {"name": "x", "params": "{}"})
    assert "choose a plugin, or upload a bundle" in missing.content.decode()
