"""Validation on the server and bundles in tournaments, in the jail: an uploaded version is
`ready` after its smoke match or `rejected` with its reason and log (shown to its owner); a ready
version and a bundle folder named on the command line play tournaments and are rated."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command

from players.models import Rating
from submitted_bots.bundles.operator import zipped
from submitted_bots.models import Bot
from submitted_bots.smoke_match import validate_version
from tests.jail.conftest import jail_or_skip

from .hostile_bundles import write_bundle

pytestmark = pytest.mark.django_db
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "bots"


@pytest.fixture(autouse=True)
def jail():
    jail_or_skip()


def upload_folder(client, folder: Path) -> dict:
    data = zipped(folder)
    response = client.post(
        "/api/bots/", {"bundle": SimpleUploadedFile("b.zip", data)}, format="multipart"
    )
    assert response.status_code == 201, response.json()
    return response.json()


def test_an_uploaded_version_is_ready_after_its_smoke_match(user_api, queued_validations):
    created = upload_folder(user_api, EXAMPLES / "python-greedy")
    assert created["status"] == "validating"
    assert validate_version(created["id"]) == "ready"
    body = user_api.get(f"/api/bots/{created['id']}/").json()
    assert body["status"] == "ready" and body["status_reason"] == ""
    settings = body["validation"]["settings"]
    assert [(s["variant"], s["players"], s["games"]) for s in settings] == [
        ("paulista", 2, 2),
        ("paulista", 4, 2),
    ]
    assert validate_version(created["id"]) == "ready"  # a redelivered task changes nothing


def test_a_version_that_crashes_at_start_up_is_rejected_with_reason_and_log(user_api, tmp_path):
    created = upload_folder(user_api, write_bundle(tmp_path, "crashes-at-start"))
    assert validate_version(created["id"]) == "rejected"
    body = user_api.get(f"/api/bots/{created['id']}/").json()
    assert body["status"] == "rejected"
    assert body["status_reason"].startswith("crashed at start-up")
    assert "cannot find my model file" in body["log"]


def test_a_version_that_answers_illegally_is_rejected(user_api, tmp_path):
    created = upload_folder(user_api, write_bundle(tmp_path, "illegal"))
    assert validate_version(created["id"]) == "rejected"
    reason = Bot.objects.get(pk=created["id"]).status_reason
    assert reason.startswith("illegal action in the smoke match") and "play 9z" in reason


def run_tournament(*bots: str) -> dict:
    out = io.StringIO()
    call_command(
        "run_tournament",
        "--bots",
        *bots,
        "--games",
        "4",
        "--format",
        "round-robin",
        "--json",
        stdout=out,
    )
    return json.loads(out.getvalue().strip().splitlines()[-1])


def test_ready_versions_play_a_tournament_and_are_rated_apart(
    user, user_api, settings, monkeypatch
):
    # One smoke game per setting, not two, against a quick built-in bot: the class example
    # plays every variant, and its smoke match drawn against mcts took 40 s (what a validation
    # reports has its own test).
    settings.TRUCO_VALIDATION_GAMES = 1
    monkeypatch.setattr("engine.bundles.smoke.OPPONENTS", ("random", "heuristic"))
    first = upload_folder(user_api, EXAMPLES / "python-greedy")
    validate_version(first["id"])
    second = upload_folder(user_api, EXAMPLES / "python-plugin-class")
    validate_version(second["id"])
    report = run_tournament(
        f"{user.username}/py-greedy", f"{user.username}/class-greedy v1", "random"
    )
    assert report["status"] == "done"
    names = {row["entrant"] for row in report["standings"]}
    assert names == {f"{user.username}/py-greedy v1", f"{user.username}/class-greedy v1", "random"}
    rated = set(Rating.objects.values_list("player_id", flat=True))
    assert {first["player"], second["player"]} <= rated


def test_a_bundle_folder_on_the_command_line_plays_jailed_and_keeps_its_rating():
    folder = str(EXAMPLES / "node-greedy")
    report = run_tournament(folder, "random")
    assert report["status"] == "done"
    bot = Bot.objects.get(kind="bundle", owner__isnull=True)
    assert bot.label == "node-greedy v1" and bot.status == "ready"
    run_tournament(folder, "random")
    assert Bot.objects.filter(kind="bundle").count() == 1  # the same content: the same version
    assert Rating.objects.get(player=bot.player).matches == 2


def test_a_person_plays_a_quick_table_against_a_ready_version(user, user_api, settings):
    settings.TRUCO_TABLES = "inline"
    created = upload_folder(user_api, EXAMPLES / "python-greedy")
    validate_version(created["id"])
    response = user_api.post(
        "/api/play/quick/",
        {"variant": "paulista", "bot": f"{user.username}/py-greedy"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    state = response.json()
    assert state["waiting"] == "human" and state["your_turn"]
    names = [seat["name"] for seat in state["seats"]]
    assert f"{user.username}/py-greedy v1" in names
