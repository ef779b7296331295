"""The `heuristic` bot's card play by sampled playouts (bots/playouts.py): what the rules
guarantee about a position, whatever the unseen cards."""

from __future__ import annotations

import random

from bots.heuristic import HeuristicBot, PlayoutPolicy
from bots.playouts import Playouts, unseen_cards
from tests.support import act, start

# Vira 3d: the manilhas are the 4s (4c zap > 4h > 4s > 4d), then 3 2 A K J Q 7 6 5.


def playouts(state):
    return Playouts(state.observation(state.to_act), state.rules)


def test_holding_the_zap_after_winning_the_first_trick_wins_every_playout_and_keeps_it():
    state = start("paulista", [(["3s 4c 5h", "2h 6s 7c"], "3d")])
    state = act(state, "0 play 3s", "1 play 2h")  # seat 0 takes the first trick
    outs = playouts(state)
    assert outs.chance(random.Random(1), 64, first="4c") == 1.0  # nothing beats the zap
    assert outs.chance(random.Random(1), 64, first="5h") == 1.0  # the zap takes the third
    # Equally sure, the weaker card goes first and the zap stays hidden.
    assert outs.best_card(random.Random(1), 64) == "5h"


def test_a_seat_that_lost_the_first_trick_takes_the_second_with_the_card_that_keeps_the_zap():
    """Seat 0 took the first trick and leads the 5h. Seat 1's 2 takes the trick and its zap
    the last one: the hand is sure. Spending the zap now leaves the 2 to the last trick, which
    a 3 or a manilha still unseen beats."""
    state = start("paulista", [(["3s 5h Qc", "Ks 2h 4c"], "3d")])
    state = act(state, "0 play 3s", "1 play Ks", "0 play 5h")
    outs = playouts(state)
    assert outs.chance(random.Random(2), 64, first="2h") == 1.0
    assert outs.chance(random.Random(2), 64, first="4c") < 1.0
    assert outs.best_card(random.Random(2), 64) == "2h"


def test_a_hand_lost_to_the_last_card_on_the_trick_is_lost_in_every_playout():
    state = start("paulista", [(["5h 6c 7s", "4c 3s 2h"], "3d")])
    state = act(state, "0 play 5h", "1 play 3s", "1 play 4c")  # seat 1 has a trick, leads the zap
    assert playouts(state).chance(random.Random(3), 32) == 0.0


def test_the_playouts_deal_only_cards_the_seat_has_not_seen():
    state = start("paulista", [(["3s 4c 5h", "2h 6s 7c"], "3d")])
    state = act(state, "0 play 3s")
    obs = state.observation(1)
    pool = set(unseen_cards(obs, state.rules))
    assert not pool & {"2h", "6s", "7c", "3s", "3d"}  # its own, the one played, the vira
    assert "4c" in pool and "5h" in pool  # the other seat's cards are unseen by seat 1


def test_the_heuristic_bot_plays_its_cards_by_playouts_unless_told_not_to():
    common = dict(variant="paulista", options={}, seat=0, players=2, rng=random.Random(0))
    assert isinstance(HeuristicBot(**common).policy, PlayoutPolicy)
    assert not isinstance(HeuristicBot(**common, samples=0).policy, PlayoutPolicy)


def test_the_cards_are_compared_on_the_same_sampled_deals():
    """Each candidate card is played out against the same unseen cards, so a difference in
    their scores comes from the card, not from the luck of the draw."""
    state = start("paulista", [(["3s 5h Qc", "Ks 2h 4c"], "3d")])
    state = act(state, "0 play 3s")
    outs = playouts(state)
    deals: dict[str, list] = {}
    original = outs.play_out

    def recording(rng, first):
        deals.setdefault(first, []).append(list(outs.pool))
        return original(rng, first)

    outs.play_out = recording
    assert outs.best_card(random.Random(4), 16) is not None
    first, *others = deals.values()
    assert len(deals) == 3 and len(first) == 16
    assert all(other == first for other in others)
