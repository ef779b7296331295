"""In a real browser (Debian's Chromium driven by Playwright): a tournament page shows its
standings and bracket, the replay viewer steps through a game, and a human plays a card at the
play table. Skipped, saying why, when Chromium or Playwright is not installed."""

from __future__ import annotations

import pytest

from tests.browser_support import browser_or_skip

sync_api = browser_or_skip()

pytestmark = pytest.mark.django_db(transaction=True)


def test_tournament_page_and_replay_viewer(page, live_server, played):
    from tournaments.models import Game

    page.goto(f"{live_server.url}/tournaments/{played.pk}/")
    assert page.locator("#standings tbody tr").count() == 4
    assert page.locator(".arena-match").count() == 3
    game = Game.objects.filter(match__tournament=played).order_by("id").first()

    page.goto(f"{live_server.url}/games/{game.pk}/replay/")
    page.wait_for_selector("#board .seat")
    assert page.locator("#position").inner_text() == f"step 0 of {game.actions}"
    assert page.locator("#board .seat").count() == 2
    assert page.locator("#board .seat").first.locator(".card").count() == 3  # every card shown
    page.click("button[data-step=next]")
    assert page.locator("#position").inner_text() == f"step 1 of {game.actions}"
    assert page.locator("#replay").get_attribute("data-step") == "1"
    page.keyboard.press("End")
    assert page.locator("#position").inner_text() == f"step {game.actions} of {game.actions}"
    assert "wins the game" in page.locator("#board").inner_text()


def test_a_human_plays_a_card_at_the_table(page, live_server, settings):
    from django.contrib.auth import get_user_model

    settings.TRUCO_TABLES = "inline"
    get_user_model().objects.create_user("rosa", password="un-truco-largo-42")
    page.goto(f"{live_server.url}/accounts/login/?next=/play/")
    page.fill("input[name=username]", "rosa")
    page.fill("input[name=password]", "un-truco-largo-42")
    page.click("button[type=submit]")
    page.wait_for_url("**/play/")
    page.select_option("select[name=variant]", "paulista")
    page.select_option("select[name=bot]", "random")
    page.click("#quick button[type=submit]")
    page.wait_for_url("**/play/matches/*/")
    page.wait_for_selector("#actions button")
    assert "Your turn" in page.locator("#status-line").inner_text()
    # The bot may have bet first: answer until a card can be played.
    # The table may move on under the click (the bot answers, the turn timer plays): then the
    # button is gone and the next look decides again.
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for _ in range(10):
        page.wait_for_selector("#actions button")
        if page.locator("#actions button.card").count():
            break
        try:
            page.locator("#actions button[data-action=accept]").first.click(timeout=3000)
        except PlaywrightTimeout:
            continue
    card = page.locator("#actions button.card").first
    played_card = card.get_attribute("data-card")
    card.click()
    # The card lands on the table: in front of the seat, in a trick, in the hand's log or, if
    # it ended the hand, in the hand's summary.
    page.wait_for_function(
        """code => ['#board .played', '#board .tricks', '#log', '#hand-summary'].some(
            (where) => document.querySelector(where + ' [data-card="' + code + '"]'))""",
        arg=played_card,
    )


def test_table_chat_shows_a_message_as_text_never_as_markup(page, live_server, settings):
    """RULES.md section 5, spectators and chat: what someone says is shown escaped."""
    from django.contrib.auth import get_user_model

    settings.TRUCO_TABLES = "inline"
    get_user_model().objects.create_user("nico", password="un-truco-largo-42")
    page.goto(f"{live_server.url}/accounts/login/?next=/play/")
    page.fill("input[name=username]", "nico")
    page.fill("input[name=password]", "un-truco-largo-42")
    page.click("button[type=submit]")
    page.wait_for_url("**/play/")
    page.select_option("select[name=bot]", "random")
    page.click("#quick button[type=submit]")
    page.wait_for_url("**/play/matches/*/")
    page.wait_for_selector("#chat:not([hidden])")
    said = '<img src=x onerror="window.pwned=1"> ¡truco!'
    page.fill("#chat-form input[name=text]", said)
    page.click("#chat-form button[type=submit]")
    page.wait_for_selector("#chat-lines li")
    assert said in page.locator("#chat-lines li").first.inner_text()
    assert page.locator("#chat-lines img").count() == 0
    assert page.evaluate("window.pwned === undefined")
