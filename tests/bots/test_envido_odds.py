"""The chance our envido points beat a side that accepts our envido, by how often it refuses."""

from __future__ import annotations

import pytest

from bots.envido_odds import beats_accepter, points_spread


def test_the_spread_of_envido_points_covers_every_hand_once():
    for seats in (1, 2):
        spread = points_spread("argentino", "spanish40", seats)
        assert sum(mass for _points, mass in spread) == pytest.approx(1.0)
        assert max(points for points, _mass in spread) == 33  # RULES: 7 + 6 + 20


def test_a_side_that_refuses_more_accepts_with_better_points():
    loose = beats_accepter(27, False, 0.2, "argentino", "spanish40")
    tight = beats_accepter(27, False, 0.8, "argentino", "spanish40")
    assert tight < loose


def test_thirty_three_for_the_mano_beats_any_accepter_and_no_pair_beats_few():
    assert beats_accepter(33, True, 0.9, "argentino", "spanish40") == pytest.approx(1.0)
    assert beats_accepter(7, False, 0.5, "argentino", "spanish40") == pytest.approx(0.0)


def test_partners_count_their_better_hand():
    alone = beats_accepter(27, False, 0.0, "argentino", "spanish40", seats=1)
    pair = beats_accepter(27, False, 0.0, "argentino", "spanish40", seats=2)
    assert pair < alone
