"""A big tournament's page shows a page of each long list at a time: 50 standings rows, 50
entrants and 64 matches of the round shown, each with its pager (previous, next, "page 2 of
3"), each pager keeping the others' pages; a bad page number shows the first page; and the
page is built in as many queries for 130 entrants as for 10."""

from __future__ import annotations

import html
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

pytestmark = pytest.mark.django_db

# Three pages of standings rows and of entrants; a Swiss round of 65 matches: two pages. The
# fixture `swiss` (tests/web/conftest.py) plays the first round and pairs the second.
ENTRANTS = 130


@pytest.fixture
def big(swiss):
    return swiss(ENTRANTS)


def get(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def cells(page: str, table_id: str, column: int) -> list[str]:
    """The text of one column of a table's body rows."""
    body = re.search(rf'<table[^>]* id="{table_id}">.*?<tbody>(.*?)</tbody>', page, re.S)
    rows = re.findall(r"<tr>(.*?)</tr>", body.group(1), re.S)
    texts = [re.findall(r"<td>(.*?)</td>", row, re.S) for row in rows]
    return [html.unescape(re.sub(r"<[^>]+>", "", t[column])).strip() for t in texts]


def standings_names(page: str) -> list[str]:
    return cells(page, "standings", 1)


def entrant_names(page: str) -> list[str]:
    return cells(page, "entrants", 0)


def match_keys(page: str) -> list[str]:
    return re.findall(r'<div class="arena-match arena-\w+" data-key="([^"]+)"', page)


def pager(page: str, pager_id: str) -> dict:
    """What a pager shows: "page n of m", and its previous and next links (None if not)."""
    found = re.search(rf'<p class="pager" id="{pager_id}">(.*?)</p>', page, re.S)
    if found is None:
        return {"at": None, "previous": None, "next": None}
    text = found.group(1)
    link = {
        rel: html.unescape(href)
        for href, rel in re.findall(r'<a href="([^"]*)" rel="(prev|next)">', text)
    }
    at = re.search(r'class="pager-at">(.*?)</span>', text).group(1)
    return {"at": at, "previous": link.get("prev"), "next": link.get("next")}


def expected(client, tournament) -> dict:
    """What the pages show, in order: the standings as the API ranks them, the entrants in the
    order they entered, the round shown's matches as the API lists them."""
    standings = client.get(f"/api/tournaments/{tournament.pk}/standings/").json()
    bracket = client.get(f"/api/tournaments/{tournament.pk}/bracket/?round=2").json()
    return {
        "standings": [row["entrant"]["name"] for row in standings["rows"]],
        "entrants": list(tournament.entrants.order_by("id").values_list("name", flat=True)),
        "matches": [
            m["key"] for s in bracket["sections"] for r in s["rounds"] for m in r["matches"]
        ],
    }


def test_the_first_page_shows_the_first_rows_and_links_to_the_next(client, big):
    want = expected(client, big)
    assert len(want["matches"]) == 65
    url = f"/tournaments/{big.pk}/"
    page = get(client, url)
    assert standings_names(page) == want["standings"][:50]
    assert entrant_names(page) == want["entrants"][:50]
    assert match_keys(page) == want["matches"][:64]
    assert f"Entrants ({ENTRANTS})" in page  # the heading counts everyone, not the page
    assert pager(page, "standings-page")["at"] == "page 1 of 3"
    assert pager(page, "entrants-page")["at"] == "page 1 of 3"
    assert pager(page, "matches-page")["at"] == "page 1 of 2"
    for pager_id in ("standings-page", "entrants-page", "matches-page"):
        assert pager(page, pager_id)["previous"] is None
        assert pager(page, pager_id)["next"]
    # What the live script redraws: the same slices.
    assert "standings: { offset: 0, limit: 50 }" in page
    assert "matches: { offset: 0, limit: 64 }" in page


def test_the_next_links_show_the_next_rows_and_keep_the_other_pagers(client, big):
    want = expected(client, big)
    base = f"/tournaments/{big.pk}/"
    first = get(client, base)

    second = get(client, base + pager(first, "standings-page")["next"])
    assert standings_names(second) == want["standings"][50:100]
    assert entrant_names(second) == want["entrants"][:50]
    assert pager(second, "standings-page")["at"] == "page 2 of 3"
    assert "standings: { offset: 50, limit: 50 }" in second

    both = get(client, base + pager(second, "entrants-page")["next"])
    assert entrant_names(both) == want["entrants"][50:100]
    assert standings_names(both) == want["standings"][50:100]  # kept

    matches = get(client, base + pager(both, "matches-page")["next"])
    assert match_keys(matches) == want["matches"][64:]
    assert pager(matches, "matches-page") == {
        "at": "page 2 of 2",
        "previous": pager(matches, "matches-page")["previous"],
        "next": None,
    }
    assert standings_names(matches) == want["standings"][50:100]
    assert entrant_names(matches) == want["entrants"][50:100]

    last = get(client, base + pager(matches, "standings-page")["next"])
    assert standings_names(last) == want["standings"][100:]
    assert pager(last, "standings-page")["at"] == "page 3 of 3"
    assert pager(last, "standings-page")["next"] is None

    back = get(client, base + pager(last, "standings-page")["previous"])
    assert standings_names(back) == want["standings"][50:100]
    assert match_keys(back) == want["matches"][64:]

    # A round's link keeps the standings' and entrants' pages and starts its matches again.
    round_1 = re.search(r'<a href="([^"]*)">1</a>', back).group(1)
    earlier = get(client, base + html.unescape(round_1))
    assert standings_names(earlier) == want["standings"][50:100]
    assert entrant_names(earlier) == want["entrants"][50:100]
    assert pager(earlier, "matches-page")["at"] == "page 1 of 2"
    assert set(match_keys(earlier)).isdisjoint(want["matches"])


@pytest.mark.parametrize("bad", ["abc", "0", "-1", "4", "99999999999999999999", "1.5", ""])
def test_a_bad_page_number_shows_the_first_page(client, big, bad):
    want = expected(client, big)
    query = f"standings_page={bad}&entrants_page={bad}&matches_page={bad}"
    page = get(client, f"/tournaments/{big.pk}/?{query}")
    assert standings_names(page) == want["standings"][:50]
    assert entrant_names(page) == want["entrants"][:50]
    assert match_keys(page) == want["matches"][:64]
    assert pager(page, "standings-page")["at"] == "page 1 of 3"
    # Its links lead from the first page, not from the bad number.
    assert "entrants_page" not in pager(page, "standings-page")["next"]


def test_a_small_tournament_has_no_pagers(client, swiss):
    small = swiss(10, "Small Swiss")
    page = get(client, f"/tournaments/{small.pk}/")
    assert len(standings_names(page)) == len(entrant_names(page)) == 10
    assert 'class="pager"' not in page


def test_the_pages_queries_do_not_grow_with_the_entrants(client, swiss, django_assert_num_queries):
    small, big = swiss(10, "Small Swiss"), swiss(ENTRANTS)
    for query in ("", "?standings_page=2&entrants_page=2&matches_page=2"):
        with CaptureQueriesContext(connection) as queries:
            get(client, f"/tournaments/{small.pk}/{query}")
        with django_assert_num_queries(len(queries)):
            get(client, f"/tournaments/{big.pk}/{query}")


def test_the_pager_speaks_the_visitors_language(big):
    page = get(Client(HTTP_ACCEPT_LANGUAGE="es"), f"/tournaments/{big.pk}/?standings_page=2")
    standings = pager(page, "standings-page")
    assert standings["at"] == "página 2 de 3"
    assert "anterior" in page and "siguiente" in page


def test_the_admins_standings_and_bracket_come_in_pages_as_on_the_public_page(big, admin_user):
    """The admin's page of a big tournament pages its standings and a round's matches as the
    public page does (it built all 5,120 matches of a 1,024-entrant Swiss before)."""
    staff = Client()
    staff.force_login(admin_user)
    want = expected(Client(), big)
    url = f"/admin/tournaments/tournament/{big.pk}/standings/"
    first = get(staff, url)
    assert standings_names(first) == want["standings"][:50]
    assert match_keys(first) == want["matches"][:64]
    assert pager(first, "standings-page")["at"] == "page 1 of 3"
    assert pager(first, "matches-page")["at"] == "page 1 of 2"
    second = get(staff, url + pager(first, "standings-page")["next"])
    assert standings_names(second) == want["standings"][50:100]
    matches = get(staff, url + pager(second, "matches-page")["next"])
    assert match_keys(matches) == want["matches"][64:]
    assert standings_names(matches) == want["standings"][50:100]  # kept
    assert 'href="/admin/tournaments/match/' in matches  # the admin's own match links


@pytest.mark.parametrize("fmt", ["single-elimination", "double-elimination"])
def test_a_bracket_of_64_entrants_is_drawn_on_one_page(client, fmt):
    """Its lines join boxes of the same page only: up to 64 entrants (a double elimination's
    126-127 matches) the whole bracket is one page; a league's round still pages by 64."""
    from tests.factories import started_bots_tournament

    bracket = started_bots_tournament(f"Big {fmt}", fmt, 64)
    page = get(client, f"/tournaments/{bracket.pk}/")
    api = client.get(f"/api/tournaments/{bracket.pk}/bracket/").json()
    keys = [m["key"] for s in api["sections"] for r in s["rounds"] for m in r["matches"]]
    assert len(keys) >= 63
    assert match_keys(page) == keys
    assert pager(page, "matches-page")["at"] is None
