"""Variants and bot strategies from the plugin registry; bots owned and managed by their owners."""

from __future__ import annotations

import pytest

from players.models import Player
from submitted_bots.models import Bot
from tests.factories import BotFactory, EntrantFactory, PlayerFactory, UserFactory
from tests.surface import client_for

pytestmark = pytest.mark.django_db


def test_variants_list_their_option_schema_and_presets(api):
    response = api.get("/api/variants/")
    assert response.status_code == 200
    by_name = {v["name"]: v for v in response.json()}
    assert "paulista" in by_name
    paulista = by_name["paulista"]
    assert paulista["players"] == [2, 4]
    options = {o["name"]: o for o in paulista["options"]}
    assert options["deck"]["choices"] == ["dirty", "clean"]
    assert options["target"]["default"] == 12
    assert "mineiro-pagat" in by_name["mineiro"]["presets"]


def test_variant_detail_and_unknown_variant(api):
    assert api.get("/api/variants/paulista/").json()["title"] == "Truco Paulista"
    missing = api.get("/api/variants/no-such-game/")
    assert missing.status_code == 404


def test_bot_plugins_are_the_registered_strategies(api):
    names = [p["name"] for p in api.get("/api/bot-plugins/").json()]
    assert {"random", "heuristic"} <= set(names)
    assert api.get("/api/bot-plugins/random/").json()["plugin"] == "random"
    assert api.get("/api/bot-plugins/nope/").status_code == 404


def test_anyone_reads_bots_but_only_signed_in_users_create_them(api, user_api, user):
    BotFactory(name="public-bot")
    assert api.get("/api/bots/").json()["count"] == 1
    refused = api.post("/api/bots/", {"name": "mine", "plugin": "random"}, format="json")
    assert refused.status_code in (401, 403)
    created = user_api.post(
        "/api/bots/",
        {"name": "mine", "plugin": "heuristic", "params": {"call": 0.7}},
        format="json",
    )
    assert created.status_code == 201, created.json()
    assert created.json()["owner"] == user.username
    bot = Bot.objects.get(name="mine")
    assert bot.owner == user and bot.player.kind == Player.Kind.BOT


def test_unknown_bot_plugin_is_a_400_naming_the_registered_ones(user_api):
    response = user_api.post("/api/bots/", {"name": "x", "plugin": "alphazero"}, format="json")
    assert response.status_code == 400
    message = response.json()["plugin"][0]
    assert "alphazero" in message and "random" in message


def test_bot_parameters_the_plugin_rejects_are_a_400(user_api):
    # `seat` is the runner's to give: the bot cannot be built with it as a parameter.
    response = user_api.post(
        "/api/bots/", {"name": "x", "plugin": "heuristic", "params": {"seat": 3}}, format="json"
    )
    assert response.status_code == 400
    assert "rejected its parameters" in response.json()["params"][0]
    not_a_dict = user_api.post(
        "/api/bots/", {"name": "y", "plugin": "random", "params": [1, 2]}, format="json"
    )
    assert not_a_dict.status_code == 400 and "params" in not_a_dict.json()


def test_only_the_owner_or_staff_change_a_bot(user, user_api, staff_api):
    bot = BotFactory(owner=user, name="owned")
    stranger = client_for(UserFactory())
    url = f"/api/bots/{bot.pk}/"
    assert stranger.patch(url, {"description": "mine now"}, format="json").status_code == 403
    assert stranger.delete(url).status_code == 403
    assert user_api.patch(url, {"description": "tuned"}, format="json").status_code == 200
    assert staff_api.patch(url, {"is_active": False}, format="json").status_code == 200
    bot.refresh_from_db()
    assert bot.description == "tuned" and not bot.is_active


def test_renaming_a_bot_renames_its_player(user, user_api):
    bot = BotFactory(owner=user, name="old")
    response = user_api.patch(f"/api/bots/{bot.pk}/", {"version": "2"}, format="json")
    assert response.status_code == 200
    bot.player.refresh_from_db()
    assert bot.player.name == f"{user.username}/old v2"  # a user's bot: owner/name


def test_a_bot_name_taken_by_a_player_is_a_400_not_a_crash(user, user_api):
    PlayerFactory(name=f"{user.username}/mine")
    response = user_api.post("/api/bots/", {"name": "mine", "plugin": "random"}, format="json")
    assert response.status_code == 400
    assert "taken" in response.json()["name"][0]


def test_a_bot_that_played_keeps_its_plugin_and_cannot_be_deleted(user, user_api):
    bot = BotFactory(owner=user)
    EntrantFactory(bot=bot)
    url = f"/api/bots/{bot.pk}/"
    changed = user_api.patch(url, {"plugin": "heuristic"}, format="json")
    assert changed.status_code == 400
    assert "new version" in changed.json()["plugin"][0]
    deleted = user_api.delete(url)
    assert deleted.status_code == 400
    assert Bot.objects.filter(pk=bot.pk).exists()


def test_deleting_an_unused_bot_removes_its_player(user, user_api):
    bot = BotFactory(owner=user)
    player_id = bot.player_id
    assert user_api.delete(f"/api/bots/{bot.pk}/").status_code == 204
    assert not Player.objects.filter(pk=player_id).exists()


def test_token_authentication(api, user):
    bad = api.post("/api/auth/token/", {"username": user.username, "password": "nope"})
    assert bad.status_code == 400
    token = api.post(
        "/api/auth/token/", {"username": user.username, "password": "secret-pass-123"}
    ).json()["token"]
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    created = api.post("/api/bots/", {"name": "by-token", "plugin": "random"}, format="json")
    assert created.status_code == 201 and created.json()["owner"] == user.username


def test_every_bot_plugin_has_a_one_line_summary(api):
    plugins = {p["name"]: p["summary"] for p in api.get("/api/bot-plugins/").json()}
    assert all(summary and "\n" not in summary for summary in plugins.values()), plugins
    assert "uniformly among the legal actions" in plugins["random"]
    assert "Monte Carlo tree search" in plugins["mcts"]
    assert "rule-based" in plugins["heuristic"]
