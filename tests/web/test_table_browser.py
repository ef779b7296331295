"""A person plays a whole game in a real browser on the embedded default (live server, bots
answering in the request): the table names the raise in the variant's words, keeps the last
hand's summary until they move on, and ends with the winner, the final score, a replay link and
a rematch. On a phone (390x844) neither the table nor a tournament's bracket and standings
overflow the screen, and a Portuguese browser gets the table in Portuguese."""

from __future__ import annotations

import re

import pytest

from tests.browser_support import browser_or_skip
from tests.push_support import TableSpectator

sync_api = browser_or_skip()

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "un-truco-largo-42"
PHONE = {"width": 390, "height": 844}


def context_page(browser, **options):
    context = browser.new_context(**options)
    page = context.new_page()
    page.set_default_timeout(10_000)
    return context, page


def sign_in(page, base_url: str, name: str) -> None:
    page.goto(f"{base_url}/accounts/signup/?next=/play/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("form.stack button[type=submit]")
    page.wait_for_url("**/play/")


def open_table(page, variant: str = "paulista", target: int = 3) -> None:
    """The lobby's form: the variant, then its `target` option control set low for a short game."""
    page.select_option("select[name=variant]", variant)
    page.select_option("select[name=bot]", "random")
    control = page.locator("[name='option:target']")
    if control.evaluate("node => node.tagName") == "SELECT":  # Argentino: 30 or 15
        control.select_option(str(target))
    else:
        control.fill(str(target))
    page.click("#quick button[type=submit]")
    page.wait_for_url("**/play/matches/*/")
    page.wait_for_selector("#actions button")


# Notes every hand summary the table shows, however briefly (the player's next action hides
# it, and a test that clicks at once may never catch it between two looks).
WATCH_SUMMARIES = """() => {
    window.summariesShown = [];
    const box = document.querySelector('#hand-summary');
    const note = () => {
        const headline = box.querySelector('h2');
        if (!box.hidden && headline && !window.summariesShown.includes(headline.innerText)) {
            window.summariesShown.push(headline.innerText);
        }
    };
    note();
    new MutationObserver(note).observe(box, {childList: true, subtree: true, attributes: true});
}"""


def play_to_the_end(page, limit: int = 300) -> dict:
    """Click through the game (cards first, else the first choice offered) and note what the
    table showed on the way."""
    seen = {"summary": None, "dismissed": False}
    page.evaluate(WATCH_SUMMARIES)
    for _ in range(limit):
        if page.locator("#game-over:not([hidden])").count():
            shown = page.evaluate("window.summariesShown")
            seen["summary"] = shown[0] if shown else None
            return seen
        if not seen["dismissed"] and page.locator("#summary-ok").count():
            try:
                page.locator("#summary-ok").click(timeout=2_000)  # moving on hides it
                seen["dismissed"] = page.locator("#hand-summary").is_hidden()
            except sync_api.Error:
                pass  # gone meanwhile (the next hand's turn timer, a robot): the next one

        for choice in (
            "#actions button.card",
            "#actions button[data-action=accept]",
            "#actions button[data-action]",
        ):
            button = page.locator(choice)
            if button.count():
                try:
                    button.first.click(timeout=2_000)
                except sync_api.Error:
                    pass  # redrawn under the pointer by a poll: try again
                break
        page.wait_for_timeout(60)
    raise AssertionError("the game did not end")


def test_a_person_plays_a_whole_game_to_its_end_and_is_told_what_happened(
    browser,
    live_server,
    settings,
):
    from tournaments.models import Game

    settings.TRUCO_TABLES = "inline"
    context, page = context_page(browser)
    sign_in(page, live_server.url, "rosa")
    open_table(page)
    assert "Game 1 of 1" in page.locator("#status-line").inner_text()
    # The variant's words: Paulista's first raise is truco, to 3; if the bot called it first,
    # the answers are aceito / corro and the raise is seis, to 6.
    raise_text = page.locator("#actions .group-bet button[data-action=truco]").inner_text()
    if page.locator("#actions button[data-action=accept]").count():
        assert "aceito" in page.locator("#actions .group-answer").inner_text()
        assert "corro" in page.locator("#actions .group-answer").inner_text()
        assert "seis" in raise_text and "raise to 6" in raise_text
    else:
        assert "truco" in raise_text and "raise to 3" in raise_text
    seen = play_to_the_end(page)
    assert seen["summary"] and re.match(r"Hand \d+: ", seen["summary"])  # the first one seen
    over = page.locator("#game-over")
    assert "won the game" in page.locator("#winner").inner_text()
    game = Game.objects.get(match__tournament__created_by__username="rosa")
    final = page.locator("#final-score").inner_text()
    assert f"{game.score_a}" in final and f"{game.score_b}" in final
    assert "The match is over." in page.locator("#status-line").inner_text()
    assert "Game 2" not in page.locator("#status-line").inner_text()  # no off-by-one
    assert over.locator("#rematch").count() == 1
    # The last hand stays on the table under the result.
    assert page.locator("#hand-summary h2").inner_text().startswith("Hand ")
    page.click("#replay-link")
    page.wait_for_url(f"**/games/{game.pk}/replay/")
    page.wait_for_selector("#board .seat")
    context.close()


def no_overflow(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_on_a_phone_the_table_and_a_tournament_page_fit_the_screen(
    browser,
    live_server,
    settings,
    played,
    tmp_path,
):
    settings.TRUCO_TABLES = "inline"
    context, page = context_page(browser, viewport=PHONE)
    page.goto(f"{live_server.url}/tournaments/{played.pk}/")
    page.wait_for_selector("#standings tbody tr")
    page.screenshot(path=str(tmp_path / "tournament-390.png"), full_page=True)
    assert no_overflow(page)
    sign_in(page, live_server.url, "nico")
    open_table(page, variant="argentino", target=15)
    page.screenshot(path=str(tmp_path / "table-390.png"), full_page=True)
    assert no_overflow(page)
    assert page.locator("#countdown .bar").is_visible()
    context.close()


def test_a_portuguese_browser_gets_the_table_in_portuguese(browser, live_server, settings):
    settings.TRUCO_TABLES = "inline"
    context, page = context_page(browser, locale="pt-BR")
    sign_in(page, live_server.url, "lucia")
    assert "Nova mesa" in page.locator("main").inner_text()
    open_table(page)
    assert "Sua vez" in page.locator("#status-line").inner_text()
    assert "Apostas" in page.locator("#actions").inner_text()  # the bets, there at every first turn
    assert page.locator(".seat.you .name").inner_text().startswith("Você")
    # Choosing Spanish sticks, over the browser's Portuguese.
    page.select_option("#language-form select", "es")
    page.wait_for_load_state()
    page.wait_for_selector("#actions button")
    assert "Tu turno" in page.locator("#status-line").inner_text()
    page.goto(f"{live_server.url}/play/")
    assert "Nueva mesa" in page.locator("main").inner_text()
    context.close()


@pytest.mark.services
def test_on_postgresql_a_person_plays_a_whole_game_over_the_push_channel(browser, live_stack):
    """A live ASGI server on PostgreSQL (`live_stack` of tests/e2e_support.py) whose table host
    plays the robots: the page hears every state over its WebSocket (it polls the API only for
    the first one), the person plays to the end, is told who won, and the table never says
    that no host is running."""
    context, page = context_page(browser)
    page.set_default_timeout(20_000)
    sign_in(page, live_stack.url, "pia")
    pushed, sent, polled = [], [], []

    def heard(socket):
        if "/ws/play/matches/" in socket.url:
            socket.on("framereceived", lambda frame: pushed.append(frame))
            socket.on("framesent", lambda frame: sent.append(frame))

    page.on("websocket", heard)
    page.on(
        "request",
        lambda request: (
            polled.append(request.url)
            if re.search(r"/api/play/matches/\d+/$", request.url) and request.method == "GET"
            else None
        ),
    )
    open_table(page)
    # A spectator, signed out, watches the same table on its own WebSocket meanwhile (a table
    # host once failed every push of a table a spectator watched: "public" read as a player).
    match_id = int(re.search(r"/play/matches/(\d+)/", page.url).group(1))
    spectator = TableSpectator(live_stack.url, match_id)
    spectator.start()
    seen = play_to_the_end(page, limit=600)
    spectator.stop()
    assert spectator.failure is None, spectator.failure
    assert len(spectator.states) > 3 and not spectator.states[-1][1].get("you")
    states = [frame for frame in pushed if '"type":"state"' in str(frame).replace(" ", "")]
    acts = [frame for frame in sent if '"type":"act"' in str(frame).replace(" ", "")]
    assert acts and len(states) > len(acts), (sent, pushed[:2])  # acts sent, states pushed
    assert len(polled) <= 2, polled  # the first state only: no polling while connected
    assert page.locator("#live-line").is_hidden()
    assert seen["summary"] and re.match(r"Hand \d+: ", seen["summary"])  # the first one seen
    assert "won the game" in page.locator("#winner").inner_text()
    assert page.locator("#no-worker").count() == 0
    page.click("#replay-link")
    page.wait_for_selector("#board .seat")
    context.close()
