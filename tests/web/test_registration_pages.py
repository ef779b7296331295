"""The tournament page shows who is in (entrant, owner, bot version) and gives a signed-in user
the buttons to enter a bot or themselves and to withdraw; the organiser starts it there. Each
user's page shows their bots, every version, ratings with uncertainty and recent matches."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import BotFactory, RatingFactory, TournamentFactory, UserFactory
from tournaments.models import Entrant, Tournament

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_user_enters_and_withdraws_with_the_page_buttons():
    cup = TournamentFactory(registration_open=True, max_entrants=3)
    alice = UserFactory(username="alice")
    bot = BotFactory(name="greedy", version="3", owner=alice)
    client = signed_in(alice)
    page = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert "Open for registration" in page and "3 places left" in page
    assert "greedy v3" in page and "Enter myself" in page

    page = client.post(f"/tournaments/{cup.pk}/enter/", {"bot": bot.pk}, follow=True)
    text = page.content.decode()
    assert "alice/greedy v3 is entered." in text
    assert 'href="/users/alice/"' in text  # the entrant's owner, linked to their page
    client.post(f"/tournaments/{cup.pk}/enter/", {"human": "1"})
    mine = Entrant.objects.get(tournament=cup, bot__isnull=True)
    page = client.post(f"/tournaments/{cup.pk}/withdraw/", {"entrant": mine.pk}, follow=True)
    assert "Withdrawn." in page.content.decode()
    assert list(cup.entrants.values_list("name", flat=True)) == ["alice/greedy v3"]


def test_refusals_come_back_to_the_page_with_their_reason():
    cup = TournamentFactory(registration_open=True)
    mallory = UserFactory()
    theirs = BotFactory(owner=UserFactory())
    page = signed_in(mallory).post(f"/tournaments/{cup.pk}/enter/", {"bot": theirs.pk}, follow=True)
    assert "Not entered: you may enter only your own bots" in page.content.decode()
    for bad in ("x", "9" * 30, "-1", ""):
        page = signed_in(mallory).post(f"/tournaments/{cup.pk}/enter/", {"bot": bad}, follow=True)
        assert page.status_code == 200 and "Not entered: no such bot" in page.content.decode()
    page = signed_in(mallory).post(
        f"/tournaments/{cup.pk}/withdraw/", {"entrant": "9" * 30}, follow=True
    )
    assert "Not withdrawn: no such entrant" in page.content.decode()
    assert not cup.entrants.exists()


def test_signed_out_visitors_see_who_is_in_but_no_buttons():
    cup = TournamentFactory(registration_open=True)
    Entrant.objects.create(tournament=cup, name="x", bot=BotFactory(name="x"))
    page = Client().get(f"/tournaments/{cup.pk}/").content.decode()
    assert "Sign in</a> to enter" in page and "Enter myself" not in page
    assert Client().post(f"/tournaments/{cup.pk}/enter/", {"human": "1"}).status_code == 302
    assert cup.entrants.count() == 1


def test_only_the_organiser_gets_the_start_button(settings):
    settings.TRUCO_USERS_CREATE_TOURNAMENTS = True
    carol = UserFactory(username="carol")
    cup = TournamentFactory(registration_open=True, created_by=carol)
    for _ in range(2):
        Entrant.objects.create(tournament=cup, name=f"b{_}", bot=BotFactory())
    assert (
        "Start the tournament"
        not in signed_in(UserFactory()).get(f"/tournaments/{cup.pk}/").content.decode()
    )
    refused = signed_in(UserFactory()).post(f"/tournaments/{cup.pk}/start/", follow=True)
    assert "Only the organiser" in refused.content.decode()
    page = signed_in(carol).post(f"/tournaments/{cup.pk}/start/", follow=True)
    assert "The tournament has started." in page.content.decode()
    assert Tournament.objects.get(pk=cup.pk).status == Tournament.Status.RUNNING


def test_a_users_page_shows_bots_versions_ratings_and_recent_matches(played):
    owner = UserFactory(username="dora")
    bots = list(played.entrants.select_related("bot"))[:2]
    for n, entrant in enumerate(bots, start=1):
        entrant.bot.owner, entrant.bot.name, entrant.bot.version = owner, "dora-bot", str(n)
        entrant.bot.save()
    RatingFactory(player=bots[0].bot.player, variant="mineiro", mu=27.5, sigma=2.0)
    page = Client().get("/users/dora/").content.decode()
    # Versions read as on My bots ("v1"), each a link to its page; the kind is named.
    assert "dora-bot" in page and ">v1</a>" in page and ">v2</a>" in page
    assert "registered plugin (random)" in page
    assert "27.5 ± 4.0" in page  # mu ± the 95% interval
    assert played.name in page and "won" in page
    assert Client().get("/users/nobody-here/").status_code == 404


def test_the_list_points_to_tournaments_open_for_entries():
    cup = TournamentFactory(name="Open One", registration_open=True)
    TournamentFactory(name="Closed One")
    page = Client().get("/tournaments/").content.decode()
    assert f'href="/tournaments/{cup.pk}/#registration">open for entries' in page
    assert page.count("open for entries") == 1
