"""A competitive game's pay, in the statements of tables/settlement.py (its SettledGame row
inserted ON CONFLICT DO NOTHING, ranking points in one upsert), on the default test database
(SQLite): paid once a game, never twice, winners and losers their points."""

from __future__ import annotations

import pytest

from tables.models import SettledGame, Wallet, settings_of
from tables.quick import quick_match
from tables.ranking import LOSS_POINTS, WIN_POINTS
from tables.services import open_match
from tables.settlement import settle_game
from tests.factories import UserFactory
from tests.play.tables import table_now

pytestmark = pytest.mark.django_db


def test_a_game_is_paid_once_with_its_ranking_points():
    user = UserFactory()
    match = quick_match(user, variant="paulista", bot="heuristic", games=1, competitive=True)
    open_match(match.pk, user, "10.0.0.1")
    table = table_now(match.pk)
    settings = settings_of(match.tournament)
    player = user.player.pk
    seat = table.seats_of(player)[0]
    paid = settle_game(match.pk, 7, settings, table.seats, seat % 2)
    assert paid is not None and paid.pk and paid.ranked
    assert settle_game(match.pk, 7, settings, table.seats, seat % 2) is None  # once
    assert SettledGame.objects.filter(match=match, index=7).count() == 1
    assert Wallet.objects.get(player_id=player).ranking_points == WIN_POINTS
    settle_game(match.pk, 8, settings, table.seats, 1 - seat % 2)
    assert Wallet.objects.get(player_id=player).ranking_points == WIN_POINTS + LOSS_POINTS
