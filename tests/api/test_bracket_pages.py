"""The bracket endpoint in pages: at most 500 matches a response, `?limit=` and `?offset=` as in
every list of the API (`count`, `next`, `previous`), with the other fields and `?round=` kept;
a bad limit or offset is read as DRF reads it (the default limit, the first match), not a 400."""

from __future__ import annotations

import pytest

from tests.factories import finish, started_bots_tournament
from tournaments.models import Match

pytestmark = pytest.mark.django_db


def started(fmt: str, entrants: int):
    return started_bots_tournament(f"{fmt} of {entrants}", fmt, entrants, f"{fmt}-{{i}}")


def matches_of(body: dict) -> list[dict]:
    return [m for section in body["sections"] for r in section["rounds"] for m in r["matches"]]


def every_page(api, url: str) -> tuple[list[dict], list[dict]]:
    """The pages of `url`, following `next`, and the matches on them in order."""
    pages, matches = [], []
    while url:
        response = api.get(url)
        assert response.status_code == 200, url
        pages.append(response.json())
        matches += matches_of(pages[-1])
        url = pages[-1]["next"]
    return pages, matches


def test_a_big_league_comes_in_pages_of_at_most_500_that_hold_every_match_once(api):
    league = started("round-robin", 34)  # every round at once: 561 matches
    expected = Match.objects.filter(tournament=league).count()
    assert expected > 500
    first = api.get(f"/api/tournaments/{league.pk}/bracket/").json()
    assert first["count"] == expected and first["previous"] is None
    assert len(matches_of(first)) == 500
    assert first["kind"] == "rounds" and first["format"] == "round-robin"
    assert first["rounds"] == list(range(1, 34))  # every round is named, not only this page's
    pages, matches = every_page(api, f"/api/tournaments/{league.pk}/bracket/")
    assert [len(matches_of(p)) for p in pages] == [500, expected - 500]
    assert pages[-1]["next"] is None and pages[-1]["previous"] is not None
    ids = [m["match"] for m in matches]
    assert len(ids) == len(set(ids)) == expected
    assert set(ids) == set(Match.objects.filter(tournament=league).values_list("id", flat=True))
    assert [m["round"] for m in matches] == sorted(m["round"] for m in matches)


def test_a_round_comes_in_pages_of_the_asked_limit(api):
    league = started("round-robin", 12)  # 11 rounds of 6 matches
    url = f"/api/tournaments/{league.pk}/bracket/?round=3&limit=4"
    pages, matches = every_page(api, url)
    assert [p["count"] for p in pages] == [6, 6]
    assert [len(matches_of(p)) for p in pages] == [4, 2]
    assert "round=3" in pages[0]["next"] and "offset=4" in pages[0]["next"]
    assert {m["round"] for m in matches} == {3}
    round_3 = Match.objects.filter(tournament=league, round__number=3)
    assert sorted(m["match"] for m in matches) == sorted(round_3.values_list("id", flat=True))


def test_a_bracket_with_waiting_matches_comes_in_pages_in_the_order_it_is_shown(api):
    cup = started("double-elimination", 16)
    for match in Match.objects.filter(tournament=cup, entrant_b__isnull=False)[:3]:
        finish(match)
    whole = api.get(f"/api/tournaments/{cup.pk}/bracket/").json()
    assert whole["next"] is None and whole["count"] == len(matches_of(whole))
    every = [m["key"] for m in matches_of(whole)]
    assert any(m["status"] == "waiting" for m in matches_of(whole))
    assert len(every) == len(set(every)) > 7
    pages, matches = every_page(api, f"/api/tournaments/{cup.pk}/bracket/?limit=7")
    assert len(pages) == -(-len(every) // 7)
    assert [m["key"] for m in matches] == every  # each slot once, in the same order
    # A page's matches keep their sections, and the line to the match their winner plays next.
    assert [m["next"] for m in matches] == [m["next"] for m in matches_of(whole)]
    assert {s["name"] for p in pages for s in p["sections"]} == {
        s["name"] for s in whole["sections"]
    }


@pytest.mark.parametrize(
    ("query", "shown", "offset"),
    [
        ("limit=abc", 500, 0),  # not a number: the default limit
        ("limit=0", 500, 0),
        ("limit=-3", 500, 0),
        ("limit=100000", 500, 0),  # over the largest page: cut to it
        ("limit=99999999999999999999", 500, 0),
        ("offset=-1", 500, 0),  # not a match's index: from the first
        ("offset=x", 500, 0),
        ("limit=10&offset=99999999999999999999", 0, None),  # past the end: an empty page
    ],
)
def test_a_bad_limit_or_offset_is_read_as_the_apis_lists_read_it(api, query, shown, offset):
    league = started("round-robin", 34)
    response = api.get(f"/api/tournaments/{league.pk}/bracket/?{query}")
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 561 and len(matches_of(body)) == shown
    if offset == 0:
        assert body["previous"] is None and "limit=500&offset=500" in body["next"]


def test_a_bad_round_is_still_a_400(api):
    league = started("round-robin", 4)
    response = api.get(f"/api/tournaments/{league.pk}/bracket/?round=0&limit=5")
    assert response.status_code == 400 and "round" in response.json()
