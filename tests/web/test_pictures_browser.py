"""The pictures in a real browser (Chromium): a version's and a player's rating drawn with the
points the API gives, the ladder's boards and head-to-head heatmap, at desktop and phone size
(390x844, no sideways scrolling)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from engine.records import replay
from players.models import Rating
from tests.browser_support import browser_or_skip
from tests.factories import BotFactory, UserFactory
from tournaments import execution, ladder_scheduler
from tournaments.builders import bots_named, create_tournament
from tournaments.models import Game, Ladder, LadderEntry, Match
from tournaments.runner import run_in_process

sync_api = browser_or_skip()

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def ladder_played(db):
    """Four versions of four owners after a few rounds of the ladder."""
    for k in range(4):
        BotFactory(name=f"greedy{k}", plugin="random", owner=UserFactory(username=f"author{k}"))
    for _ in range(4):
        ladder_scheduler.tick()
        for match in Match.objects.filter(status=Match.Status.QUEUED):
            execution.execute(match.pk)
    return Ladder.objects.get(variant="paulista", players=2)


def chart_series(page) -> list[list[dict]]:
    page.wait_for_selector("#rating-chart[data-points]")
    return page.evaluate(
        "() => Chart.getChart(document.getElementById('rating-chart'))"
        ".data.datasets.map(d => d.data.map(p => ({x: p.x, y: p.y})))"
    )


def assert_drawn_from(series, points):
    high, low, mu = series
    assert [p["y"] for p in mu] == pytest.approx([p["mu"] for p in points])
    assert [p["y"] for p in low] == pytest.approx([p["mu"] - 2 * p["sigma"] for p in points])
    assert [p["y"] for p in high] == pytest.approx([p["mu"] + 2 * p["sigma"] for p in points])


def no_sideways_scroll(page) -> bool:
    return page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


def test_a_versions_rating_is_drawn_with_the_apis_points(page, live_server, ladder_played):
    entry = LadderEntry.objects.filter(ladder=ladder_played).order_by("-matches").first()
    points = APIClient().get(f"/api/ladder-entries/{entry.pk}/history/").json()["results"]
    assert len(points) == entry.matches >= 2
    page.goto(f"{live_server.url}/ladder/entries/{entry.pk}/")
    assert_drawn_from(chart_series(page), points)
    assert page.locator("canvas#rating-chart[role=img][aria-label]").count() == 1
    # the same figures as a table for those who read rather than look
    assert page.locator(".chart-figures tbody tr").count() == len(points)


def test_a_players_rating_is_drawn_with_the_apis_points(page, live_server, ladder_played):
    rating = Rating.objects.filter(variant="paulista").order_by("-matches").first()
    points = APIClient().get(f"/api/ratings/{rating.pk}/history/").json()["results"]
    page.goto(f"{live_server.url}/ratings/{rating.pk}/")
    assert_drawn_from(chart_series(page), points)


def test_the_ladder_board_and_its_heatmap(page, live_server, ladder_played):
    page.goto(f"{live_server.url}/ladder/")
    assert page.locator(f".ladder-board[data-ladder='{ladder_played.pk}'] li").count() == 4
    page.goto(f"{live_server.url}/ladder/{ladder_played.pk}/")
    assert page.locator("#ladder-board tbody tr").count() == 4
    cells = page.locator("svg.heatmap g.heat-cell")
    assert cells.count() == 4 * 3
    # each cell says what it shows, and the games it counts are the ladder's
    played = {}
    for m in Match.objects.filter(tournament=ladder_played.tournament, status="done"):
        for me, them, won in (
            (m.entrant_a_id, m.entrant_b_id, m.wins_a),
            (m.entrant_b_id, m.entrant_a_id, m.wins_b),
        ):
            w, n = played.get((me, them), (0, 0))
            played[me, them] = (w + won, n + m.games_played)
    shown = sum(int(cells.nth(k).get_attribute("data-games")) for k in range(cells.count()))
    assert shown == sum(n for _, n in played.values())
    assert "won" in cells.first.locator("title").text_content() or "not played" in (
        cells.first.locator("title").text_content()
    )


@pytest.mark.parametrize(
    "path",
    [
        "/ladder/",
        "/ladder/{ladder}/",
        "/ladder/entries/{entry}/",
        "/ratings/{rating}/",
        "/games/{game}/replay/",
        "/matches/{match}/",
    ],
)
def test_the_ladder_pages_fit_a_phone(browser, live_server, ladder_played, path):
    entry = LadderEntry.objects.filter(ladder=ladder_played).first()
    rating = Rating.objects.first()
    game = Game.objects.filter(match__tournament=ladder_played.tournament).first()
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    url = path.format(
        ladder=ladder_played.pk, entry=entry.pk, rating=rating.pk, game=game.pk, match=game.match_id
    )
    page.goto(live_server.url + url)
    page.wait_for_load_state("networkidle")
    assert no_sideways_scroll(page)
    context.close()


def test_an_elimination_bracket_is_drawn_with_its_lines(page, live_server, played):
    """Four entrants: two semi-finals whose winners meet in the final, two lines."""
    page.goto(f"{live_server.url}/tournaments/{played.pk}/")
    page.wait_for_selector("svg.bracket-lines")
    section = page.locator(".arena-bracket").first
    assert section.get_attribute("data-lines") == "2"
    paths = page.locator("svg.bracket-lines path")
    final = page.locator(".arena-match:not([data-next])").first.get_attribute("data-key")
    assert {paths.nth(k).get_attribute("data-to") for k in range(2)} == {final}
    # each line starts at its semi-final's right edge and ends at the final's left edge
    # each line starts at its semi-final's right edge and ends at the final's left edge, at
    # their middles (the path's own figures, against the boxes as laid out)
    gaps = page.evaluate(
        """() => [...document.querySelectorAll('svg.bracket-lines path')].map((p) => {
          const [x1, y1, , , x2] = p.getAttribute('d').match(/-?[0-9.]+/g).map(Number);
          const origin = p.ownerSVGElement.getBoundingClientRect();
          const box = (k) => document.querySelector(`.arena-match[data-key='${k}']`)
            .getBoundingClientRect();
          const a = box(p.dataset.from), b = box(p.dataset.to);
          return [origin.left + x1 - a.right, origin.top + y1 - (a.top + a.height / 2),
                  origin.left + x2 - b.left];
        })"""
    )
    assert len(gaps) == 2
    assert all(abs(g) < 1 for line in gaps for g in line), gaps


def test_a_round_robin_shows_its_head_to_head(page, live_server, db):
    league = create_tournament(
        name="League",
        variant="paulista",
        format="round-robin",
        bots=bots_named(["random"] * 3),
        games_per_match=2,
        seed=3,
        seeding="order",
    )
    run_in_process(league)
    page.goto(f"{live_server.url}/tournaments/{league.pk}/")
    cells = page.locator("svg.heatmap g.heat-cell")
    assert cells.count() == 6
    for k in range(6):
        cell = cells.nth(k)
        assert cell.get_attribute("data-games") == "2"  # each pair met once, two games
        assert "won" in cell.locator("title").text_content()
    # the two cells of a pair add up to the games they played (a game has one winner)
    won = {
        (cells.nth(k).get_attribute("data-row"), cells.nth(k).get_attribute("data-col")): int(
            cells.nth(k).get_attribute("data-wins")
        )
        for k in range(6)
    }
    assert all(won[r, c] + won[c, r] == 2 for r, c in won)


def test_the_replay_draws_the_score_over_the_hands(page, live_server, played):
    game = Game.objects.filter(match__tournament=played).order_by("id").first()
    summary = replay(game.record).summary()
    page.goto(f"{live_server.url}/games/{game.pk}/replay/")
    page.wait_for_selector("#score-chart[data-hands]")
    series = page.evaluate(
        "() => Chart.getChart(document.getElementById('score-chart')).data.datasets"
        ".map(d => d.data)"
    )
    hands = summary["hands"]
    assert len(series[0]) == len(series[1]) == len(hands) + 1
    for k, hand in enumerate(hands):  # each step is that hand's points
        assert [series[t][k + 1] - series[t][k] for t in (0, 1)] == hand["points"]
    assert [series[0][-1], series[1][-1]] == summary["score"]
    label = page.locator("#score-chart").get_attribute("aria-label")
    assert f"{summary['score'][0]} to {summary['score'][1]}" in label


@pytest.mark.parametrize("variant", ["paulista", "argentino"])
def test_cards_have_faces_and_say_what_they_are(page, live_server, variant):
    """The replay's cards are drawn faces (the French deck, the Spanish one), each an image
    whose label names the card, its text still there for screen readers."""
    cup = create_tournament(
        name="Faces",
        variant=variant,
        format="round-robin",
        bots=bots_named(["random"] * 2),
        games_per_match=1,
        seed=4,
        seeding="order",
    )
    run_in_process(cup)
    game = Game.objects.filter(match__tournament=cup).first()
    page.goto(f"{live_server.url}/games/{game.pk}/replay/")
    page.wait_for_selector("#board .card.has-face")
    cards = page.locator("#board .seat .card.has-face")
    assert cards.count() == 6  # the game is over: both seats' three cards shown face up
    words = {"c": "clubs", "h": "hearts", "s": "spades", "d": "diamonds"}
    if variant == "argentino":
        words = {"e": "espadas", "b": "bastos", "o": "oros", "c": "copas"}
    for k in range(cards.count()):
        tile = cards.nth(k)
        code = tile.get_attribute("data-card")
        assert tile.get_attribute("role") == "img"
        assert tile.get_attribute("aria-label") == f"{code[:-1]} of {words[code[-1]]}"
        assert tile.locator("svg.card-face").count() == 1
        box = tile.locator("svg.card-face").bounding_box()
        assert box["width"] > 20 and box["height"] > box["width"]  # drawn, card-shaped


def test_the_play_table_shows_card_faces(page, live_server, settings):
    """At a table (play.js takes Arena.card, which card_faces.js wraps): the cards one may play
    are faces, buttons named by the card."""
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
    page.wait_for_selector("#board .card.has-face svg.card-face")
    faces = page.locator("#board .card.has-face")
    suits = {"c": "clubs", "h": "hearts", "s": "spades", "d": "diamonds"}
    for k in range(faces.count()):
        code = faces.nth(k).get_attribute("data-card")
        assert faces.nth(k).get_attribute("aria-label") == f"{code[:-1]} of {suits[code[-1]]}"
