"""The tournament page's followers (tournaments/api/follow_cache.py): hundreds of people asking
for the standings and the bracket every few seconds share one build of each at most every
TRUCO_FOLLOW_CACHE_SECONDS; a tournament that ends shows its final standings at once; a lapsed
payload is served while one request builds the next; a cache that fails costs a build, not an
answer."""

from __future__ import annotations

import pytest

from tests.surface import client_for
from tournaments import lifecycle
from tournaments.api import follow_cache
from tournaments.api import views as api_views
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def cached(settings, live_cache):
    settings.TRUCO_FOLLOW_CACHE_SECONDS = 2
    return live_cache


@pytest.fixture
def builds(monkeypatch):
    """How many times each payload was built."""
    counted = {"standings": 0, "bracket": 0}
    standings, bracket = api_views.standings_payload, api_views.bracket_payload

    def counted_standings(*args, **kwargs):
        counted["standings"] += 1
        return standings(*args, **kwargs)

    def counted_bracket(*args, **kwargs):
        counted["bracket"] += 1
        return bracket(*args, **kwargs)

    monkeypatch.setattr(api_views, "standings_payload", counted_standings)
    monkeypatch.setattr(api_views, "bracket_payload", counted_bracket)
    return counted


def test_fifty_followers_share_one_build_of_the_standings_and_of_the_bracket(
    make_tournament, cached, builds
):
    tournament = make_tournament(4, games_per_match=2)
    lifecycle.start(tournament, publish=False)
    anyone = client_for(None)
    base = f"/api/tournaments/{tournament.pk}/"
    answers = [(anyone.get(base + "standings/"), anyone.get(base + "bracket/")) for _ in range(50)]
    assert all(s.status_code == 200 and b.status_code == 200 for s, b in answers)
    assert builds == {"standings": 1, "bracket": 1}
    assert len({s.content for s, _ in answers}) == 1 and len({b.content for _, b in answers}) == 1
    # Another page of the bracket is another payload.
    assert anyone.get(base + "bracket/?limit=1").json()["count"] == answers[0][1].json()["count"]
    assert builds["bracket"] == 2


def test_the_page_follows_in_one_request_what_standings_and_bracket_answer_apart(
    make_tournament, cached, builds
):
    """`live/`: one request a look (two before) sharing the same builds as the two endpoints,
    its bracket the same page (round, limit and offset) with its links."""
    tournament = make_tournament(4, games_per_match=2)
    lifecycle.start(tournament, publish=False)
    anyone = client_for(None)
    base = f"/api/tournaments/{tournament.pk}/"
    looks = [anyone.get(base + "live/?limit=1&offset=1") for _ in range(20)]
    assert all(look.status_code == 200 for look in looks)
    live = looks[0].json()
    assert live["standings"] == anyone.get(base + "standings/").json()
    apart = anyone.get(base + "bracket/?limit=1&offset=1").json()
    links = ("next", "previous")
    assert {k: v for k, v in live["bracket"].items() if k not in links} == {
        k: v for k, v in apart.items() if k not in links
    }
    # Its links are the neighbouring looks: live/ with the bracket's next and previous page.
    assert {k: live["bracket"][k] for k in links} == {
        k: apart[k].replace("/bracket/", "/live/") for k in links
    }
    assert builds["standings"] == 1  # shared by the twenty looks and standings/
    assert anyone.get(base + "live/?round=0").status_code == 400  # checked as bracket/ checks
    assert anyone.get("/api/tournaments/999999/live/").status_code == 404


def test_a_tournament_that_ends_shows_its_final_standings_at_once(make_tournament, cached, builds):
    tournament = make_tournament(2, games_per_match=2)
    lifecycle.start(tournament, publish=False)
    anyone = client_for(None)
    url = f"/api/tournaments/{tournament.pk}/standings/"
    assert anyone.get(url).json()["status"] == "running"
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.DONE)
    assert anyone.get(url).json()["status"] == "done"  # not the running one, 2 s old at most
    assert builds["standings"] == 2


def test_a_lapsed_payload_is_served_while_another_request_builds_the_next(
    make_tournament, cached, builds, monkeypatch
):
    tournament = make_tournament(2, games_per_match=2)
    lifecycle.start(tournament, publish=False)
    anyone = client_for(None)
    url = f"/api/tournaments/{tournament.pk}/standings/"
    first = anyone.get(url).content
    now = follow_cache.time.time()
    monkeypatch.setattr(follow_cache.time, "time", lambda: now + 5)  # past its 2 s
    tournament.refresh_from_db()
    key = f"follow:standings:{tournament.pk}:{tournament.status}:"
    cached.add(f"{key}:building", 1, 10)  # another request builds it now
    assert anyone.get(url).content == first and builds["standings"] == 1
    cached.delete(f"{key}:building")  # built (or its builder died): the next one builds
    assert anyone.get(url).status_code == 200 and builds["standings"] == 2
    assert anyone.get(url).status_code == 200 and builds["standings"] == 2  # fresh again


def test_a_cache_that_fails_costs_a_build_not_an_answer(
    make_tournament, cached, builds, monkeypatch
):
    tournament = make_tournament(2, games_per_match=2)
    anyone = client_for(None)

    def down(*args, **kwargs):
        raise ConnectionError("the cache is down")

    monkeypatch.setattr(cached, "get", down)
    monkeypatch.setattr(cached, "set", down)
    for _ in range(2):
        assert anyone.get(f"/api/tournaments/{tournament.pk}/standings/").status_code == 200
    assert builds["standings"] == 2


def test_only_the_slices_the_pages_ask_for_are_kept(make_tournament, cached, builds):
    """Anyone may ask for any slice of a bracket: kept, each offset and limit would be a copy of
    the bracket in the shared cache. Only the pages' own slices are kept."""
    from restapi.pagination import MAX_LIMIT
    from tournaments.web.views import BRACKET_PAGE, MATCHES_PAGE

    assert {MATCHES_PAGE, BRACKET_PAGE, MAX_LIMIT} <= follow_cache.FOLLOWED_PAGE_SIZES
    tournament = make_tournament(4, games_per_match=2)
    lifecycle.start(tournament, publish=False)
    anyone = client_for(None)
    url = f"/api/tournaments/{tournament.pk}/bracket/"
    for _ in range(3):
        assert anyone.get(url + "?limit=3&offset=1").status_code == 200
    assert builds["bracket"] == 3  # an odd slice: built each time, never kept
    for _ in range(3):
        assert anyone.get(url + f"?limit={MATCHES_PAGE}&offset=0").status_code == 200
    assert builds["bracket"] == 4  # a page's slice: built once
