"""The journeys of issue 18 in a real browser (Debian's Chromium driven by Playwright):

- a bot author signs up from the menu, reads the guide on the site, downloads a starter, uploads
  it as it is, sees it ready (and told so), finds a tournament open for entries from My bots,
  enters it, and once it is played reads the bot's log from the match page;
- a player on a phone-size screen (390x844) goes through the front page, a tournament, a match,
  a replay, My bots and the play lobby without the page ever scrolling sideways, the menu folded.

The worker that validates uploads is stood in for by a thread running the same validation (the
smoke match in the jail) once the upload is committed; the tournament is played in process."""

from __future__ import annotations

import threading

import pytest

from tests.browser_support import browser_or_skip

sync_api = browser_or_skip()

pytestmark = pytest.mark.django_db(transaction=True)
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def validating_worker(monkeypatch):
    from django.db import connection

    from submitted_bots.smoke_match import validate_version

    def validate(bot_id: int) -> None:
        try:
            validate_version(bot_id)
        finally:
            connection.close()

    monkeypatch.setattr(
        "submitted_bots.bundles.uploads.publish_validation",
        lambda bot_id: threading.Thread(target=validate, args=(bot_id,), daemon=True).start(),
    )


@pytest.fixture
def open_cup(db):
    """A draft open for entries with one house bot in it: the author's bot makes two."""
    from tests.factories import BotFactory
    from tournaments.models import Entrant, Tournament

    cup = Tournament.objects.create(
        name="Open Cup",
        variant="paulista",
        format="single-elimination",
        games_per_match=1,
        registration_open=True,
        seeding=Tournament.Seeding.ORDER,
    )
    rival = BotFactory(name="house-random", plugin="random")
    Entrant.objects.create(tournament=cup, name=rival.label, bot=rival)
    return cup


@pytest.fixture
def long_names_cup(db):
    """A played 8-bot single elimination whose entrants have names as long as users give."""
    from django.contrib.auth import get_user_model

    from tests.factories import BotFactory
    from tournaments.builders import create_tournament
    from tournaments.runner import run_in_process

    owner = get_user_model().objects.create_user("alice_bot_the_author", password="x-long-9")
    names = ["first_card_player", "greedy_envido_caller", "truco_always_bot", "mao_de_onze_coward"]
    bots = [BotFactory(name=n, owner=owner, version="1") for n in names]
    bots += [BotFactory(name=f"{n}_fork", owner=owner, version="12") for n in names]
    cup = create_tournament(
        name="The Very Long Named Spring Invitational",
        variant="paulista",
        format="single-elimination",
        bots=bots,
        games_per_match=1,
        seed=11,
        seeding="order",
    )
    run_in_process(cup)
    cup.refresh_from_db()
    return cup


def no_sideways_scroll(page, width: int | None = None) -> int:
    """How many pixels the page is wider than the screen (0 or less when nothing scrolls
    sideways). A phone's window grows to a page wider than the screen: give the screen's width."""
    screen = width if width is not None else page.evaluate("window.innerWidth")
    return page.evaluate("document.documentElement.scrollWidth") - screen


def too_wide(page, width: int) -> list[str]:
    """The outermost elements reaching past the screen's right edge (what to fix)."""
    return page.evaluate(
        """width => [...document.querySelectorAll('body *')].filter(e => {
            const r = e.getBoundingClientRect();
            const p = e.parentElement.getBoundingClientRect();
            return r.right > width + 1 && p.right <= width + 1;
        }).slice(0, 8).map(e => e.tagName + '.' + e.className + '#' + e.id + ' ' +
            Math.round(e.getBoundingClientRect().right))""",
        width,
    )


def test_a_bot_authors_journey_from_sign_up_to_the_log_of_a_tournament_game(
    page, live_server, validating_worker, open_cup, tmp_path
):
    from tests.jail.conftest import jail_or_skip

    jail_or_skip()
    from tournaments.models import Match, Tournament
    from tournaments.runner import run_in_process

    site = live_server.url
    # Sign up from the menu: the form keeps what was typed when something is wrong.
    page.goto(f"{site}/")
    page.click("#menu >> text=Sign up")
    page.wait_for_url("**/accounts/signup/")
    page.fill("input[name=username]", "ana")
    page.fill("input[name=password1]", "un-truco-largo-42")
    page.fill("input[name=password2]", "un-truco-largo-43")  # a typo
    page.click("#signup button[type=submit]")
    assert page.locator("#signup .has-error").count() >= 1
    assert page.input_value("input[name=username]") == "ana"
    assert page.input_value("input[name=password1]") == "un-truco-largo-42"
    page.fill("input[name=password2]", "un-truco-largo-42")
    page.click("#signup button[type=submit]")
    # What next: the welcome names the guide and My bots.
    welcome = page.locator("#site-messages .welcome")
    welcome.wait_for()
    assert "Welcome, ana" in welcome.inner_text()
    # The guide, on the site, starts with the five-minute path and offers the starters.
    welcome.locator("text=write a bot").click()
    page.wait_for_url("**/docs/bots/")
    assert page.locator("article.doc h2").first.inner_text() == "Five minutes to a ranked bot"
    assert page.locator("article.doc h2").last.inner_text() == "The sandbox"
    page.click("article.doc >> a[href='/docs/bot-protocol/']")
    page.wait_for_url("**/docs/bot-protocol/")
    assert "protocol" in page.locator("article.doc h1").inner_text().lower()
    page.go_back()
    with page.expect_download() as download:
        page.click("#starters a[data-language=python]")
    starter = tmp_path / download.value.suggested_filename
    download.value.save_as(starter)
    assert starter.name == "mybot-python.zip"

    # Upload it as it is on My bots: validating, then ready, and a notice says so.
    page.click("#starters >> text=Upload it on My bots")
    page.wait_for_url("**/bots/mine/")
    page.set_input_files("input[name=bundle]", str(starter))
    page.fill("input[name=description]", "the starter, untouched")
    page.click("#upload button[type=submit]")
    page.wait_for_selector("text=ana/mybot v1 uploaded")
    page.wait_for_selector("tr[data-status=ready]", timeout=60_000)  # the page reloads itself
    ready = page.locator("tr[data-status=ready] .badge")
    validating_colour = "rgb(254, 240, 199)"
    assert ready.inner_text() == "ready"
    assert ready.evaluate("e => getComputedStyle(e).backgroundColor") != validating_colour
    assert "played to the end" in page.locator("tr[data-status=ready]").inner_text()
    assert "the starter, untouched" in page.locator(".what-changed").inner_text()
    assert "passed its smoke match" in page.locator("#notices").inner_text()
    # The smoke match's log opens in a row of its own: the page does not widen.
    page.click(".bot-log summary")
    assert no_sideways_scroll(page) <= 0
    log_box = page.locator(".bot-log pre").bounding_box()
    table_box = page.locator("table.versions").bounding_box()
    assert log_box["width"] > table_box["width"] * 0.8

    # Find the open tournament from My bots and enter the new version.
    page.click("#open-tournaments-link")
    page.wait_for_url("**/tournaments/open/")
    page.click("#open-tournaments >> text=Open Cup")
    page.select_option("#enter-bot select[name=bot]", label="ana/mybot v1")
    page.click("#enter-bot button[type=submit]")
    page.wait_for_selector("text=ana/mybot v1 is entered")

    # The organiser starts it; it is played; the author reads the log from the match page.
    cup = Tournament.objects.get(pk=open_cup.pk)
    assert run_in_process(cup) == Tournament.Status.DONE
    match = Match.objects.get(tournament=cup, entrant_b__isnull=False)
    page.goto(f"{site}/bots/mine/")
    assert "Open Cup is over" in page.locator("#notices").inner_text()
    page.goto(f"{site}/matches/{match.pk}/")
    page.click("#games .logs-link")
    page.wait_for_url("**/games/*/logs/")
    text = page.locator(".seat-log pre").first.inner_text()
    assert "match: paulista" in text  # what the starter writes to standard error
    # Its name is a link to its version's page, with the match in its recent ones.
    page.goto(f"{site}/matches/{match.pk}/")
    page.click("h1 >> text=ana/mybot v1")
    page.wait_for_url("**/bots/*/")
    assert page.locator("#bot-label").inner_text() == "ana/mybot v1"
    assert page.locator("#bot-matches tbody tr").count() == 1


def test_a_player_on_a_phone_never_scrolls_sideways(browser, live_server, long_names_cup, settings):
    from django.contrib.auth import get_user_model

    from tournaments.models import Game

    settings.TRUCO_TABLES = "inline"
    get_user_model().objects.create_user("rosa", password="un-truco-largo-42")
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    site = live_server.url
    try:
        page.goto(f"{site}/")
        assert not page.locator("#menu").is_visible()  # folded behind the toggle
        page.click("label.menu-button")
        assert page.locator("#menu >> text=Sign in").is_visible()
        page.click("#menu >> text=Sign in")
        page.fill("input[name=username]", "rosa")
        page.fill("input[name=password]", "un-truco-largo-42")
        page.click("main button[type=submit]")
        page.wait_for_selector("text=Sign out rosa", state="attached")
        game = Game.objects.filter(match__tournament=long_names_cup).order_by("id").first()
        pages = [
            "/",
            "/tournaments/",
            f"/tournaments/{long_names_cup.pk}/",
            f"/matches/{game.match_id}/",
            f"/games/{game.pk}/replay/",
            "/bots/mine/",
            "/play/",
            "/docs/bots/",
        ]
        for path in pages:
            page.goto(f"{site}{path}")
            page.wait_for_load_state("load")
            assert no_sideways_scroll(page, PHONE["width"]) <= 0, (
                f"{path} scrolls sideways: {too_wide(page, PHONE['width'])}"
            )
        # The replay's board is drawn by its script once the frames arrive: every frame fits
        # too (the seats are named "owner/bot", a word as long as the screen is wide).
        page.goto(f"{site}/games/{game.pk}/replay/")
        page.wait_for_selector("#replay[data-step='0'] #board .seat")
        last = int(page.get_attribute("#scrubber", "max"))
        for step in range(last + 1):
            page.eval_on_selector(
                "#scrubber",
                "(s, i) => { s.value = i; s.dispatchEvent(new Event('input')); }",
                step,
            )
            assert no_sideways_scroll(page, PHONE["width"]) <= 0, (
                f"the replay's step {step} scrolls sideways: {too_wide(page, PHONE['width'])}"
            )
        # The tournaments' list is a card per tournament: every field shown, none cut.
        page.goto(f"{site}/tournaments/")
        card = page.locator("#tournaments tbody tr").first
        headings = card.locator("td").evaluate_all(
            "cells => cells.map(c => getComputedStyle(c, '::before').content)"
        )
        assert '"Entrants"' in headings and '"Created"' in headings
        box = card.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        # A quick table against a built-in bot: the table too fits the phone.
        page.goto(f"{site}/play/")
        page.select_option("select[name=variant]", "paulista")
        page.select_option("select[name=bot]", "random")
        page.click("#quick button[type=submit]")
        page.wait_for_url("**/play/matches/*/")
        page.wait_for_selector("#actions button")
        assert no_sideways_scroll(page, PHONE["width"]) <= 0, too_wide(page, PHONE["width"])
        # The card buttons read in the order of the cards in your hand on the board. The first
        # decision may be an answer to the robot's truco (chance): answer until cards are
        # offered, which every hand the person does not fold comes to.
        for _ in range(30):
            if page.locator("#actions button.card").count():
                break
            page.locator("#actions button").first.click()
            page.wait_for_timeout(300)
        page.wait_for_selector("#actions button.card")
        shown = page.eval_on_selector_all(
            "#board .seat.you .hand [data-card]", "cards => cards.map(c => c.dataset.card)"
        )
        offered = page.eval_on_selector_all(
            "#actions button.card", "cards => cards.map(c => c.dataset.card)"
        )
        assert offered and offered == [c for c in shown if c in offered]
        # A hand's summary, when it shows, does not move the board or your cards.
        # Measured from the document's top once the board is still (the page may still be scrolling
        # after the last click, which moves the board in the window, not in the page).
        board_top = "b => b.getBoundingClientRect().top + window.scrollY"
        before = None
        for _ in range(20):
            page.wait_for_timeout(100)
            now = page.eval_on_selector("#board", board_top)
            if now == before:
                break
            before = now
        page.evaluate(
            """() => { const box = document.getElementById('hand-summary');
                box.innerHTML = '<h2>Hand 1: a summary</h2><p>' + 'text '.repeat(80) + '</p>';
                box.hidden = false; }"""
        )
        after = page.eval_on_selector("#board", board_top)
        assert after == before
        # Every standings column is reachable: the table scrolls in its own box.
        page.goto(f"{site}/tournaments/{long_names_cup.pk}/")
        last = page.locator("#standings thead th").last
        last.scroll_into_view_if_needed()
        assert last.is_visible()
    finally:
        context.close()
