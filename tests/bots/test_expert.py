"""The strongest built-in bot (`expert`) and the heuristic's opponent profile: legal play to a
normal end everywhere, reproducible from the seed, a search that stops when its time is up, a
clear win over `random`, and a profile that changes play as the match teaches it."""

from __future__ import annotations

import random

import pytest

import bots.mcts
from bots.expert import ExpertBot
from bots.heuristic import HeuristicPolicy
from bots.profile import OpponentProfile
from engine.match import MatchSpec, play_match
from engine.runner import BotSpec
from engine.stats import mean_interval
from tests.support import act, start
from tests.test_conformance import CASES

FAST = {"iterations": 12, "time_ms": None}  # a fixed budget: fast and reproducible


def expert(**params):
    return BotSpec("expert", {**FAST, **params})


@pytest.mark.parametrize(("name", "players", "preset"), CASES)
def test_expert_plays_every_variant_to_a_normal_end(name, players, preset):
    spec = MatchSpec(name, expert(), "heuristic", players=players, preset=preset, games=2, seed=5)
    result = play_match(spec)
    assert [g.result.termination for g in result.games] == ["normal", "normal"]


def test_expert_is_reproducible_from_its_seed():
    def records(seed):
        spec = MatchSpec("argentino", expert(), "heuristic", games=2, seed=seed)
        return [g.result.record for g in play_match(spec).games]

    assert records(11) == records(11)


def test_expert_stops_searching_when_its_time_is_up(monkeypatch):
    """A clock that moves 1 ms per reading: with 30 ms per decision the search must stop after
    a few dozen walks, not run its (unlimited) iterations."""
    now = [0.0]

    def clock():
        now[0] += 0.001
        return now[0]

    monkeypatch.setattr(bots.mcts.time, "perf_counter", clock)
    state = start("paulista", [(["Kd 5s 6h", "3s 2h Qc"], "3d")])
    obs = state.observation(state.to_act)
    bot = ExpertBot(
        variant=obs.variant,
        options=obs.options,
        seat=obs.seat,
        players=obs.players,
        rng=random.Random(1),
        time_ms=30,
        iterations=None,
    )
    action = bot.act(obs)
    assert action in obs.legal
    assert bot.stopped
    assert 0 < bot.last_iterations < 200


def test_expert_beats_random():
    """Against random play the search wins nearly every pair; 30 pairs put the lower end of the
    interval far above an even score."""
    spec = MatchSpec("paulista", expert(iterations=30), "random", pairs=30, seed=3)
    games = play_match(spec).games
    pairs: dict[int, list[float]] = {}
    for g in games:
        pairs.setdefault(g.pair, []).append(1.0 if g.winner_side == "a" else 0.0)
    score = mean_interval([sum(v) / 2 for v in pairs.values()])
    assert score.low > 0.7


def weak_opening():
    # Seat 0 to lead with a poor hand: the heuristic calls truco with it only as a bluff.
    return start("paulista", [(["4d 5s 6h", "3s 2h Qc"], "Kd")])


def hand_where_they_ran(my_team: int) -> dict:
    """A finished hand in which our truco was refused."""
    me = my_team
    return {"hand_no": 0, "history": [[me, "truco"], [1 - me, "refuse"]], "points": [1, 0]}


def test_a_side_that_runs_from_every_truco_is_bluffed_more():
    state = weak_opening()
    obs = state.observation(0)
    learned = OpponentProfile()
    for k in range(30):
        learned.learn(0, hand_where_they_ran(0), key=k)
    assert learned.refuse_rate.value > 0.9

    def trucos(profile):
        policy = HeuristicPolicy(profile=profile)
        rng = random.Random(0)
        return sum(policy.decide(obs, rng) == "truco" for _ in range(400))

    assert trucos(learned) > 2 * trucos(OpponentProfile())


def test_the_profile_counts_a_hand_once():
    profile = OpponentProfile()
    for _ in range(3):
        profile.learn(0, hand_where_they_ran(0), key=("game 1", 0))
    assert profile.refuse_rate.total == 1


def test_beliefs_turn_down_the_worlds_the_judge_rules_out():
    """Seat 0 called truco; a judge that finds the call impossible with the zap (4c) in seat 0's
    hand keeps no such world while worlds without it can be drawn, and a judge that rules out
    nothing keeps them."""
    from bots.worlds import WorldSampler

    state = start("paulista", [(["5c 6h 7d", "Kd 5s 6s"], "3d")])
    state = act(state, "0 truco")
    obs = state.observation(1)
    seen = []

    def judge(world, seat, action, rng):
        seen.append((seat, action))
        return 0.0 if "4c" in world.dealt[0] else 1.0

    rng = random.Random(4)
    believing = WorldSampler(obs, judge=judge)
    worlds = [believing.sample(rng) for _ in range(60)]
    assert all(w is not None and "4c" not in w.dealt[0] for w in worlds)
    assert set(seen) == {(0, "truco")}  # only the other side's betting decisions are judged
    plain = WorldSampler(obs)
    assert any("4c" in plain.sample(rng).dealt[0] for _ in range(200))


def test_belief_weights_rank_decisions_by_how_far_they_are_from_the_model():
    from bots.expert import belief_weight

    assert belief_weight("truco", "truco") == belief_weight("play 4c", "play 5d") == 1.0
    assert belief_weight("accept", "refuse") < 1.0
    assert belief_weight("refuse", "truco") < belief_weight("accept", "truco") < 1.0
    assert belief_weight("play 4c", "truco") < belief_weight("truco", "play 4c") < 1.0


def test_expert_runs_from_a_truco_with_a_poor_hand_believing_the_bet():
    """The heuristic calls truco on strong cards; with nothing, the expert (whose model of the
    other side is that heuristic) runs."""
    state = act(start("paulista", [(["4c 4h 3s", "5c 6h 7d"], "3d")]), "0 truco")
    obs = state.observation(1)
    bot = ExpertBot(
        variant=obs.variant,
        options=obs.options,
        seat=1,
        players=2,
        rng=random.Random(1),
        iterations=300,
        time_ms=None,
    )
    assert bot.act(obs) == "refuse"
