"""The search bot: it sees only its observation, keeps its budget, and plays sound moves."""

from __future__ import annotations

import random
import time

from bots.mcts import MctsBot
from engine.deals import Deal
from engine.plugins import get_variant
from tests.support import act, start


def bot_for(state, seed=0, **params):
    params.setdefault("time_ms", None)
    params.setdefault("iterations", 200)
    obs = state.observation(state.to_act)
    return MctsBot(
        variant=obs.variant,
        options=obs.options,
        seat=obs.seat,
        players=obs.players,
        rng=random.Random(seed),
        **params,
    )


def choose(state, seed=0, **params):
    bot = bot_for(state, seed, **params)
    return bot.act(state.observation(state.to_act)), bot


def test_mcts_decisions_depend_only_on_what_the_seat_observes():
    """Two games that differ only in the opponent's unseen cards look the same to seat 1, so
    the search (same seed) makes the same choice: hidden cards cannot leak into it."""
    one = act(start("paulista", [(["Kd 5s 6h", "3s 2h Qc"], "3d")]), "0 play Kd")
    other = act(start("paulista", [(["Kd 4c 7h", "3s 2h Qc"], "3d")]), "0 play Kd")
    assert one.observation(1) == other.observation(1)
    assert choose(one, seed=3)[0] == choose(other, seed=3)[0]


def test_mcts_is_reproducible_from_its_seed_with_an_iteration_budget():
    state = start("paulista", [(["Kd 5s 6h", "3s 2h Qc"], "3d")])
    for params in ({}, {"noise": 0.3}):
        first = [choose(state, seed=s, **params)[0] for s in range(3)]
        again = [choose(state, seed=s, **params)[0] for s in range(3)]
        assert first == again


def test_mcts_keeps_its_time_budget():
    state = start("argentino", [(["7e 1e 12c", "4o 5c 12b"], None)], players=2)
    started = time.perf_counter()
    action, bot = choose(state, time_ms=40, iterations=None)
    elapsed = time.perf_counter() - started
    assert action in state.legal_actions()
    assert bot.last_iterations > 10  # it did search
    assert elapsed < 0.2  # 40 ms asked; generous for a loaded machine


def test_mcts_never_runs_from_a_bet_it_cannot_lose():
    """Third trick: the bot holds the zap and the opponent called truco; accepting or raising
    wins more, running gives points away."""
    state = start("paulista", [(["5c 6h 4c", "7s 5h Qc"], "3d")], first_dealer=1)
    state = act(state, "0 play 6h", "1 play 5h", "0 play 5c", "1 play 7s", "1 truco")
    assert state.to_act == 0 and "refuse" in state.legal_actions()
    action, _ = choose(state)
    assert action in ("accept", "truco")


def test_mcts_takes_the_trick_that_wins_the_hand():
    """One trick each; the opponent leads a 7 to the last trick: the zap wins the hand, and
    covering it would lose it."""
    state = start("paulista", [(["Qs 3h 7d", "2c 4c 5d"], "3d")])
    state = act(state, "0 play Qs", "1 play 2c", "1 play 5d", "0 play 3h", "0 play 7d")
    assert state.to_act == 1 and state.results == (1, 0)
    assert "cover 4c" in state.legal_actions()
    action, _ = choose(state)
    assert action in ("play 4c", "truco")


def test_mcts_falls_back_to_the_heuristic_where_no_world_can_be_sampled():
    """Mineiro with lots: once the mão has burned a lot, the sampler cannot rebuild the stock
    it saw, and the bot still answers a legal action."""
    variant = get_variant("mineiro")
    deck = list(variant.rules(preset="mineiro-pagat-full").deck)
    hands = (tuple(deck[0:3]), tuple(deck[3:6]))
    deal = Deal(hands, None, tuple(deck[6:15]))
    state = variant.new_game(2, preset="mineiro-pagat-full", deals=[deal], first_dealer=1)
    assert state.phase == "lots"
    state = state.apply("burn")
    action, bot = choose(state)
    assert action in state.legal_actions()
