"""In a real browser (Debian's Chromium driven by Playwright): the live script of a running big
tournament's page redraws the slices the page shows (its standings page of 50 rows, its page of
a round's matches), never the whole standings or round. Skipped, saying why, when Chromium or
Playwright is not installed."""

from __future__ import annotations

import pytest

from tests.browser_support import browser_or_skip

sync_api = browser_or_skip()

pytestmark = pytest.mark.django_db(transaction=True)

REDRAWN = """() => document.querySelectorAll('#standings tbody tr').length > 0
  && document.querySelectorAll('#bracket .arena-match').length > 0"""


def shown(page) -> tuple[list[str], list[str]]:
    """The standings' entrant names and the matches' keys the page shows."""
    names = page.locator("#standings tbody tr td:nth-child(2)").all_text_contents()
    keys = [
        page.locator("#bracket .arena-match").nth(k).get_attribute("data-key")
        for k in range(page.locator("#bracket .arena-match").count())
    ]
    return names, keys


def redrawn(page) -> tuple[list[str], list[str]]:
    """Empties the standings and the bracket, waits for the live script's next poll to draw
    them again, and returns what it drew."""
    page.evaluate(
        """() => {
          document.querySelector('#standings tbody').replaceChildren();
          document.getElementById('bracket').replaceChildren();
        }"""
    )
    page.wait_for_function(REDRAWN, timeout=15_000)  # a poll every 3 s
    return shown(page)


def test_the_live_redraw_keeps_the_pages_slices(page, live_server, swiss, client):
    cup = swiss(130)
    standings = client.get(f"/api/tournaments/{cup.pk}/standings/").json()
    names = [row["entrant"]["name"] for row in standings["rows"]]
    bracket = client.get(f"/api/tournaments/{cup.pk}/bracket/?round=2").json()
    keys = [m["key"] for s in bracket["sections"] for r in s["rounds"] for m in r["matches"]]
    assert len(names) == 130 and len(keys) == 65

    page.goto(f"{live_server.url}/tournaments/{cup.pk}/")
    assert page.locator("#live").count() == 1  # running: the script follows it
    assert shown(page) == (names[:50], keys[:64])
    assert redrawn(page) == (names[:50], keys[:64])

    page.goto(f"{live_server.url}/tournaments/{cup.pk}/?standings_page=2&matches_page=2")
    assert shown(page) == (names[50:100], keys[64:])
    assert redrawn(page) == (names[50:100], keys[64:])
    # The round links it draws keep the standings' page.
    assert "standings_page=2" in page.locator("#rounds-nav a").first.get_attribute("href")


def test_a_page_in_a_background_tab_asks_nothing_and_asks_at_once_when_shown(
    page, live_server, swiss
):
    """Hundreds of people follow a tournament, many in tabs they do not look at: those ask the
    server nothing (tournaments/static/tournaments/tournament.js)."""
    cup = swiss(8)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/live/" in r.url else None)
    page.goto(f"{live_server.url}/tournaments/{cup.pk}/")
    page.wait_for_function(REDRAWN, timeout=15_000)
    page.evaluate(
        """() => {
          Object.defineProperty(document, 'hidden', {configurable: true, get: () => true});
          document.dispatchEvent(new Event('visibilitychange'));
        }"""
    )
    page.wait_for_timeout(500)  # a look under way when it was hidden ends
    before = len(asked)
    page.wait_for_timeout(4_000)  # longer than the 3 s between looks
    assert len(asked) == before  # hidden: nothing asked
    page.evaluate(
        """() => {
          Object.defineProperty(document, 'hidden', {configurable: true, get: () => false});
          document.dispatchEvent(new Event('visibilitychange'));
        }"""
    )
    page.wait_for_timeout(1_000)
    assert len(asked) > before  # shown again: asked at once, not 3 s later
