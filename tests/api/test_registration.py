"""Registration through the API: an organiser opens a tournament until a deadline with a cap;
signed-in users enter their own bots or themselves and withdraw before the start; every refusal
is a 4xx with its reason (403 not yours, 409 closed or full, 400 bad input), never a 500."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.factories import BotFactory, UserFactory
from tests.surface import client_for
from tournaments.models import Entrant, Tournament

pytestmark = pytest.mark.django_db


def open_tournament(client, **fields):
    body = {
        "name": "Open Cup",
        "variant": "paulista",
        "format": "round-robin",
        "games_per_match": 1,
        "registration_open": True,
        **fields,
    }
    response = client.post("/api/tournaments/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def enter(client, tournament_id, **body):
    return client.post(f"/api/tournaments/{tournament_id}/enter/", body, format="json")


def test_an_organiser_opens_registration_and_users_enter_their_bots_and_themselves(staff_api):
    deadline = timezone.now() + timedelta(days=1)
    cup = open_tournament(staff_api, registration_deadline=deadline.isoformat(), max_entrants=4)
    assert cup["registration"]["open"] and cup["registration"]["places_left"] == 4
    alice = UserFactory(username="alice")
    bot = BotFactory(name="greedy", version="2", owner=alice)
    client = client_for(alice)

    response = enter(client, cup["id"], bot=bot.pk)
    assert response.status_code == 201, response.json()
    entrant = response.json()
    assert entrant["bot"]["label"] == "alice/greedy v2" and entrant["bot"]["owner"] == "alice"
    assert entrant["entered_by"] == "alice"
    me = enter(client, cup["id"], human=True)
    assert me.status_code == 201 and [m["name"] for m in me.json()["members"]] == ["alice"]

    shown = client.get(f"/api/tournaments/{cup['id']}/").json()
    assert {e["name"] for e in shown["entrants"]} == {"alice/greedy v2", "alice"}
    assert shown["registration"]["places_left"] == 2


def test_entering_what_is_not_yours_is_refused(staff_api):
    cup = open_tournament(staff_api)
    mallory = client_for(UserFactory(username="mallory"))
    someone_elses = BotFactory(owner=UserFactory(username="bob"))
    builtin = BotFactory(owner=None)
    for bot in (someone_elses, builtin):
        response = enter(mallory, cup["id"], bot=bot.pk)
        assert response.status_code == 403
        assert response.json()["detail"] == "you may enter only your own bots"
    assert not Entrant.objects.filter(tournament_id=cup["id"]).exists()


def test_one_version_per_bot_and_each_person_once(staff_api):
    cup = open_tournament(staff_api)
    alice = UserFactory(username="alice")
    v1 = BotFactory(name="greedy", version="1", owner=alice)
    v2 = BotFactory(name="greedy", version="2", owner=alice)
    client = client_for(alice)
    assert enter(client, cup["id"], bot=v1.pk).status_code == 201
    again = enter(client, cup["id"], bot=v2.pk)
    assert again.status_code == 409 and "a version of 'greedy' is already entered" in str(
        again.json()
    )
    assert enter(client, cup["id"], human=True).status_code == 201
    twice = enter(client, cup["id"], human=True)
    assert twice.status_code == 409 and "already entered" in twice.json()["detail"]


def test_an_inactive_bot_is_not_ready_to_be_entered(staff_api):
    cup = open_tournament(staff_api)
    alice = UserFactory()
    retired = BotFactory(owner=alice, is_active=False)
    response = enter(client_for(alice), cup["id"], bot=retired.pk)
    assert response.status_code == 400 and "not ready" in response.json()["detail"]


@pytest.mark.parametrize(
    "body",
    [{}, {"bot": 1, "human": True}, {"bot": "abc"}, {"bot": 10**30}, {"human": "maybe"}],
    ids=["nothing", "both", "not-a-number", "huge", "not-a-bool"],
)
def test_a_malformed_entry_is_a_400(staff_api, user_api, body):
    cup = open_tournament(staff_api)
    response = enter(user_api, cup["id"], **body)
    assert response.status_code == 400, response.content


def test_no_entry_past_the_deadline_or_the_cap_or_when_not_open(staff_api):
    past = open_tournament(
        staff_api, registration_deadline=(timezone.now() - timedelta(minutes=1)).isoformat()
    )
    closed = open_tournament(staff_api)
    staff_api.patch(
        f"/api/tournaments/{closed['id']}/", {"registration_open": False}, format="json"
    )
    full = open_tournament(staff_api, max_entrants=2)
    users = [UserFactory() for _ in range(3)]
    response = enter(client_for(users[0]), past["id"], human=True)
    assert response.status_code == 409 and "registration closed at" in response.json()["detail"]
    response = enter(client_for(users[0]), closed["id"], human=True)
    assert response.status_code == 409 and "not open for registration" in response.json()["detail"]
    assert enter(client_for(users[0]), full["id"], human=True).status_code == 201
    assert enter(client_for(users[1]), full["id"], human=True).status_code == 201
    response = enter(client_for(users[2]), full["id"], human=True)
    assert response.status_code == 409
    assert response.json()["detail"] == "the tournament is full (2 entrants)"
    shown = staff_api.get(f"/api/tournaments/{full['id']}/").json()["registration"]
    assert shown == {**shown, "open": False, "places_left": 0}


def test_anonymous_visitors_cannot_enter(staff_api, api):
    cup = open_tournament(staff_api)
    assert enter(api, cup["id"], human=True).status_code in (401, 403)


def test_withdraw_own_entries_before_the_start_only(staff_api):
    cup = open_tournament(staff_api)
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    mine = enter(client_for(alice), cup["id"], human=True).json()
    bobs = enter(client_for(bob), cup["id"], human=True).json()
    refused = client_for(alice).post(
        f"/api/tournaments/{cup['id']}/withdraw/", {"entrant": bobs["id"]}, format="json"
    )
    assert refused.status_code == 403
    assert refused.json()["detail"] == "you may withdraw only your own entries"
    done = client_for(alice).post(
        f"/api/tournaments/{cup['id']}/withdraw/", {"entrant": mine["id"]}, format="json"
    )
    assert done.status_code == 204
    assert list(Entrant.objects.filter(tournament_id=cup["id"]).values_list("name", flat=True)) == [
        "bob"
    ]
    bad = client_for(bob).post(
        f"/api/tournaments/{cup['id']}/withdraw/", {"entrant": "x"}, format="json"
    )
    assert bad.status_code == 400

    enter(client_for(UserFactory()), cup["id"], human=True)
    assert staff_api.post(f"/api/tournaments/{cup['id']}/start/").status_code == 200
    late = client_for(bob).post(
        f"/api/tournaments/{cup['id']}/withdraw/", {"entrant": bobs["id"]}, format="json"
    )
    assert late.status_code == 409 and "too late to withdraw" in late.json()["detail"]
    after = enter(client_for(UserFactory()), cup["id"], human=True)
    assert after.status_code == 409 and "running" in after.json()["detail"]


def test_users_create_and_organise_their_own_tournaments_only_when_the_site_allows(
    settings, staff_api
):
    carol = client_for(UserFactory(username="carol"))
    body = {"name": "Carol's", "variant": "paulista", "registration_open": True}
    assert carol.post("/api/tournaments/", body, format="json").status_code == 403

    settings.TRUCO_USERS_CREATE_TOURNAMENTS = True
    own = carol.post("/api/tournaments/", body, format="json")
    assert own.status_code == 201 and own.json()["created_by"] == "carol"
    others = open_tournament(staff_api)
    assert (
        carol.patch(
            f"/api/tournaments/{others['id']}/", {"name": "mine"}, format="json"
        ).status_code
        == 403
    )
    assert carol.post(f"/api/tournaments/{others['id']}/start/").status_code == 403
    # Entrants come through registration: she cannot put someone else's bot (nor anyone) in.
    theirs = BotFactory(owner=UserFactory())
    listed = carol.patch(
        f"/api/tournaments/{own.json()['id']}/",
        {"entrants": [{"bot": theirs.pk}]},
        format="json",
    )
    assert listed.status_code == 400 and "only staff list entrants" in str(listed.json())
    assert not Entrant.objects.filter(tournament_id=own.json()["id"]).exists()
    # Her own: she closes the registration with a cap, and starts it once two are in.
    changed = carol.patch(
        f"/api/tournaments/{own.json()['id']}/", {"max_entrants": 2}, format="json"
    )
    assert changed.status_code == 200 and changed.json()["max_entrants"] == 2
    too_early = carol.post(f"/api/tournaments/{own.json()['id']}/start/")
    assert too_early.status_code == 400 and "at least 2 entrants" in too_early.json()["detail"]
    for user in (UserFactory(), UserFactory()):
        assert enter(client_for(user), own.json()["id"], human=True).status_code == 201
    assert carol.post(f"/api/tournaments/{own.json()['id']}/start/").status_code == 200
    assert Tournament.objects.get(pk=own.json()["id"]).status == "running"


def test_an_organiser_who_is_not_staff_cannot_choose_the_seed(settings, staff_api):
    """Whoever chose the seed could deal every match at home and know the opponent's cards of a
    match played for chips (the engine's code is public, and so are the match keys)."""
    settings.TRUCO_USERS_CREATE_TOURNAMENTS = True
    alice = client_for(UserFactory(username="alice"))
    body = {"name": "Alice's cup", "variant": "paulista", "registration_open": True}
    chosen = alice.post("/api/tournaments/", {**body, "seed": 424243}, format="json")
    assert chosen.status_code == 400 and "only staff choose a tournament's seed" in str(
        chosen.json()
    )
    own = alice.post("/api/tournaments/", body, format="json").json()
    later = alice.patch(f"/api/tournaments/{own['id']}/", {"seed": 7}, format="json")
    assert later.status_code == 400
    staff = staff_api.post("/api/tournaments/", {**body, "seed": 424243}, format="json")
    assert staff.status_code == 201  # staff reproduce a tournament on purpose


def test_an_organiser_who_is_not_staff_cannot_cancel_or_delete_what_others_play_in(
    settings, staff_api
):
    """Cancelling skipped the players' amicable vote (the game in play paid nothing) and
    deleting took the other players' matches with it."""
    settings.TRUCO_USERS_CREATE_TOURNAMENTS = True
    alice = UserFactory(username="alice")
    client = client_for(alice)
    body = {"name": "Alice's cup", "variant": "paulista", "registration_open": True}
    cup = client.post("/api/tournaments/", body, format="json").json()
    assert enter(client, cup["id"], human=True).status_code == 201
    assert enter(client_for(UserFactory(username="bob")), cup["id"], human=True).status_code == 201
    assert client.post(f"/api/tournaments/{cup['id']}/start/").status_code == 200
    for refused in (
        client.post(f"/api/tournaments/{cup['id']}/cancel/"),
        client.delete(f"/api/tournaments/{cup['id']}/"),
    ):
        assert refused.status_code == 403 and "only staff may" in refused.json()["detail"]
        assert "end-vote" in refused.json()["detail"]
    assert Tournament.objects.get(pk=cup["id"]).status == "running"
    # Her own bots alone: hers to cancel. A draft: hers to delete. Staff: anything.
    solo = client.post("/api/tournaments/", body, format="json").json()
    for name in ("one", "two"):
        bot = BotFactory(name=name, owner=alice, plugin="random")
        assert enter(client, solo["id"], bot=bot.pk).status_code == 201
    assert client.post(f"/api/tournaments/{solo['id']}/start/").status_code == 200
    assert client.post(f"/api/tournaments/{solo['id']}/cancel/").status_code == 200
    draft = client.post("/api/tournaments/", body, format="json").json()
    assert client.delete(f"/api/tournaments/{draft['id']}/").status_code == 204
    assert staff_api.post(f"/api/tournaments/{cup['id']}/cancel/").status_code == 200


def test_a_registered_tournament_starts_and_its_standings_show_the_entrants(staff_api):
    cup = open_tournament(staff_api)
    for name in ("ann", "ben"):
        owner = UserFactory(username=name)
        bot = BotFactory(name=f"{name}-bot", owner=owner, plugin="random")
        assert enter(client_for(owner), cup["id"], bot=bot.pk).status_code == 201
    assert staff_api.post(f"/api/tournaments/{cup['id']}/start/").status_code == 200
    rows = staff_api.get(f"/api/tournaments/{cup['id']}/standings/").json()["rows"]
    assert {row["entrant"]["name"] for row in rows} == {"ann/ann-bot", "ben/ben-bot"}


def test_a_tournament_still_empty_shows_its_page_and_standings(staff_api, api):
    cup = open_tournament(staff_api, format="single-elimination")
    assert api.get(f"/api/tournaments/{cup['id']}/standings/").json()["rows"] == []
    assert api.get(f"/tournaments/{cup['id']}/").status_code == 200
    enter(client_for(UserFactory(username="solo")), cup["id"], human=True)
    rows = api.get(f"/api/tournaments/{cup['id']}/standings/").json()["rows"]
    assert [row["entrant"]["name"] for row in rows] == ["solo"]
