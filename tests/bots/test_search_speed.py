"""The search's shortcuts for speed compute what the plain code computes: the remembered chance
to win a hand is the computed one, a search makes the same walks whether the chances are
remembered or computed afresh, a lone legal action is what the policy would answer, and the
worlds drawn for a revealed envido hold its points."""

from __future__ import annotations

import random

import pytest

import bots.heuristic as heuristic
from bots.expert import ExpertBot
from bots.heuristic import HeuristicPolicy
from bots.knowledge import rules_for
from bots.worlds import WorldSampler, revealed_constraints
from engine.plugins import get_variant


def decisions(name: str, players: int, games: int = 3, every: int = 3):
    """Observations of seats with a choice to make, every `every`-th, in heuristic self-play."""
    policy = HeuristicPolicy()
    rng = random.Random(11)
    found = []
    count = 0
    for seed in range(games):
        state = get_variant(name).new_game(players, seed=seed)
        while not state.is_over and state.phase != "deal":
            obs = state.observation(state.to_act)
            if len(obs.legal) > 1:
                count += 1
                if count % every == 0:
                    found.append(obs)
            state = state.apply(policy.decide(obs, rng))
    return found


class Recording(ExpertBot):
    """`expert` noting the value of every walk, in order."""

    def _walk(self, *args, **kwargs):
        value = super()._walk(*args, **kwargs)
        self.walk_values.append(value)
        return value


def searched(obs, seed: int) -> tuple[str, list[float]]:
    bot = Recording(
        variant=obs.variant,
        options=obs.options,
        seat=obs.seat,
        players=obs.players,
        rng=random.Random(seed),
        iterations=120,
        time_ms=None,
    )
    bot.walk_values = []
    return bot.act(obs), bot.walk_values


CASES = [("paulista", 2), ("paulista", 4), ("argentino", 2), ("mineiro", 4)]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_the_remembered_chance_is_the_computed_one(name, players):
    policy = HeuristicPolicy()
    for obs in decisions(name, players):
        rules = rules_for(obs)
        computed = HeuristicPolicy._chance(obs, rules)
        assert policy.chance(obs, rules) == computed
        assert policy.chance(obs, rules) == computed  # now from memory


@pytest.mark.parametrize(("name", "players"), CASES)
def test_a_search_walks_the_same_with_chances_remembered_or_computed_afresh(name, players):
    for i, obs in enumerate(decisions(name, players, games=1, every=4)[:4]):
        heuristic._CHANCES.clear()
        cold = searched(obs, seed=i)
        warm = searched(obs, seed=i)  # the memory now holds this search's chances
        assert cold == warm


def test_a_lone_legal_action_is_the_policys_answer_and_draws_nothing():
    """The search's walks take a seat's lone legal action without asking the policy (nor
    building the seat's observation): the policy answers it as it is, drawing no number."""
    lone = [
        obs
        for name, players in CASES
        for obs in _all_decisions(name, players)
        if len(obs.legal) == 1
    ]
    assert lone
    for obs in lone:
        rng = random.Random(3)
        before = rng.getstate()
        assert HeuristicPolicy().decide(obs, rng) == obs.legal[0]
        assert rng.getstate() == before


def _all_decisions(name, players):
    policy = HeuristicPolicy()
    rng = random.Random(5)
    state = get_variant(name).new_game(players, seed=1)
    while not state.is_over and state.phase != "deal":
        obs = state.observation(state.to_act)
        yield obs
        state = state.apply(policy.decide(obs, rng))


def test_worlds_drawn_after_a_revealed_envido_hold_its_points():
    side_bets = get_variant("argentino").side_bets
    shown = [
        obs
        for obs in decisions("argentino", 2, games=12, every=1)
        if obs.extra.get("revealed") and obs.extra["revealed"].get("envido")
    ]
    assert shown
    rng = random.Random(2)
    for obs in shown[:10]:
        envido = obs.extra["revealed"]["envido"]
        assert revealed_constraints(obs, obs.players)
        sampler = WorldSampler(obs)
        for _ in range(3):
            world = sampler.sample(rng)
            if world is None:
                continue
            assert side_bets.points(world.dealt[envido["seat"]]) == envido["points"]
