"""The play page lists tables apart from tournaments (open tables to join or watch, your own
tables with results and replays, a form with the variant's presets and options), and the site
speaks the visitor's language: the browser's by default, the one they choose once they do."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.surface import client_for
from tournaments.models import Game, Match

pytestmark = pytest.mark.django_db

PASSWORD = "un-truco-largo-42"


def signed_in(name: str, **headers) -> Client:
    user = get_user_model().objects.create_user(name, password=PASSWORD)
    client = Client(**headers)
    client.force_login(user)
    return client


def quick_state(user, headers=None, **body) -> dict:
    """A new table of `user`'s (POST /api/play/quick/), as its state."""
    response = client_for(user).post(
        "/api/play/quick/", {"variant": "paulista", **body}, format="json", **(headers or {})
    )
    assert response.status_code == 201, response.json()
    return response.json()


def open_table(user, **body):
    return Match.objects.get(pk=quick_state(user, **body)["match"])


def page(client, url="/play/") -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_practice_tables_are_not_in_the_public_tournament_list(client, played, settings):
    settings.TRUCO_TABLES = "inline"
    rosa = get_user_model().objects.create_user("rosa", password=PASSWORD)
    table = open_table(rosa, bot="random")
    home = page(client, "/tournaments/")
    assert "Played Cup" in home and table.tournament.name not in home


def test_an_open_table_is_listed_for_others_to_join_and_the_seat_is_theirs(settings):
    settings.TRUCO_TABLES = "inline"
    rosa = get_user_model().objects.create_user("rosa", password=PASSWORD)
    waiting = open_table(rosa, bot="")  # free seats for people
    private = open_table(rosa, bot="", private=True)
    nico = signed_in("nico")
    lobby = page(nico)
    rows = re.search(r'<table class="grid" id="open-tables">(.*?)</table>', lobby, re.S).group(1)
    assert f'data-sit="{waiting.pk}"' in rows and "1 free seat" in rows
    assert f'data-sit="{private.pk}"' not in rows  # only the invited may sit there
    # Joining as the button does: the seat is nico's, and the table leaves his open list.
    nico_user = get_user_model().objects.get(username="nico")
    assert client_for(nico_user).post(f"/api/play/matches/{waiting.pk}/sit/").status_code == 200
    assert f'data-sit="{waiting.pk}"' not in page(nico)
    assert waiting.entrant_b.members.filter(user=nico_user).exists()


def test_your_past_tables_show_the_result_the_date_and_the_replays(settings):
    from tests.play.test_human_play import play_to_end

    settings.TRUCO_TABLES = "inline"
    rosa = get_user_model().objects.create_user("rosa", password=PASSWORD)
    state = quick_state(rosa, bot="random", options={"target": 3})
    play_to_end(client_for(rosa), state["match"], state)
    match = Match.objects.get(pk=state["match"])
    client = Client()
    client.force_login(rosa)
    lobby = page(client)
    mine = re.search(r'<table class="grid" id="my-tables">(.*?)</table>', lobby, re.S).group(1)
    game = Game.objects.get(match=match)
    assert reverse("web:replay", args=[game.pk]) in mine
    assert ("won" in mine) or ("lost" in mine)
    assert f"{match.wins_a}-{match.wins_b}" in mine
    assert match.tournament.created_at.strftime("%Y-%m-%d") in mine


def test_the_form_gets_each_variants_presets_and_options_schema():
    lobby = page(signed_in("rosa"))
    data = json.loads(
        re.search(r'id="variants-data" type="application/json">(.*?)</script>', lobby, re.S).group(
            1
        )
    )
    mineiro = next(v for v in data if v["name"] == "mineiro")
    assert "mineiro-pagat" in mineiro["presets"]
    assert {"ladder", "first_tie_showdown"} <= {o["name"] for o in mineiro["options"]}
    assert 'id="variant-options"' in lobby and 'name="preset"' in lobby


def test_the_options_the_form_sends_make_the_table(settings):
    settings.TRUCO_TABLES = "inline"
    rosa = get_user_model().objects.create_user("rosa", password=PASSWORD)
    table = open_table(
        rosa, bot="random", preset="mineiro-pagat", variant="mineiro", options={"target": 9}
    )
    assert (table.tournament.preset, table.tournament.options) == ("mineiro-pagat", {"target": 9})
    bad = client_for(rosa).post(
        "/api/play/quick/",
        {"variant": "mineiro", "bot": "random", "options": {"target": "x"}},
        format="json",
    )
    assert bad.status_code == 400


# --- languages ---------------------------------------------------------------------------


def test_a_portuguese_browser_gets_portuguese_pages():
    client = Client(HTTP_ACCEPT_LANGUAGE="pt-BR,pt;q=0.9,en;q=0.5")
    home = page(client, "/tournaments/")
    assert '<html lang="pt-br">' in home and "Torneios" in home and "Nenhum torneio ainda." in home
    lobby = page(signed_in("rosa", HTTP_ACCEPT_LANGUAGE="pt-BR"))
    assert "Nova mesa" in lobby and "Mesas abertas" in lobby
    catalogue = client.get(reverse("javascript-catalog")).content.decode()
    assert "Sua vez" in catalogue and "Revanche" in catalogue


def test_a_spanish_browser_gets_spanish_and_an_english_one_english():
    assert "Torneos" in page(Client(HTTP_ACCEPT_LANGUAGE="es-AR,es;q=0.9"), "/")
    assert ">Tournaments<" in page(Client(HTTP_ACCEPT_LANGUAGE="en-US"), "/")


def test_the_language_chosen_sticks_over_the_browsers():
    client = Client(HTTP_ACCEPT_LANGUAGE="pt-BR")
    answer = client.post(reverse("set_language"), {"language": "es", "next": "/"})
    assert answer.status_code == 302
    home = page(client, "/tournaments/")
    assert '<html lang="es">' in home and "Torneos" in home
    assert "Todavía no hay torneos." in page(client, "/tournaments/")  # still, on the next page


def test_the_table_state_speaks_the_language_asked(settings):
    settings.TRUCO_TABLES = "inline"
    rosa = get_user_model().objects.create_user("rosa", password=PASSWORD)
    state = quick_state(rosa, {"HTTP_ACCEPT_LANGUAGE": "pt-BR"}, bot="random")
    seat = str(state["to_act"])
    hints = {c["hint"] for c in state["choices"][seat]}
    # Cards to play, or (when the bot called truco first) the answers to it.
    assert "jogar aberta" in hints or "a mão passa a valer 3" in hints
    assert next(s for s in state["seats"] if s["you"])["label"] == "Você"
