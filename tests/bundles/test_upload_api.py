"""Uploading bundles through the REST API: each upload a new version with its own player,
every refusal a 400 with its reason (never a 500, never a file silently dropped), and what only
the owner and staff may see."""

from __future__ import annotations

import io
import os

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from submitted_bots.models import Bot
from tests.factories import UserFactory
from tests.surface import client_for

from .zips import GOOD_MANIFEST, good_zip, make_zip

pytestmark = pytest.mark.django_db


def upload(client, data: bytes, field: str = "bundle", **extra):
    return client.post(
        "/api/bots/",
        {field: SimpleUploadedFile("bot.zip", data, "application/zip"), **extra},
        format="multipart",
    )


def test_each_upload_is_a_new_version_with_its_own_player(
    user_api, user, queued_validations, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        first = upload(user_api, good_zip())
    assert first.status_code == 201, first.json()
    body = first.json()
    assert body["label"] == f"{user.username}/greedy v1"
    assert body["status"] == "validating" and body["kind"] == "bundle"
    assert body["owner"] == user.username and body["size"] > 0 and len(body["sha256"]) == 64
    with django_capture_on_commit_callbacks(execute=True):
        second = upload(user_api, good_zip(extra="changed"), description="second try").json()
    assert second["version"] == "2" and second["description"] == "second try"
    assert second["player"] != body["player"]
    assert queued_validations == [body["id"], second["id"]]
    bot = Bot.objects.get(pk=body["id"])
    with bot.bundle.open("rb") as stored:
        assert stored.read() == good_zip()  # the zip as uploaded, through the storage API


def test_versions_of_two_users_with_the_same_name_are_apart(user_api, user):
    other = UserFactory()
    upload(user_api, good_zip())
    theirs = upload(client_for(other), good_zip()).json()
    assert theirs["label"] == f"{other.username}/greedy v1"


BAD = {
    "bad manifest": (make_zip({"bot.toml": "name = ", "bot.py": ""}), "not valid TOML"),
    "no manifest": (make_zip({"bot.py": ""}), "no bot.toml"),
    "missing command": (
        make_zip({"bot.toml": 'name = "x"\ncommand = ["./bot"]'}),
        "no such command: './bot'",
    ),
    "zip slip": (good_zip(**{"../../evil.py": "x"}), "goes out of the bundle"),
    "absolute path": (good_zip(**{"/tmp/evil.py": "x"}), "absolute paths"),
    "symlink": (
        make_zip({"bot.toml": GOOD_MANIFEST, "bot.py": ""}, symlinks={"s": "/etc/shadow"}),
        "symlink 's'",
    ),
    "reserved name": (
        make_zip({"bot.toml": 'name = "Heuristic"\ncommand = ["python3", "b.py"]'}),
        "reserved",
    ),
    "unknown variant": (
        make_zip({"bot.toml": 'name = "x"\ncommand = ["sh"]\nvariants = ["poker"]'}),
        "unknown variant 'poker'",
    ),
    "not a zip": (b"MZ\x90\x00 not a zip", "not a zip file"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_every_refusal_is_a_400_with_its_reason(user_api, case, queued_validations):
    data, reason = BAD[case]
    response = upload(user_api, data)
    assert response.status_code == 400, response.content
    assert reason in response.json()["bundle"][0]
    assert not Bot.objects.exists() and queued_validations == []


def test_an_oversized_bundle_is_refused(user_api, settings):
    settings.TRUCO_BUNDLE_MAX_MB = 1
    response = upload(user_api, good_zip(noise=os.urandom(1_060_000)))
    assert response.status_code == 400
    assert "bundle too big: 1.01 MiB, at most 1 MiB" in response.json()["bundle"][0]


def test_a_file_is_never_silently_dropped(user_api):
    wrong_field = upload(user_api, good_zip(), field="file")
    assert wrong_field.status_code == 400
    assert "unexpected file field 'file'" in wrong_field.json()["detail"]
    plugin_and_file = user_api.post(
        "/api/bots/",
        {"name": "mine", "plugin": "random", "code": io.BytesIO(b"print(1)")},
        format="multipart",
    )
    assert plugin_and_file.status_code == 400
    no_file = user_api.post("/api/bots/", {"name": "mine", "plugin": "random"}, format="multipart")
    assert no_file.status_code == 400 and "no bundle" in no_file.json()["detail"]
    assert not Bot.objects.exists()


def test_anonymous_users_cannot_upload(api):
    assert upload(api, good_zip()).status_code in (401, 403)


def test_reason_smoke_result_and_log_are_for_the_owner_and_staff(user_api, staff_api, api):
    bot_id = upload(user_api, good_zip()).json()["id"]
    Bot.objects.filter(pk=bot_id).update(
        status="rejected",
        status_reason="crashed at start-up: secret detail",
        log="my secret log",
        validation={"ok": False},
    )
    for client in (user_api, staff_api):
        body = client.get(f"/api/bots/{bot_id}/").json()
        assert body["log"] == "my secret log" and "secret detail" in body["status_reason"]
    for client in (api, client_for(UserFactory())):
        body = client.get(f"/api/bots/{bot_id}/").json()
        assert body["status"] == "rejected"
        assert body["log"] is None and body["status_reason"] is None and body["validation"] is None


def test_an_uploaded_version_does_not_change_and_can_be_retired(user_api, api):
    bot_id = upload(user_api, good_zip()).json()["id"]
    changed = user_api.patch(f"/api/bots/{bot_id}/", {"name": "other"}, format="json")
    assert changed.status_code == 400 and "upload a new version" in changed.json()["name"][0]
    assert api.post(f"/api/bots/{bot_id}/retire/").status_code in (401, 403)
    retired = client_for(UserFactory()).post(f"/api/bots/{bot_id}/retire/")
    assert retired.status_code == 403
    done = user_api.post(f"/api/bots/{bot_id}/retire/").json()
    assert done["status"] == "retired" and done["is_active"] is False


def test_only_ready_versions_can_be_entered(user_api, staff_api):
    from tests.factories import BotFactory

    bot_id = upload(user_api, good_zip()).json()["id"]

    def create_tournament():
        entrants = [{"bot": bot_id}, {"bot": BotFactory().pk}]
        return staff_api.post(
            "/api/tournaments/",
            {"name": "t", "variant": "paulista", "entrants": entrants},
            format="json",
        )

    refused = create_tournament()
    assert refused.status_code == 400
    assert "is validating; only ready bots can be entered" in str(refused.json())
    Bot.objects.filter(pk=bot_id).update(status="ready")
    created = create_tournament()
    assert created.status_code == 201, created.json()


def test_an_upload_far_over_the_limit_is_refused_before_its_body_is_read(user_api, settings):
    settings.TRUCO_BUNDLE_MAX_MB = 1
    response = upload(user_api, good_zip(noise=os.urandom(3_000_000)))
    assert response.status_code == 400
    assert "the upload is 2.9 MiB, a bundle is at most 1 MiB" in response.json()["bundle"][0]
    assert not Bot.objects.exists()


def test_deleting_an_unused_version_deletes_its_stored_zip(user_api):
    bot = Bot.objects.get(pk=upload(user_api, good_zip()).json()["id"])
    storage, name = bot.bundle.storage, bot.bundle.name
    assert storage.exists(name)
    assert user_api.delete(f"/api/bots/{bot.pk}/").status_code == 204
    assert not storage.exists(name)


def test_a_user_waits_for_their_validations_before_uploading_more(user_api, settings):
    settings.TRUCO_MAX_VALIDATING_PER_USER = 2
    assert upload(user_api, good_zip()).status_code == 201
    assert upload(user_api, good_zip(a="1")).status_code == 201
    third = upload(user_api, good_zip(a="2"))
    assert third.status_code == 400
    assert "2 versions being validated" in third.json()["bundle"][0]
    Bot.objects.update(status="ready")
    assert upload(user_api, good_zip(a="3")).status_code == 201


def test_a_worker_without_a_jail_leaves_the_version_validating(user_api, monkeypatch):
    from engine.jail.probe import JailUnavailable
    from submitted_bots import smoke_match as validation

    bot_id = upload(user_api, good_zip()).json()["id"]

    def no_jail(bot):
        raise JailUnavailable("untrusted bots are refused: no bwrap")

    monkeypatch.setattr(validation, "run_smoke_match", no_jail)
    with pytest.raises(JailUnavailable):
        validation.validate_version(bot_id)
    assert Bot.objects.get(pk=bot_id).status == "validating"
