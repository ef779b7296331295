"""The public pages: the tournament list, a tournament's standings and bracket (or rounds for a
league), a match with its games, the replay viewer, the ratings, and the play pages."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.factories import TournamentFactory, finish
from tournaments.models import Game, Match

pytestmark = pytest.mark.django_db


def text(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def test_home_lists_tournaments_with_their_progress(client, played, league):
    page = text(client.get("/tournaments/"))
    assert "Played Cup" in page and "League" in page
    assert "3/3" in page  # the finished cup's progress
    only_running = text(client.get("/tournaments/?status=running"))
    assert "League" in only_running and "Played Cup" not in only_running
    assert text(client.get("/tournaments/?status=nonsense&page=abc"))  # bad filters are ignored


def test_an_elimination_page_shows_standings_and_the_bracket(client, played):
    page = text(client.get(reverse("web:tournament", args=[played.pk])))
    assert "Standings" in page and "Bracket" in page
    assert "W1-1" in page and "W2-1" in page
    final = Match.objects.get(tournament=played, key="W2-1")
    assert reverse("web:match", args=[final.pk]) in page
    assert 'id="live"' not in page  # finished: nothing to follow


def test_a_running_league_shows_rounds_and_follows_live(client, league):
    page = text(client.get(reverse("web:tournament", args=[league.pk])))
    assert "Rounds" in page and 'id="live"' in page
    assert "Arena.followTournament" in page
    assert "<th>Match points</th>" in page and "<th>Head to head</th>" in page  # the columns


def test_a_league_page_draws_its_head_to_head(client, league):
    for match in Match.objects.filter(tournament=league, entrant_b__isnull=False):
        finish(match, wins=(2, 0))  # the first side won both games
    page = text(client.get(reverse("web:tournament", args=[league.pk])))
    cells = re.findall(
        r'<g class="heat-cell" data-row="(\d)" data-col="(\d)" data-wins="(\d)" '
        r'data-games="(\d)">\s*<title>([^<]*)</title>\s*<rect [^>]*></rect>\s*'
        r"<text [^>]*>(\d+)</text>\s*</g>",
        page,
    )
    assert len(cells) == 6  # each entrant against each other, both ways
    won = {(row, col): (int(wins), int(games)) for row, col, wins, games, _, _ in cells}
    for (row, col), (wins, games) in won.items():
        assert games == 2 and wins + won[col, row][0] == 2  # a pair's games, one winner each
    for _, _, wins, _, words, percent in cells:
        assert f"won {wins} of 2 games ({percent}%)" in words
    names = league.entrants.order_by("seed", "id").values_list("name", flat=True)
    for number, name in enumerate(names, start=1):
        assert f'text-anchor="end">{name}</text>' in page
        assert f'y="14" text-anchor="middle">{number}</text>' in page


def test_a_match_page_links_each_games_replay_and_record(client, played):
    match = Match.objects.get(tournament=played, key="W2-1")
    page = text(client.get(reverse("web:match", args=[match.pk])))
    for game in Game.objects.filter(match=match):
        assert reverse("web:replay", args=[game.pk]) in page
        assert reverse("game-record", args=[game.pk]) in page


def test_the_replay_viewer_reads_the_games_frames(client, played):
    game = Game.objects.filter(match__tournament=played).first()
    page = text(client.get(reverse("web:replay", args=[game.pk])))
    assert reverse("game-replay", args=[game.pk]) in page
    frames = client.get(reverse("game-replay", args=[game.pk])).json()
    assert len(frames["frames"]) == game.actions + 1
    assert [s["seat"] for s in frames["seats"]] == [0, 1]


def test_ratings_page(client, played):
    page = text(client.get(reverse("web:ratings") + "?variant=paulista"))
    assert "±" in page
    assert client.get(reverse("web:ratings") + "?variant=bridge").status_code == 404


def test_missing_things_are_404s(client, db):
    for name in ("web:tournament", "web:match", "web:replay", "web:play-match"):
        assert client.get(reverse(name, args=[424242])).status_code == 404


def test_play_needs_an_account_and_signup_gives_one(client, db):
    lobby = client.get(reverse("web:play"))
    assert lobby.status_code == 302 and reverse("web:login") in lobby["Location"]
    response = client.post(
        reverse("web:signup"),
        {"username": "lucia", "password1": "un-truco-largo-42", "password2": "un-truco-largo-42"},
    )
    assert response.status_code == 302
    assert get_user_model().objects.filter(username="lucia").exists()
    page = text(client.get(reverse("web:play")))
    assert "New table" in page and "heuristic" in page


@pytest.mark.parametrize(
    ("next_page", "lands_on"),
    [
        ("/play/", "/play/"),
        ("https://evil.example/phish", "/play/"),
        ("//evil.example/x", "/play/"),
        ("javascript:alert(1)", "/play/"),
    ],
)
def test_signup_goes_on_to_a_page_of_this_site_only(client, db, next_page, lands_on):
    response = client.post(
        reverse("web:signup") + "?" + urlencode({"next": next_page}),
        {"username": "lucia", "password1": "un-truco-largo-42", "password2": "un-truco-largo-42"},
    )
    assert response.status_code == 302 and response["Location"] == lands_on


def test_sign_in_page(client, user):
    assert "Sign in" in text(client.get(reverse("web:login")))
    response = client.post(
        reverse("web:login"), {"username": user.username, "password": "secret-pass-123"}
    )
    assert response.status_code == 302


def test_the_play_table_page(user, played):
    client = Client()
    client.force_login(user)
    match = Match.objects.filter(tournament=played).first()
    page = text(client.get(reverse("web:play-match", args=[match.pk])))
    assert reverse("play-match-detail", args=[match.pk]) in page


def test_a_league_page_shows_one_round_at_a_time(client, league):
    from tournaments.runner import run_in_process

    run_in_process(league)
    latest = text(client.get(reverse("web:tournament", args=[league.pk])))
    assert '<a href="?round=1">1</a>' in latest and "<strong>3</strong>" in latest
    first = text(client.get(reverse("web:tournament", args=[league.pk]) + "?round=1"))
    assert "<strong>1</strong>" in first and "R1-1" in first and "R3-1" not in first


def test_the_ratings_page_opens_on_the_variant_just_rated(client, played):
    page = text(client.get(reverse("web:ratings")))
    assert '<option value="paulista" selected>' in page  # not Argentino, first by name
    assert "Nobody is rated" not in page and "±" in page


def test_the_ratings_page_without_ratings_opens_on_the_first_variant(client, db):
    page = text(client.get(reverse("web:ratings")))
    assert '<option value="argentino" selected>' in page and "Nobody is rated" in page


def test_the_match_page_says_which_seats_each_side_played(client, played):
    match = Match.objects.get(tournament=played, key="W2-1")
    page = text(client.get(reverse("web:match", args=[match.pk])))
    a, b = match.entrant_a.name, match.entrant_b.name
    game = Game.objects.filter(match=match).first()
    seats = ("seat 0", "seat 1") if game.a_team == 0 else ("seat 1", "seat 0")
    assert f"{a} {seats[0]} · {b} {seats[1]}" in page
    assert "<th" in page and ">Seats</th>" in page and " played</th>" not in page


def test_the_replay_says_what_it_shows(client, played):
    game = Game.objects.filter(match__tournament=played).first()
    page = text(client.get(reverse("web:replay", args=[game.pk])))
    assert "Every card is shown" not in page
    assert "face down (covered) stays face down" in page


def test_every_page_has_a_favicon(client, played):
    from django.contrib.staticfiles import finders

    page = text(client.get("/tournaments/"))
    icon = re.search(r'<link rel="icon" href="([^"]+)"', page).group(1)
    assert finders.find(icon.removeprefix("/static/"))
    answer = client.get("/favicon.ico")  # what browsers ask for on the admin's pages too
    assert answer.status_code == 301 and answer["Location"] == icon


def test_tournaments_of_one_name_are_told_apart_by_id_and_date(client, staff_api, played):
    twin = TournamentFactory(name=played.name)
    listing = text(client.get("/tournaments/"))
    assert f"#{played.pk}</span>" in listing and f"#{twin.pk}</span>" in listing
    day = played.created_at.strftime("%Y-%m-%d")
    assert str(played) == f"Played Cup (#{played.pk}, {day})"
    detail = text(client.get(reverse("web:tournament", args=[twin.pk])))
    assert f"#{twin.pk}, created {day}" in detail
    labels = {t["id"]: t["label"] for t in staff_api.get("/api/tournaments/").json()["results"]}
    assert labels[twin.pk] == f"Played Cup (#{twin.pk}, {day})" != labels[played.pk]


@pytest.mark.parametrize(
    "fmt", ["single-elimination", "double-elimination", "round-robin", "swiss"]
)
def test_a_draft_without_entrants_yet_has_a_page_and_standings(client, api, fmt):
    draft = TournamentFactory(format=fmt)
    assert "Standings" in text(client.get(reverse("web:tournament", args=[draft.pk])))
    standings = api.get(f"/api/tournaments/{draft.pk}/standings/")
    assert standings.status_code == 200 and standings.json()["rows"] == []


def test_a_running_tournament_without_a_worker_says_so_instead_of_live(client, league, monkeypatch):
    """Its matches wait for a worker that is not there: the page must not read "live"."""
    from tournaments.api import standings

    detail = "no worker is running on queue truco (checked 2 s ago)"
    monkeypatch.setattr(standings, "workers_of", lambda t: {"alive": False, "detail": detail})
    html = client.get(f"/tournaments/{league.pk}/").content.decode()
    assert "no worker is running: the matches wait" in html
    assert 'class="live"' not in html
    assert (
        client.get(f"/api/tournaments/{league.pk}/standings/").json()["workers"]["alive"] is False
    )

    monkeypatch.setattr(standings, "workers_of", lambda t: {"alive": True, "detail": ""})
    assert 'class="live"' in client.get(f"/tournaments/{league.pk}/").content.decode()
