"""The organiser's items of issue 18 in the admin and on the tournament page: the bot picker
finds the labels the site shows, an entrant row left empty is reported (and byes are said),
a draft's progress says it has not started, the metrics' selects say their place, "Invited"
offers people only, no disconnection grace for bots alone, the list is of competitions, staff
add built-in bots from the tournament page, and the start asks first."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from players.models import Player
from tests.factories import BotFactory, PlayerFactory, TournamentFactory
from tests.web.test_admin import add_entrants, form_data
from tournaments.models import Entrant, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(staff):
    client = Client()
    client.force_login(staff)
    return client


def labels_found(client, term: str) -> list[str]:
    response = client.get(
        reverse("admin:autocomplete"),
        {
            "term": term,
            "app_label": "tournaments",
            "model_name": "entrant",
            "field_name": "bot",
        },
    )
    assert response.status_code == 200, response.content[:300]
    return sorted(r["text"] for r in response.json()["results"])


def test_the_bot_picker_finds_the_labels_the_site_shows(staff_client):
    alice = get_user_model().objects.create_user("alice_bot", password="x-long-pass-1")
    BotFactory(name="firstcard", owner=alice, version="1")
    BotFactory(name="firstcard", owner=alice, version="2")
    BotFactory(name="greedy", owner=alice, version="1")
    BotFactory(name="firstcard", version="")  # the operator's, same name
    assert labels_found(staff_client, "alice_bot/firstcard v1") == ["alice_bot/firstcard v1"]
    assert labels_found(staff_client, "alice_bot/firstcard") == [
        "alice_bot/firstcard v1",
        "alice_bot/firstcard v2",
    ]
    assert len(labels_found(staff_client, "alice_bot/")) == 3
    assert "firstcard" in labels_found(staff_client, "firstcard")  # plain words still work


def test_an_entrant_row_left_empty_is_reported_and_byes_are_said(staff_client):
    url = reverse("admin:tournaments_tournament_add")
    data = form_data(staff_client.get(url))
    bots = [BotFactory() for _ in range(7)]
    data.update(
        {
            "name": "Eight Cup",
            "variant": "paulista",
            "format": "single-elimination",
            "games_per_match": "1",
            "seeding": "order",
        }
    )
    add_entrants(data, *bots)
    data["entrants-TOTAL_FORMS"] = "8"  # an eighth row, left empty
    response = staff_client.post(url, data, follow=True)
    page = response.content.decode()
    assert Tournament.objects.get(name="Eight Cup").entrants.count() == 7
    assert "1 entrant row was left empty and not saved" in page
    assert (
        "has 7 entrants: its bracket has 8 places, so 1 entrant goes through round 1 on a bye"
        in page
    )


def test_a_drafts_progress_says_not_started_and_metrics_are_labelled(staff_client):
    TournamentFactory(name="Draft Cup")
    listing = staff_client.get(reverse("admin:tournaments_tournament_changelist")).content.decode()
    assert "not started" in listing and "None%" not in listing and "0/0" not in listing
    add = staff_client.get(reverse("admin:tournaments_tournament_add")).content.decode()
    assert re.search(r'<label for="id_metrics_0">Ranked first by</label>', add)
    assert re.search(r'<label for="id_metrics_1">then by \(tiebreak 1\)</label>', add)
    assert ">(not used)<" in add and '<option value="">-</option>' not in add


def test_the_admins_list_is_of_competitions_unless_asked_for_every_kind(staff_client):
    TournamentFactory(name="Spring Cup")
    TournamentFactory(name="Practice: admin v heuristic", kind=Tournament.Kind.TABLE)
    url = reverse("admin:tournaments_tournament_changelist")
    default = staff_client.get(url).content.decode()
    assert "Spring Cup" in default and "Practice: admin v heuristic" not in default
    every = staff_client.get(url, {"kind": "all"}).content.decode()
    assert "Practice: admin v heuristic" in every
    tables = staff_client.get(url, {"kind": "table"}).content.decode()
    assert "Practice: admin v heuristic" in tables and "Spring Cup" not in tables


def test_invited_offers_people_and_a_bots_only_tournament_has_no_grace(staff_client):
    person = PlayerFactory(name="rosa")
    bot = BotFactory(name="house-bot")
    bots_only = TournamentFactory(name="Bots Cup")
    Entrant.objects.create(tournament=bots_only, name=bot.label, bot=bot)
    page = staff_client.get(
        reverse("admin:tournaments_tournament_change", args=[bots_only.pk])
    ).content.decode()
    assert "disconnect_grace_seconds" not in page
    invited = re.search(r'<select name="table_settings-0-invited".*?</select>', page, re.S)
    assert invited is not None and "Invited people" in page
    assert f'value="{person.pk}"' in invited.group(0)
    assert f'value="{bot.player_id}"' not in invited.group(0)
    assert Player.objects.get(pk=bot.player_id).kind == Player.Kind.BOT
    empty = TournamentFactory(name="Empty Cup")
    page = staff_client.get(
        reverse("admin:tournaments_tournament_change", args=[empty.pk])
    ).content.decode()
    assert "disconnect_grace_seconds" in page  # people may still enter


def test_staff_add_built_in_bots_on_the_tournament_page_and_the_start_asks(staff_client):
    draft = TournamentFactory(name="Fill Cup")
    page = staff_client.get(f"/tournaments/{draft.pk}/").content.decode()
    assert 'id="add-bots"' in page
    assert re.search(r'id="start"[^>]*data-confirm="Start Fill Cup with 0 entrants\?', page)
    assert 'onsubmit="return window.confirm(this.dataset.confirm)"' in page
    staff_client.post(f"/tournaments/{draft.pk}/add-bots/", {"bot": "random", "count": "3"})
    staff_client.post(f"/tournaments/{draft.pk}/add-bots/", {"bot": "random", "count": "2"})
    names = sorted(draft.entrants.values_list("name", flat=True))
    assert len(names) == 5 and len(set(names)) == 5 and "random" in names
    refused = staff_client.post(
        f"/tournaments/{draft.pk}/add-bots/", {"bot": "nothing", "count": "1"}, follow=True
    )
    assert "is not a built-in bot" in refused.content.decode()
    user = Client()
    user.force_login(get_user_model().objects.create_user("nico", password="x-long-pass-1"))
    assert 'id="add-bots"' not in user.get(f"/tournaments/{draft.pk}/").content.decode()
    user.post(f"/tournaments/{draft.pk}/add-bots/", {"bot": "random", "count": "1"})
    assert draft.entrants.count() == 5
