"""A forfeit tells everyone its typed termination and a fixed phrase; the bot's own message
(which a hostile bot fills with whatever it found) and its log go to its owner and staff only:
not in the game's API, its record, its replay, the match page or the table's state."""

from __future__ import annotations

import pytest

from engine import plugins
from tests.entry_points import install_entry_point
from tests.factories import (
    BotFactory,
    PlayerFactory,
    StaffFactory,
    TournamentFactory,
    UserFactory,
    human_entrant,
)
from tests.security.leaky_plugin import SECRET
from tests.surface import client_for, play_until
from tournaments import execution, lifecycle
from tournaments.models import Entrant, Game, Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def leaky_bots(tmp_path, monkeypatch, settings):
    """The leaky bots, installed as a plugin nobody trusts: they run in a child process."""
    install_entry_point(tmp_path, monkeypatch, "leaky", "tests.security.leaky_plugin")
    settings.TRUCO_TRUSTED_BOT_PLUGINS = frozenset({"random", "heuristic", "mcts"})
    yield
    plugins.reset()


def bot_match(plugin: str, owner) -> Match:
    tournament = TournamentFactory(games_per_match=1)
    leaky = BotFactory(plugin=plugin, owner=owner)
    Entrant.objects.create(tournament=tournament, name=leaky.label, bot=leaky)
    opponent = BotFactory(plugin="random")
    Entrant.objects.create(tournament=tournament, name=opponent.label, bot=opponent)
    lifecycle.start(tournament, publish=False)
    match = Match.objects.get(tournament=tournament)
    assert execution.execute(match.pk).kind == "recorded"
    return match


def public_pages(client, game: Game) -> list[str]:
    match = game.match
    return [
        client.get(url).content.decode()
        for url in (
            f"/api/games/{game.pk}/",
            f"/api/games/{game.pk}/record/",
            f"/api/games/{game.pk}/replay/",
            f"/api/games/?match={match.pk}",
            f"/api/matches/{match.pk}/",
            f"/matches/{match.pk}/",
            f"/games/{game.pk}/replay/",
        )
    ]


@pytest.mark.parametrize(
    "plugin, termination, owner_sees, where",
    [
        ("leaky-raises", "crash", f"RuntimeError: found {SECRET}", "fault_message"),
        ("leaky-exits", "crash", f"stderr {SECRET}", "logs"),
        ("leaky-stdout", "crash", f"stdout {SECRET}", "logs"),
        ("leaky-illegal", "illegal_action", f"play {SECRET}", "fault_message"),
    ],
)
def test_a_forfeit_shows_its_termination_to_all_and_its_message_to_the_owner_only(
    leaky_bots, api, plugin, termination, owner_sees, where
):
    alice = UserFactory()
    match = bot_match(plugin, owner=alice)
    game = Game.objects.get(match=match)
    assert game.termination == termination
    shown = api.get(f"/api/games/{game.pk}/").json()
    assert shown["termination"] == termination and shown["fault_seat"] is not None
    assert shown["record"]["result"]["termination"] == termination
    assert shown["record"]["result"]["detail"]  # a fixed phrase, the same for every bot
    for page in public_pages(api, game) + public_pages(client_for(UserFactory()), game):
        assert "FAKE-SECRET" not in page
    assert "FAKE-SECRET" not in str(game.record)  # not even stored in the public record

    assert api.get(f"/api/games/{game.pk}/logs/").status_code in (401, 403)
    stranger = client_for(UserFactory()).get(f"/api/games/{game.pk}/logs/")
    assert stranger.status_code == 403 and "owners" in stranger.json()["detail"]
    own = client_for(alice).get(f"/api/games/{game.pk}/logs/")
    assert own.status_code == 200
    assert owner_sees in str(own.json()[where])
    staff = client_for(StaffFactory()).get(f"/api/games/{game.pk}/logs/").json()
    assert owner_sees in str(staff[where])


def test_the_owner_of_the_other_bot_does_not_read_the_forfeits_message(leaky_bots):
    alice, bob = UserFactory(), UserFactory()
    tournament = TournamentFactory(games_per_match=1)
    for plugin, owner in (("leaky-raises", alice), ("random", bob)):
        bot = BotFactory(plugin=plugin, owner=owner)
        Entrant.objects.create(tournament=tournament, name=bot.label, bot=bot)
    lifecycle.start(tournament, publish=False)
    match = Match.objects.get(tournament=tournament)
    execution.execute(match.pk)
    game = Game.objects.get(match=match)
    theirs = client_for(bob).get(f"/api/games/{game.pk}/logs/").json()
    assert theirs["fault_message"] == "" and game.fault_seat not in theirs["seats"]
    assert SECRET in client_for(alice).get(f"/api/games/{game.pk}/logs/").json()["fault_message"]


def test_a_bot_forfeiting_at_a_human_table_leaks_nothing_to_the_players(leaky_bots, api):
    alice = UserFactory()
    tournament = TournamentFactory(games_per_match=1, table__turn_seconds=30)
    human = PlayerFactory()
    human_entrant(tournament, human)
    leaky = BotFactory(plugin="leaky-raises", owner=alice)
    Entrant.objects.create(tournament=tournament, name=leaky.label, bot=leaky)
    lifecycle.start(tournament)
    match = Match.objects.get(tournament=tournament)
    player = client_for(human.user)
    # The human plays until the bot's first decision forfeits the game.
    state = play_until(player, match.pk, player.post(f"/api/play/matches/{match.pk}/open/").json())
    assert [g["termination"] for g in state["games"]] == ["crash"]
    game = Game.objects.get(match=match)
    for page in [str(state), *public_pages(player, game), *public_pages(api, game)]:
        assert "FAKE-SECRET" not in page
    own = client_for(alice).get(f"/api/games/{game.pk}/logs/").json()
    assert SECRET in own["fault_message"]


def test_why_a_match_attempt_failed_is_told_to_staff_only(api, staff_api):
    tournament = TournamentFactory(games_per_match=1)
    for bot in (BotFactory(), BotFactory()):
        Entrant.objects.create(tournament=tournament, name=bot.label, bot=bot)
    lifecycle.start(tournament, publish=False)
    match = Match.objects.get(tournament=tournament)
    Match.objects.filter(pk=match.pk).update(
        status=Match.Status.FAILED, error=f"RuntimeError: a plugin said {SECRET}"
    )
    public = api.get(f"/api/matches/{match.pk}/").json()
    assert public["status"] == "failed" and "staff see why" in public["error"]
    assert "FAKE-SECRET" not in str(public)
    assert SECRET in staff_api.get(f"/api/matches/{match.pk}/").json()["error"]
