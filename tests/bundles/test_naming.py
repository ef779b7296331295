"""Issue 8, "Names": built-in names are reserved, a user's bot is known as owner/name, and no
place that picks a bot by name picks another user's bot by accident - the attack of the issue
(an ordinary user's bot named `heuristic`, pointing to another plugin) tried everywhere."""

from __future__ import annotations

import io

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import CommandError

from submitted_bots.models import Bot
from tests.factories import BotFactory, UserFactory
from tournaments.builders import bots_named
from tournaments.models import Entrant

pytestmark = pytest.mark.django_db


@pytest.fixture
def squatter(db):
    """A bot named like a built-in, owned by an ordinary user, made before names were reserved
    (as the issue found it): its plugin is another one."""
    mallory = UserFactory(username="mallory")
    return BotFactory(owner=mallory, name="heuristic", plugin="random", params={})


def test_the_api_refuses_built_in_names_in_any_case(user_api):
    for name in ("heuristic", "MCTS", "Random"):
        response = user_api.post("/api/bots/", {"name": name, "plugin": "random"}, format="json")
        assert response.status_code == 400
        assert "reserved" in response.json()["name"][0]
    slash = user_api.post("/api/bots/", {"name": "bob/evil", "plugin": "random"}, format="json")
    assert slash.status_code == 400 and "letters, digits" in slash.json()["name"][0]


def test_run_tournament_bots_heuristic_means_the_built_in(squatter):
    out = io.StringIO()
    call_command(
        "run_tournament", "--bots", "heuristic", "random", "--games", "2", "--json", stdout=out
    )
    entered = Entrant.objects.get(name="heuristic").bot
    assert entered.pk != squatter.pk
    assert entered.owner is None and entered.plugin == "heuristic"


def test_a_quick_table_against_heuristic_means_the_built_in(squatter, user_api):
    response = user_api.post(
        "/api/play/quick/", {"variant": "paulista", "bot": "heuristic"}, format="json"
    )
    assert response.status_code == 201, response.json()
    opponent = Entrant.objects.filter(bot__isnull=False).get().bot
    assert opponent.pk != squatter.pk and opponent.plugin == "heuristic" and opponent.owner is None


def test_a_users_bot_is_picked_by_owner_and_name_only(squatter):
    assert bots_named(["mallory/heuristic"]) == [squatter]
    with pytest.raises(ValidationError, match="no user 'nobody'"):
        bots_named(["nobody/heuristic"])
    with pytest.raises(ValidationError, match="unknown bot 'greedy'"):
        BotFactory(owner=squatter.owner, name="greedy")
        bots_named(["greedy"])  # a bare name is never a user's bot


def test_owner_name_picks_the_newest_ready_version_and_vn_that_version(user):
    def version(number: str, status: str) -> Bot:
        return BotFactory(owner=user, name="greedy", version=number, status=status)

    v1, v2, v3 = version("1", "ready"), version("2", "ready"), version("3", "rejected")
    assert bots_named([f"{user.username}/greedy"]) == [v2]
    assert bots_named([f"{user.username}/greedy v1"]) == [v1]
    with pytest.raises(CommandError, match="is rejected; only ready bots"):
        call_command("run_tournament", "--bots", f"{user.username}/greedy v3", "random")
    assert v3.label == f"{user.username}/greedy v3"


def test_a_user_cannot_play_a_quick_table_against_a_version_that_is_not_ready(user, user_api):
    BotFactory(owner=user, name="greedy", version="1", status="validating")
    response = user_api.post(
        "/api/play/quick/",
        {"variant": "paulista", "bot": f"{user.username}/greedy v1"},
        format="json",
    )
    assert response.status_code == 400
    assert "validating" in response.json()["bot"][0]


def test_a_folder_named_like_a_users_bot_must_be_written_as_a_path(tmp_path, monkeypatch):
    UserFactory(username="alice")
    (tmp_path / "alice" / "greedy").mkdir(parents=True)
    (tmp_path / "alice" / "greedy" / "bot.toml").write_text(
        'name = "greedy"\ncommand = ["python3", "bot.py"]\n'
    )
    (tmp_path / "alice" / "greedy" / "bot.py").write_text("")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValidationError, match="write ./alice/greedy for the folder"):
        bots_named(["alice/greedy"])
    [bot] = bots_named(["./alice/greedy"])
    assert bot.kind == "bundle" and bot.owner is None and bot.label == "greedy v1"


# "$" matches before a final newline: with `re.match`, `heuristic\n` passed the reserved-name
# rule (it is not "heuristic") and became carol/heuristic\n v1, shown as `heuristic`.
@pytest.mark.parametrize("name", ["heuristic\n", "greedy\n", "greedy\r", "gre edy", "greedy\x1b"])
def test_a_bot_name_with_a_newline_or_a_control_character_is_refused(name):
    from submitted_bots.names import check_user_bot_name

    with pytest.raises(ValidationError) as caught:
        check_user_bot_name(name)
    message = caught.value.message_dict["name"][0]
    assert "1 to 40 letters, digits, - or _" in message and repr(name) in message


def test_the_api_refuses_a_bot_name_with_a_newline_or_a_control_character(user_api):
    # The API trims a name's ends (a final newline is gone before it is checked: `heuristic`
    # is then the reserved name); inside the name, or a control character, it is refused.
    trimmed = user_api.post(
        "/api/bots/", {"name": "heuristic\n", "plugin": "random"}, format="json"
    )
    assert trimmed.status_code == 400 and "reserved" in trimmed.json()["name"][0]
    for name in ("heur\nistic", "greedy\x1b", "greedy\u2028x"):
        refused = user_api.post("/api/bots/", {"name": name, "plugin": "random"}, format="json")
        assert refused.status_code == 400, name
        assert "letters, digits" in refused.json()["name"][0]
    assert not Bot.objects.filter(owner__isnull=False).exists()


def test_an_upload_named_heuristic_and_a_newline_is_refused(user_api):
    """The red team's bundle: `name = "heuristic\\n"` in its bot.toml."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from .zips import make_zip

    manifest = 'name = "heuristic\\n"\ncommand = ["python3", "bot.py"]\n'
    data = make_zip({"bot.toml": manifest, "bot.py": "print('hi')\n"})
    response = user_api.post(
        "/api/bots/",
        {"bundle": SimpleUploadedFile("bot.zip", data, "application/zip")},
        format="multipart",
    )
    assert response.status_code == 400
    message = response.json()["bundle"][0]
    assert "`name` must be 1 to 40 letters" in message and repr("heuristic\n") in message
    assert not Bot.objects.filter(owner__isnull=False).exists()


def test_a_qualified_name_with_a_newline_names_no_bot(squatter):
    from submitted_bots.names import is_qualified

    assert is_qualified("mallory/heuristic") and not is_qualified("mallory/heuristic\n")
    with pytest.raises(ValidationError, match="unknown bot"):
        bots_named(["mallory/heuristic\n*2"])
