"""The admin, as staff use it: every model's list and change pages, the tournament actions
(start, pause, resume, cancel), re-running a match, the standings-and-bracket page, and the
game records as a JSON-lines download."""

from __future__ import annotations

import json
import re

import pytest
from django import forms
from django.contrib import admin
from django.test import Client
from django.urls import reverse

from engine.records import replay
from players.models import Rating
from tables.models import ChatMessage, ChipTransfer, LiveMatch, Presence, SettledGame, Wallet
from tests.factories import BotFactory, PlayerFactory, TournamentFactory, human_entrant
from tournaments import lifecycle
from tournaments.ladder import sync_boards
from tournaments.models import Entrant, Game, Match, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(staff):
    client = Client()
    client.force_login(staff)
    return client


@pytest.fixture
def everything(played):
    """At least one row of every model the admin shows."""
    tournament = TournamentFactory(games_per_match=1)
    human = PlayerFactory()
    human_entrant(tournament, human)
    bot = BotFactory()
    Entrant.objects.create(tournament=tournament, name=bot.label, bot=bot)
    lifecycle.start(tournament)
    match = Match.objects.get(tournament=tournament)
    live = LiveMatch.objects.create(match=match)
    Presence.objects.create(live=live, player=human, last_seen=live.started_at)
    SettledGame.objects.create(match=match, index=0, stake=10, pot=20, bank_share=5, ranked=True)
    ChipTransfer.objects.create(player=human, amount=-10, balance_after=990, kind="stake")
    ChatMessage.objects.create(match=match, author=human, text="buenas")
    Wallet.objects.create(player=human)
    sync_boards()  # the bots on the ladders: a Ladder and its entries
    return played


def admin_models():
    return [
        model
        for model in admin.site._registry
        if model._meta.app_label in ("players", "submitted_bots", "tournaments", "play")
    ]


def test_every_model_has_a_list_and_a_change_page(staff_client, everything):
    for model in admin_models():
        prefix = f"admin:{model._meta.app_label}_{model._meta.model_name}"
        listing = staff_client.get(reverse(f"{prefix}_changelist"))
        assert listing.status_code == 200, model
        obj = model.objects.first()
        assert obj is not None, f"no {model.__name__} to show"
        change = staff_client.get(reverse(f"{prefix}_change", args=[obj.pk]))
        assert change.status_code == 200, model
        searched = staff_client.get(reverse(f"{prefix}_changelist") + "?q=a")
        assert searched.status_code == 200, model


def test_add_pages_open_for_what_is_made_by_hand(staff_client, db):
    for app, name in (
        ("tournaments", "tournament"),
        ("submitted_bots", "bot"),
        ("players", "player"),
        ("tournaments", "entrant"),
    ):
        assert staff_client.get(reverse(f"admin:{app}_{name}_add")).status_code == 200


def test_the_tournament_list_shows_progress(staff_client, played):
    page = staff_client.get(reverse("admin:tournaments_tournament_changelist")).content.decode()
    assert "3/3 (100.0%)" in page


def run_action(client, model: str, action: str, ids):
    return client.post(
        reverse(f"admin:tournaments_{model}_changelist"),
        {"action": action, "_selected_action": [str(i) for i in ids]},
        follow=True,
    )


@pytest.mark.postgres  # the actions lock rows
def test_start_pause_resume_and_cancel_actions(staff_client, no_broker):
    tournament = TournamentFactory()
    for _ in range(2):
        bot = BotFactory()
        Entrant.objects.create(tournament=tournament, name=bot.label, bot=bot)
    for action, status in (
        ("start_tournaments", "running"),
        ("pause_tournaments", "paused"),
        ("resume_tournaments", "running"),
        ("cancel_tournaments", "cancelled"),
    ):
        response = run_action(staff_client, "tournament", action, [tournament.pk])
        assert response.status_code == 200
        tournament.refresh_from_db()
        assert tournament.status == status, action
    refused = run_action(staff_client, "tournament", "start_tournaments", [tournament.pk])
    assert "cannot" in refused.content.decode() or "not a draft" in refused.content.decode()


@pytest.mark.postgres  # the actions lock rows
def test_rerun_action_plays_a_failed_match_again(staff_client, no_broker):
    tournament = TournamentFactory()
    for _ in range(2):
        bot = BotFactory()
        Entrant.objects.create(tournament=tournament, name=bot.label, bot=bot)
    lifecycle.start(tournament)
    match = Match.objects.get(tournament=tournament)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FAILED)
    run_action(staff_client, "match", "rerun_matches", [match.pk])
    match.refresh_from_db()
    assert match.status in (Match.Status.PENDING, Match.Status.QUEUED)


def test_standings_and_bracket_page(staff_client, played):
    url = reverse("admin:tournaments_tournament_standings", args=[played.pk])
    page = staff_client.get(url).content.decode()
    for entrant in played.entrants.all():
        assert entrant.name in page
    assert "Bracket" in page and "W2-1" in page
    change = staff_client.get(reverse("admin:tournaments_tournament_change", args=[played.pk]))
    assert url in change.content.decode()


def test_game_records_download_as_json_lines(staff_client, played):
    response = staff_client.get(reverse("admin:tournaments_tournament_records", args=[played.pk]))
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    lines = b"".join(response.streaming_content).decode().splitlines()
    assert len(lines) == Game.objects.filter(match__tournament=played).count() == 3
    for line in lines:
        assert replay(json.loads(line)).state.is_over
    match = Match.objects.filter(tournament=played).first()
    one = staff_client.get(reverse("admin:tournaments_match_records", args=[match.pk]))
    assert len(b"".join(one.streaming_content).splitlines()) == match.games_played


def test_download_action_on_selected_matches(staff_client, played):
    ids = list(Match.objects.filter(tournament=played).values_list("pk", flat=True))
    response = staff_client.post(
        reverse("admin:tournaments_match_changelist"),
        {"action": "download_records", "_selected_action": [str(i) for i in ids]},
    )
    assert len(b"".join(response.streaming_content).splitlines()) == 3


def test_the_admin_is_for_staff_only(client, played):
    response = client.get(reverse("admin:tournaments_tournament_standings", args=[played.pk]))
    assert response.status_code == 302 and "login" in response["Location"]


def test_ratings_show_with_their_interval(staff_client, played):
    page = staff_client.get(reverse("admin:players_rating_changelist")).content.decode()
    assert Rating.objects.count() == 4 and "±" in page


def test_missing_tournament_is_a_404(staff_client, db):
    assert (
        staff_client.get(reverse("admin:tournaments_tournament_records", args=[999])).status_code
        == 404
    )
    assert Tournament.objects.count() == 0


def test_a_started_tournament_keeps_its_rules_and_entrants(staff_client, played):
    url = reverse("admin:tournaments_tournament_change", args=[played.pk])
    page = staff_client.get(url).content.decode()
    assert 'name="variant"' not in page and 'name="entrants-0-bot"' not in page
    form = {
        "name": "Renamed Cup",
        "created_by": "",
        "table_settings-TOTAL_FORMS": "1",
        "table_settings-INITIAL_FORMS": "1",
        "table_settings-0-tournament": str(played.pk),
        "table_settings-0-turn_seconds": "30",
        "table_settings-0-competitive": "on",
        "table_settings-0-stake": "0",
        "table_settings-0-spectators": "on",
        "table_settings-0-disconnect_grace_seconds": "180",
        "entrants-TOTAL_FORMS": "4",
        "entrants-INITIAL_FORMS": "4",
    }
    for i, entrant in enumerate(played.entrants.order_by("seed", "id")):
        form[f"entrants-{i}-id"] = str(entrant.pk)
        form[f"entrants-{i}-tournament"] = str(played.pk)
    response = staff_client.post(url, form)
    assert response.status_code == 302, admin_errors(response)
    played.refresh_from_db()
    assert played.name == "Renamed Cup" and played.variant == "paulista"


def test_entrants_of_a_draft_are_checked(staff_client, db):
    tournament = TournamentFactory()
    bot = BotFactory()
    url = reverse("admin:tournaments_tournament_change", args=[tournament.pk])
    form = {
        "name": tournament.name,
        "variant": "paulista",
        "preset": "",
        "options": "{}",
        "players": "2",
        "format": "single-elimination",
        "format_options": "{}",
        "metrics": "[]",
        "games_per_match": "2",
        "pairs_per_match": "0",
        "seeding": "order",
        "seed": "5",
        "created_by": "",
        "turn_seconds": "30",
        "increment_seconds": "0",
        "table_settings-TOTAL_FORMS": "1",
        "table_settings-INITIAL_FORMS": "1",
        "table_settings-0-tournament": str(tournament.pk),
        "table_settings-0-stake": "0",
        "table_settings-0-disconnect_grace_seconds": "180",
        "entrants-TOTAL_FORMS": "2",
        "entrants-INITIAL_FORMS": "0",
        "entrants-0-name": "one",
        "entrants-0-bot": str(bot.pk),
        "entrants-1-name": "two",
        "entrants-1-bot": str(bot.pk),
    }
    response = staff_client.post(url, form)
    assert response.status_code == 200
    assert "already entered" in response.content.decode()
    form["entrants-1-bot"] = str(BotFactory().pk)
    assert staff_client.post(url, form).status_code == 302
    assert tournament.entrants.count() == 2


# --- the tournament form: widgets from the option schemas ---------------------------------


def form_data(response) -> dict:
    """What a browser would post for the form as rendered: every field at its shown value,
    the inlines' management forms, and no inline rows."""
    form = response.context["adminform"].form
    data: dict = {}
    for field in form:
        value = field.value()
        widget = field.field.widget
        if isinstance(field.field, forms.BooleanField):
            if value:
                data[field.html_name] = "on"
        elif isinstance(widget, forms.MultiWidget):
            for i, part in enumerate(widget.decompress(value)):
                data[f"{field.html_name}_{i}"] = part or ""
        elif value is not None:
            data[field.html_name] = field.field.prepare_value(value)
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        data[f"{formset.prefix}-TOTAL_FORMS"] = "0"
        data[f"{formset.prefix}-INITIAL_FORMS"] = "0"
    return data


def add_entrants(data: dict, *bots) -> dict:
    data["entrants-TOTAL_FORMS"] = str(len(bots))
    for i, bot in enumerate(bots):
        data[f"entrants-{i}-bot"] = str(bot.pk)
        data[f"entrants-{i}-name"] = ""  # left empty: filled from the bot
    return data


def test_the_add_form_has_a_widget_per_option_of_each_variant_and_format(staff_client):
    page = staff_client.get(reverse("admin:tournaments_tournament_add")).content.decode()
    assert 'name="options"' not in page and 'name="format_options"' not in page
    # choices -> select, integers -> number, booleans -> checkbox, presets -> select
    assert re.search(r'<select name="rule__paulista__deck"[^>]*>', page)
    assert re.search(r'<input type="number" name="rule__paulista__target"[^>]*max="30"', page)
    assert re.search(
        r'<input type="checkbox" name="rule__paulista__covered_cards"[^>]*checked', page
    )
    assert re.search(r'<select name="rule__argentino__target"', page)  # 30 or 15: a select
    assert re.search(
        r'<input type="text" name="rule__mineiro__ladder"[^>]*value="2, 4, 8, 12"', page
    )
    assert re.search(r'<select name="preset"', page) and '<optgroup label="Truco Mineiro">' in page
    assert 'value="mineiro-pagat"' in page
    assert re.search(r'<input type="checkbox" name="fmt__single-elimination__third_place"', page)
    assert re.search(r'<input type="number" name="fmt__swiss__rounds"', page)
    assert re.search(r'<select name="metrics_0"', page) and ">Buchholz<" in page
    assert "fieldset" in page and "rule-options-truc-tete" in page
    assert "admin_tournament.js" in page


def test_posting_the_add_form_creates_the_tournament_with_its_options_and_entrants(
    staff_client,
):
    url = reverse("admin:tournaments_tournament_add")
    data = form_data(staff_client.get(url))
    bots = [BotFactory(), BotFactory(), BotFactory(), BotFactory()]
    data.update(
        {
            "name": "Admin Cup",
            "variant": "paulista",
            "rule__paulista__deck": "clean",
            "rule__paulista__target": "15",
            "format": "swiss",
            "fmt__swiss__rounds": "2",
            "metrics_0": "buchholz",
            "metrics_1": "",
            "metrics_2": "match_points",
            "games_per_match": "2",
            "seeding": "order",
        }
    )
    data.pop("rule__paulista__covered_cards", None)  # unchecked
    response = staff_client.post(url, add_entrants(data, *bots))
    assert response.status_code == 302, admin_errors(response)
    tournament = Tournament.objects.get(name="Admin Cup")
    assert tournament.options == {"deck": "clean", "target": 15, "covered_cards": False}
    assert tournament.format_options == {"rounds": 2}
    assert tournament.metrics == ["buchholz", "match_points"]
    assert sorted(e.name for e in tournament.entrants.all()) == sorted(b.label for b in bots)
    # The change form shows what was saved.
    change = staff_client.get(reverse("admin:tournaments_tournament_change", args=[tournament.pk]))
    shown = form_data(change)
    assert shown["rule__paulista__deck"] == "clean" and shown["rule__paulista__target"] == 15
    assert "rule__paulista__covered_cards" not in shown and shown["metrics_0"] == "buchholz"


def test_a_preset_saves_only_what_differs_from_it(staff_client):
    url = reverse("admin:tournaments_tournament_add")
    data = form_data(staff_client.get(url))
    data.update({"name": "Pagat", "variant": "mineiro", "preset": "mineiro-pagat"})
    # The fields as the preset fills them in, with one change of our own.
    data["rule__mineiro__ladder"] = "1, 3, 6, 9, 12"
    data.pop("rule__mineiro__first_tie_showdown", None)
    data["rule__mineiro__no_winning_raise"] = "on"
    data["rule__mineiro__target"] = "20"
    response = staff_client.post(url, add_entrants(data, BotFactory(), BotFactory()))
    assert response.status_code == 302, admin_errors(response)
    tournament = Tournament.objects.get(name="Pagat")
    assert tournament.preset == "mineiro-pagat" and tournament.options == {"target": 20}


@pytest.mark.parametrize(
    "changes, field, message",
    [
        ({"rule__paulista__target": "99"}, "rule__paulista__target", "from 3 to 30, not 99"),
        (
            {"variant": "mineiro", "rule__mineiro__ladder": "4, 2"},
            "rule__mineiro__ladder",
            "increasing",
        ),
        ({"variant": "mineiro", "rule__mineiro__ladder": "two"}, "rule__mineiro__ladder", "whole"),
        ({"preset": "mineiro-pagat"}, "preset", "unknown preset 'mineiro-pagat'"),
        ({"metrics_0": "buchholz", "metrics_1": "buchholz"}, "metrics", "must not repeat"),
        ({"players": "3"}, "players", "played by 2 or 4 players"),
        (
            {"format": "swiss", "fmt__swiss__rounds": "0"},
            "fmt__swiss__rounds",
            "option 'rounds' must be a positive integer",
        ),
        ({"games_per_match": "0", "pairs_per_match": "0"}, "games_per_match", "at least one"),
    ],
)
def test_the_form_refuses_what_the_api_refuses_with_the_same_message(
    staff_client, changes, field, message
):
    url = reverse("admin:tournaments_tournament_add")
    data = form_data(staff_client.get(url))
    data.update({"name": "Bad", "variant": "paulista"})
    data.update(changes)
    response = staff_client.post(url, add_entrants(data, BotFactory(), BotFactory()))
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert field in errors and message in " ".join(errors[field]), errors
    assert not Tournament.objects.exists()


def test_a_stake_at_a_practice_table_is_refused_in_the_admin(staff_client):
    url = reverse("admin:tournaments_tournament_add")
    data = form_data(staff_client.get(url))
    data.update({"name": "Practice", "variant": "paulista"})
    data.pop("competitive", None)  # practice: the box left unticked
    data.update(
        {
            "turn_seconds": "30",
            "table_settings-TOTAL_FORMS": "1",
            "table_settings-0-stake": "50",
            "table_settings-0-disconnect_grace_seconds": "180",
        }
    )
    response = staff_client.post(url, add_entrants(data, BotFactory(), BotFactory()))
    assert response.status_code == 200
    assert "only at a competitive table" in response.content.decode()
    assert not Tournament.objects.exists()


def test_a_team_entrant_without_a_name_is_named_after_its_players(staff_client):
    tournament = TournamentFactory()
    ana, bea = PlayerFactory(name="Ana"), PlayerFactory(name="Bea")
    url = reverse("admin:tournaments_tournament_change", args=[tournament.pk])
    data = form_data(staff_client.get(url))
    data.update(
        {
            "entrants-TOTAL_FORMS": "2",
            "entrants-0-members": [str(ana.pk)],
            "entrants-0-name": "",
            "entrants-1-members": [str(bea.pk)],
            "entrants-1-name": "",
        }
    )
    response = staff_client.post(url, data)
    assert response.status_code == 302, admin_errors(response)
    assert sorted(tournament.entrants.values_list("name", flat=True)) == ["Ana", "Bea"]


def test_the_admin_index_says_table_settings_once(staff_client):
    page = staff_client.get(reverse("admin:index")).content.decode()
    assert "Table settings" in page and "settingss" not in page


def admin_errors(response) -> str:
    context = response.context
    if not context:
        return response.content.decode()[:2000]
    form = context["adminform"].form
    inlines = [f.errors for i in context["inline_admin_formsets"] for f in i.formset.forms]
    return f"{form.errors} {inlines}"
