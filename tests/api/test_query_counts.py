"""Every list and page is built in a number of queries that does not grow with the number of
entrants (or of rows): measured with 4 entrants, asserted with 32."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from players.models import Rating
from tests.factories import GameFactory, finish, started_bots_tournament
from tournaments import scheduling
from tournaments.models import Match

pytestmark = pytest.mark.django_db


def built(entrants: int, fmt: str, name: str):
    """A started tournament whose first round is played: results, a game each, ratings."""
    tournament = started_bots_tournament(name, fmt, entrants)
    for match in Match.objects.filter(tournament=tournament, entrant_b__isnull=False):
        finish(match, wins=(1, 0), points=(12, 5))
        GameFactory(match=match, index=0, seed=match.pk)
    for entrant in tournament.entrants.select_related("bot"):
        Rating.objects.get_or_create(
            player=entrant.bot.player, variant="paulista", defaults={"mu": 25.0, "sigma": 8.0}
        )
    scheduling.advance(tournament.pk)
    return tournament


ENDPOINTS = [
    "/api/tournaments/{id}/",
    "/api/tournaments/{id}/standings/",
    "/api/tournaments/{id}/bracket/",
    "/api/tournaments/{id}/bracket/?limit=5&offset=5",
    "/api/entrants/?tournament={id}",
    "/api/matches/?tournament={id}",
    "/api/rounds/?tournament={id}",
    "/api/games/?tournament={id}",
    "/api/tournaments/",
    "/api/ratings/?variant=paulista",
    "/api/players/",
    "/api/bots/",
    "/",
    "/tournaments/{id}/",
    "/tournaments/{id}/?standings_page=2&entrants_page=2&matches_page=2",
]


@pytest.mark.parametrize("fmt", ["single-elimination", "swiss"])
def test_query_counts_do_not_grow_with_entrants(api, django_assert_num_queries, fmt):
    small = built(4, fmt, "small")
    counts = {}
    for url in ENDPOINTS:
        with CaptureQueriesContext(connection) as queries:
            assert api.get(url.format(id=small.pk)).status_code == 200, url
        counts[url] = len(queries)
    big = built(32, fmt, "big")
    for url in ENDPOINTS:
        with django_assert_num_queries(counts[url]):
            assert api.get(url.format(id=big.pk)).status_code == 200, url
