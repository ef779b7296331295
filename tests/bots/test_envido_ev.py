"""The envido played by expected value (bots/envido_ev.py): the other side's points conditioned on
what the seat sees, and every call, raise, acceptance and refusal weighed by the chance to win
the game it leads to."""

from __future__ import annotations

import random
from math import comb

import pytest

from bots import envido_ev
from bots.expert import ExpertBot
from bots.heuristic import HeuristicPolicy
from bots.profile import OpponentProfile
from tests.support import act, start

ENVIDOS = ("envido", "real_envido", "falta_envido")


def argentino(cards_mano, cards_other="4o 5c 12b", score=(0, 0), flor=False):
    options = {"flor": True} if flor else None
    return start(
        "argentino", [([cards_mano, cards_other], None)], start_score=score, options=options
    )


def policy(**rates):
    profile = OpponentProfile()
    for name, (hits, total) in rates.items():
        rate = getattr(profile, name)
        rate.hits, rate.total = float(hits), float(total)
    return HeuristicPolicy(profile=profile, envido_ev=True)


def decide(state, pol=None, seed=0):
    pol = pol or policy()
    return pol.decide(state.observation(state.to_act), random.Random(seed))


def spread_mean(state, pol=None):
    pol = pol or policy()
    spread = envido_ev.their_spread(state.observation(state.to_act), pol.profile)
    assert sum(w for _p, w in spread) == pytest.approx(1.0)
    return sum(p * w for p, w in spread)


def test_the_other_sides_hands_are_the_unseen_cards_holding_what_it_played_without_flor():
    bit, _hands = envido_ev._all_hands("argentino", "spanish40")
    everything = sum(bit.values())
    ours = bit["7e"] | bit["6e"] | bit["12c"]
    unseen = everything & ~ours
    counts = dict(envido_ev.hand_points("argentino", "spanish40", unseen, 0, False))
    assert sum(counts.values()) == comb(37, 3)
    # Holding a played 1 of oros: two more cards of the 36 others.
    held = bit["1o"]
    counts = dict(envido_ev.hand_points("argentino", "spanish40", unseen, held, False))
    assert sum(counts.values()) == comb(36, 2)
    # 33 with the 1 of oros: the 7 and 6 of bastos, of copas, or of oros (a flor); ours are
    # the 7 and 6 of espadas.
    no_flor = dict(envido_ev.hand_points("argentino", "spanish40", unseen, held, True))
    assert (counts[33], no_flor[33]) == (3, 2)
    oros_left = 9  # ten oros, the 1 held
    assert sum(no_flor.values()) == comb(36, 2) - comb(oros_left, 2)


def test_an_envido_call_makes_their_good_points_likelier_and_a_pass_their_poor_ones():
    # Seat 1 (not the mano) answers; the mano's moves this hand tell about its points.
    answering = act(argentino("4o 5c 12b", "7e 1e 12c"), "0 envido")
    quiet = act(argentino("4o 5c 12b", "7e 1e 12c"), "0 play 4o")
    opened = spread_mean(answering)
    passed = spread_mean(quiet)
    assert opened > passed + 3


def test_a_raise_of_our_envido_makes_their_good_points_likelier_than_an_acceptance():
    # Seat 0 (the mano) called the envido; seat 1 raised it, or accepted it.
    raised = act(argentino("4o 5c 12b", "7e 1e 12c"), "0 envido", "1 real_envido")
    assert raised.to_act == 0
    accepted = act(argentino("4o 5c 12b", "7e 1e 12c"), "0 play 4o", "1 envido", "0 envido")
    assert accepted.to_act == 1
    prior = envido_ev.their_spread(argentino("4o 5c 12b").observation(0), None)
    assert spread_mean(raised) > sum(p * w for p, w in prior) + 3


def test_the_mano_with_33_calls_and_never_refuses():
    """33 is the most envido points there are, and the mano wins ties: every accepted chain is
    won, so any call is worth more than none, and any envido chain is accepted or raised."""
    assert decide(argentino("7e 6e 12c")) in ENVIDOS
    for call in ENVIDOS:
        state = act(argentino("7e 6e 12c", "4o 5c 12b"), "0 play 12c", f"1 {call}")
        assert decide(state) in ("accept", *ENVIDOS)


def test_the_mano_with_33_accepts_a_falta_envido_even_for_the_game():
    state = act(argentino("7e 6e 12c", "4o 5c 12b"), "0 play 12c", "1 falta_envido")
    assert decide(state) == "accept"


def test_it_accepts_any_envido_when_refusing_gives_the_other_side_the_game():
    """At 29 to 28 in a game to 30, refusing their envido concedes a point, the game; accepting
    it keeps some chance, however poor our points."""
    state = act(argentino("4o 5c 12b", "1o 2c 4b", score=(29, 28)), "0 envido")
    assert state.to_act == 1
    assert decide(state) in ("accept", *ENVIDOS)


def test_it_refuses_a_falta_envido_for_the_game_with_points_that_rarely_win():
    """At 0 to 0 a falta envido is the game: 26 points against a side that called it lose more
    often than not, and refusing costs a point."""
    state = act(argentino("4o 5c 12b", "5e 1e 12c"), "0 falta_envido")
    assert decide(state) == "refuse"


def test_it_opens_poor_points_against_a_side_that_refuses_our_envidos_and_not_otherwise():
    state = argentino("4o 5c 12b")  # 5 points, three suits
    assert decide(state, policy(envido_refuse=(16, 20))) in ENVIDOS
    assert decide(state, policy(envido_refuse=(2, 20))) not in ENVIDOS


def test_flor_is_still_declared_and_the_envido_never_follows_it():
    state = argentino("1e 2e 3e", flor=True)
    assert decide(state) == "flor"


def test_expert_envido_by_expected_value_is_an_option():
    def made(**params):
        return ExpertBot(
            variant="argentino", options={}, seat=0, players=2, rng=random.Random(1), **params
        )

    assert made(envido_ev=True).adaptive.envido_ev
    assert not made(envido_ev=False).adaptive.envido_ev


def test_the_mano_with_33_does_not_call_a_falta_envido_worth_less_than_a_real_envido():
    """At 10 to 29 the falta envido is worth the 1 point the leader lacks (RULES: what the
    leading team lacks): won or refused, 1; a real envido refused is 1 and accepted 3, all ours
    with 33 as the mano."""
    state = argentino("7e 6e 12c", score=(10, 29))
    obs = state.observation(0)
    assert obs.bet_values["falta_envido"] == {"won": 1, "lost": 1, "refused": 1}
    assert decide(state) in ("envido", "real_envido")


def test_heuristic_plays_the_envido_by_expected_value_by_default():
    from bots.heuristic import HeuristicBot

    def made(players, **params):
        bot = HeuristicBot(
            variant="argentino", options={}, seat=0, players=players, rng=random.Random(1), **params
        )
        return bot.policy.envido_ev

    assert made(2) and made(4)
    assert not made(2, envido_ev=False) and not made(4, envido_ev=False)
