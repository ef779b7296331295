"""What a bot author, an organiser and a player tripped over (issue 18), page by page: the
guide and the starters on the site, the menu and the sign-up, the logs of a game for its bot's
owner, a bot's page, My page's words, the tournaments open for entries and the notices, the
quick table's opponents, the standings (rank, rating, CSV), the bracket's tiebreak, the site's
own 404 page, and the tables of the play page."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from submitted_bots.bundles.uploads import check_bundle
from submitted_bots.models import Bot
from tests.factories import BotFactory, EntrantFactory, MatchFactory, TournamentFactory
from tournaments.models import Game, Match, Tournament

pytestmark = pytest.mark.django_db
PASSWORD = "un-truco-largo-42"


def signed_in(name: str, **fields) -> tuple[Client, object]:
    user = get_user_model().objects.create_user(name, password=PASSWORD, **fields)
    client = Client()
    client.force_login(user)
    return client, user


def html(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


# --- the author's guide and the starters ------------------------------------------------


def test_the_guide_is_a_page_of_the_site_that_starts_with_the_five_minute_path(client):
    page = html(client.get("/docs/bots/"))
    headings = re.findall(r"<h2 id=\"([^\"]+)\">(.*?)</h2>", page)
    assert headings[0] == ("five-minutes-to-a-ranked-bot", "Five minutes to a ranked bot")
    assert headings[-1][1] == "The sandbox"  # the jail's internals come last
    # Links between the documents go to their pages; no link to a file only a clone has.
    assert 'href="/docs/bot-protocol/"' in page
    assert not re.search(r'href="[^"]*\.md', page)
    assert not re.search(r'href="(\.\./)?examples/', page)
    protocol = html(client.get("/docs/bot-protocol/"))
    assert "<h1" in protocol and "<table>" in protocol  # its tables are rendered
    for wrong in ("/docs/nothing-here/", "/docs/..%2Fpyproject/"):
        assert client.get(wrong).status_code == 404


@pytest.mark.parametrize("language", ["python", "node", "java"])
def test_each_starter_is_a_bundle_the_server_accepts(client, language):
    response = client.get(f"/docs/bots/starter/{language}.zip")
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert f'filename="mybot-{language}.zip"' in response["Content-Disposition"]
    contents = check_bundle(response.content)  # what an upload goes through
    assert contents.manifest.name == "mybot"
    readme = zipfile.ZipFile(io.BytesIO(response.content)).read("README.md").decode()
    assert "/tmp" not in readme and "./mybot" in readme
    assert client.get("/docs/bots/starter/cobol.zip").status_code == 404


# --- the menu and the sign-up --------------------------------------------------------------


def test_sign_up_is_in_the_menu_and_the_form_keeps_what_was_typed(client):
    home = html(client.get("/"))
    assert re.search(r'<a href="/accounts/signup/"[^>]*>Sign up</a>', home)
    assert 'href="/docs/bots/"' in home  # "Write a bot"
    refused = client.post(
        "/accounts/signup/",
        {"username": "ana", "password1": PASSWORD, "password2": PASSWORD + "x"},
    )
    page = html(refused)
    assert 'class="field has-error"' in page
    assert f'value="{PASSWORD}"' in page  # the password typed is still there


def test_after_sign_up_the_site_says_what_to_do_next(client):
    response = client.post(
        "/accounts/signup/",
        {"username": "ana", "password1": PASSWORD, "password2": PASSWORD},
        follow=True,
    )
    page = html(response)
    welcome = re.search(r'<li class="[^"]*welcome[^"]*".*?</li>', page, re.S).group(0)
    assert "Welcome, ana" in welcome
    assert 'href="/docs/bots/"' in welcome and 'href="/bots/mine/"' in welcome


# --- a game's logs, a bot's page, My page ---------------------------------------------------


@pytest.fixture
def owned_game(db):
    """A played game between ana's bot (side A) and the house's, with a log for each seat."""
    ana = get_user_model().objects.create_user("ana", password=PASSWORD)
    mine = BotFactory(name="mybot", owner=ana, version="1", log="smoke log of v1")
    tournament = TournamentFactory(status=Tournament.Status.DONE)
    match = MatchFactory(
        tournament=tournament,
        entrant_a=EntrantFactory(tournament=tournament, bot=mine),
        status=Match.Status.DONE,
    )
    game = Game.objects.create(
        match=match,
        index=0,
        a_team=0,
        seed=1,
        record={"players": 2},
        score_a=12,
        score_b=3,
        private={"logs": {"0": "ana's bot thinking", "1": "the house's secret"}},
    )
    return ana, mine, match, game


def test_the_owner_reads_their_bots_log_from_the_match_and_replay_pages(owned_game):
    ana, _, match, game = owned_game
    owner = Client()
    owner.force_login(ana)
    logs_url = f"/games/{game.pk}/logs/"
    assert logs_url in html(owner.get(f"/matches/{match.pk}/"))
    assert logs_url in html(owner.get(f"/games/{game.pk}/replay/"))
    page = html(owner.get(logs_url))
    assert "ana&#x27;s bot thinking" in page and "the house" not in page
    stranger, _ = signed_in("nico")
    assert logs_url not in html(stranger.get(f"/matches/{match.pk}/"))
    assert stranger.get(logs_url).status_code == 403
    anonymous = Client().get(logs_url)
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]


def test_a_bot_name_links_to_its_version_page_with_its_log_for_its_owner(owned_game):
    ana, mine, match, _ = owned_game
    newer = BotFactory(name="mybot", owner=ana, version="2", description="bets more")
    match_page = html(Client().get(f"/matches/{match.pk}/"))
    assert f'href="/bots/{mine.pk}/"' in match_page
    public = html(Client().get(f"/bots/{mine.pk}/"))
    assert "ana/mybot v1" in public and 'href="/users/ana/"' in public
    assert f'href="/bots/{newer.pk}/"' in public and "bets more" in public  # its versions
    assert f'href="/matches/{match.pk}/"' in public  # its recent matches
    assert "unrated" in public
    assert "smoke log of v1" not in public
    owner = Client()
    owner.force_login(ana)
    assert "smoke log of v1" in html(owner.get(f"/bots/{mine.pk}/"))
    assert Client().get("/bots/987654/").status_code == 404


def test_my_page_says_versions_kinds_and_unrated_as_my_bots_does(client):
    ana = get_user_model().objects.create_user("ana", password=PASSWORD)
    BotFactory(name="mybot", owner=ana, version="1", kind=Bot.Kind.BUNDLE, plugin="")
    page = html(client.get("/users/ana/"))
    row = re.search(r'<table class="grid bot-versions".*?</table>', page, re.S).group(0)
    assert ">v1</a>" in row and "uploaded bundle" in row and "unrated" in row
    assert "—" not in row


# --- My bots: notices, open tournaments, the layout's words ------------------------------


def test_my_bots_tells_of_validations_entries_and_tournaments_and_links_open_ones():
    client, ana = signed_in("ana")
    now = timezone.now()
    ready = BotFactory(
        name="mybot",
        owner=ana,
        version="1",
        kind=Bot.Kind.BUNDLE,
        plugin="",
        validated_at=now,
        manifest={"description": "random legal play"},
        description="first try",
        validation={
            "settings": [
                {
                    "variant": "paulista",
                    "players": 2,
                    "wins": 1,
                    "games": 2,
                    "terminations": {"normal": 2},
                }
            ]
        },
    )
    rejected = BotFactory(
        name="mybot",
        owner=ana,
        version="2",
        kind=Bot.Kind.BUNDLE,
        plugin="",
        status=Bot.Status.REJECTED,
        status_reason="it answered an illegal action",
        validated_at=now,
    )
    cup = TournamentFactory(
        name="Spring Cup", status=Tournament.Status.DONE, started_at=now, finished_at=now
    )
    EntrantFactory(tournament=cup, bot=ready)
    open_cup = TournamentFactory(name="Open Cup", registration_open=True)
    TournamentFactory(name="Closed Cup")
    page = html(client.get("/bots/mine/"))
    notices = re.search(r'<section id="notices".*?</section>', page, re.S).group(0)
    assert "ana/mybot v1 passed its smoke match" in notices
    assert "ana/mybot v2 was rejected: it answered an illegal action" in notices
    assert "is entered in Spring Cup" in notices
    assert "Spring Cup has started" in notices and "Spring Cup is over" in notices
    # Statuses as badges of their own, endings in words, both descriptions, retire a button.
    assert 'class="badge badge-ready"' in page and 'class="badge badge-rejected"' in page
    assert "2 played to the end" in page
    assert "first try" in page and "random legal play" in page
    assert re.search(r"<button[^>]*retire[^>]*>Retire</button>", page)
    assert 'href="/docs/bots/"' in page
    listing = html(client.get("/tournaments/open/"))
    assert 'href="/tournaments/open/"' in page
    assert f'href="/tournaments/{open_cup.pk}/#registration"' in listing
    assert "Closed Cup" not in listing and "Spring Cup" not in listing
    assert rejected.pk  # (made for its notice)


# --- the quick table's opponents -----------------------------------------------------------


def test_the_quick_table_offers_own_ready_bots_and_other_authors_ones():
    client, ana = signed_in("ana")
    nico = get_user_model().objects.create_user("nico", password=PASSWORD)
    mine = BotFactory(name="mybot", owner=ana, version="1")
    BotFactory(name="mybot", owner=ana, version="2", status=Bot.Status.VALIDATING)
    theirs_old = BotFactory(name="greedy", owner=nico, version="1")
    theirs = BotFactory(name="greedy", owner=nico, version="2")
    page = html(client.get("/play/"))
    own = re.search(r'<optgroup[^>]*id="own-bots">(.*?)</optgroup>', page, re.S).group(1)
    others = re.search(r'<optgroup[^>]*id="others-bots">(.*?)</optgroup>', page, re.S).group(1)
    assert f'value="{mine.pk}">ana/mybot v1<' in own and "v2" not in own
    assert f'value="{theirs.pk}">nico/greedy v2<' in others
    assert f'value="{theirs_old.pk}"' not in others  # the newest version of each
    assert '<option value="heuristic" selected>' in page


# --- standings, bracket, CSV, the API docs ----------------------------------------------


def test_standings_rank_agrees_with_the_place_rating_is_null_and_csv_downloads(client, played):
    data = client.get(f"/api/tournaments/{played.pk}/standings/").json()
    assert data["metrics"][0] == "placement"
    for row in data["rows"]:
        assert row["rank"] == int(row["values"]["placement"])
    draft = TournamentFactory()
    EntrantFactory(tournament=draft, bot=BotFactory(name="never-rated"))
    draft_rows = client.get(f"/api/tournaments/{draft.pk}/standings/").json()["rows"]
    assert draft_rows[0]["rating"] is None
    response = client.get(f"/api/tournaments/{played.pk}/standings/?format=csv")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:3] == ["rank", "entrant", "Place"] and rows[0][-1] == "rating"
    assert [r[1] for r in rows[1:]] == [r["entrant"]["name"] for r in data["rows"]]
    assert f"/api/tournaments/{played.pk}/standings/?format=csv" in html(
        client.get(f"/tournaments/{played.pk}/")
    )


def test_the_standings_endpoint_describes_what_it_returns_and_the_docs_link_home(client):
    schema = client.get("/api/schema/?format=json").json()
    standings = schema["paths"]["/api/tournaments/{id}/standings/"]["get"]
    assert "TRUCO_USERS_CREATE_TOURNAMENTS" not in standings["description"]
    assert "rank" in standings["description"] and "csv" in standings["description"]
    assert "[← Back to Truco Arena](/)" in schema["info"]["description"]


def test_a_match_tied_in_games_says_on_the_card_why_its_winner_won(client):
    tournament = TournamentFactory(status=Tournament.Status.RUNNING)
    match = MatchFactory(
        key="W1-1",
        tournament=tournament,
        status=Match.Status.DONE,
        wins_a=2,
        wins_b=2,
        points_a=38,
        points_b=32,
        games_played=4,
    )
    match.winner = match.entrant_a
    match.save()
    page = html(client.get(f"/tournaments/{tournament.pk}/"))
    assert "tied 2-2 in games, won on points 38-32" in page
    assert 'class="arena-name"' in page and 'class="arena-score"' in page
    assert "won on points 38-32" in html(client.get(f"/matches/{match.pk}/"))


def test_a_draft_says_it_has_not_started_rather_than_0_of_unknown(client):
    draft = TournamentFactory()
    page = html(client.get(f"/tournaments/{draft.pk}/"))
    assert "Not started yet" in page and "of ? matches" not in page


# --- the site's 404 page ---------------------------------------------------------------------


def test_visitors_get_the_sites_404_page_even_with_debug_on(client, settings):
    settings.DEBUG = True
    for url in ("/bots/", "/tournaments/424242/"):
        response = client.get(url)
        assert response.status_code == 404
        page = response.content.decode()
        assert "Page not found" in page and "Truco Arena" in page
        assert "URLconf" not in page and "urlpatterns" not in page
    api = client.get("/api/nothing-here/")
    assert api.status_code == 404 and api["Content-Type"].startswith("application/json")
    assert client.get("/admin").status_code == 301  # the slash is still added


def test_the_developer_opts_in_to_djangos_debug_404(client, settings):
    settings.DEBUG = True
    settings.DEBUG_PAGES = True
    assert "URLconf" in client.get("/bots/").content.decode()
    settings.DEBUG_PAGES = False
    settings.INTERNAL_IPS = ["127.0.0.1"]
    assert "URLconf" in client.get("/bots/").content.decode()


# --- the play page's tables ---------------------------------------------------------------


def test_open_tables_show_their_age_and_abandoned_ones_are_not_offered(settings):
    from tests.web.test_lobby_and_languages import open_table

    settings.TRUCO_TABLES = "inline"
    rosa = get_user_model().objects.create_user("rosa", password=PASSWORD)
    fresh = open_table(rosa, bot="")
    stale = open_table(rosa, bot="")
    Tournament.objects.filter(pk=stale.tournament_id).update(
        created_at=timezone.now() - timedelta(hours=settings.TRUCO_OPEN_TABLE_HOURS + 1)
    )
    client, _ = signed_in("nico")
    rows = re.search(r'id="open-tables">(.*?)</table>', html(client.get("/play/")), re.S).group(1)
    assert f'data-sit="{fresh.pk}"' in rows and f'data-sit="{stale.pk}"' not in rows
    assert re.search(r'class="table-age">\s*0\xa0minutes ago', rows)


def test_your_tables_show_points_with_the_result_and_each_replay(settings):
    from tests.play.test_human_play import play_to_end
    from tests.surface import client_for
    from tests.web.test_lobby_and_languages import quick_state

    settings.TRUCO_TABLES = "inline"
    rosa = get_user_model().objects.create_user("rosa", password=PASSWORD)
    state = quick_state(rosa, bot="random", options={"target": 3})
    play_to_end(client_for(rosa), state["match"], state)
    match = Match.objects.get(pk=state["match"])
    game = Game.objects.get(match=match)
    client = Client()
    client.force_login(rosa)
    mine = re.search(r'id="my-tables">(.*?)</table>', html(client.get("/play/")), re.S).group(1)
    rosa_side_a = match.entrant_a.members.filter(user=rosa).exists()
    points = (match.points_a, match.points_b) if rosa_side_a else (match.points_b, match.points_a)
    score = (game.score_a, game.score_b) if rosa_side_a else (game.score_b, game.score_a)
    assert f"{points[0]}-{points[1]} in points" in mine
    assert f"replay game 1 ({score[0]}-{score[1]})" in mine
