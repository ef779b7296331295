"""The strongest built-in bot (`expert`) and the heuristic's opponent profile: legal play to a
normal end everywhere, reproducible from the seed, a search that stops when its time is up, a
clear win over `random`, and a profile that changes play as the match teaches it."""

from __future__ import annotations

import random

import pytest

import bots.expert
import bots.mcts
from bots.expert import ExpertBot, WarModel
from bots.heuristic import HeuristicPolicy, Thresholds
from bots.model_choice import ModelEvidence
from bots.profile import OpponentProfile
from engine.bot import Bot
from engine.match import MatchSpec, play_match
from engine.observation import Observation
from engine.plugins import registry
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


def bot_for(obs, players=2, **params):
    return ExpertBot(
        variant=obs.variant,
        options=obs.options,
        seat=obs.seat,
        players=players,
        rng=random.Random(1),
        **{**FAST, **params},
    )


def test_a_bold_bet_counts_as_far_as_this_opponents_bets_held():
    """A decision bolder than the model's is trusted fully (its belief weight as it is) from a
    side whose bets held as often as a typical bettor's, hardly at all from one whose bets
    failed."""
    from bots.expert import bold_weight, bolder

    assert bolder("play 4c", "truco") and bolder("refuse", "accept") and bolder("accept", "truco")
    assert not bolder("truco", "play 4c") and not bolder("accept", "refuse")
    assert not bolder("play 4c", "play 5d") and not bolder("truco", "truco")
    assert bold_weight(0.3, held=0.65, typical=0.65) == pytest.approx(0.3)
    assert bold_weight(0.3, held=0.9, typical=0.65) == pytest.approx(0.3)  # never more than full
    assert bold_weight(0.3, held=0.2, typical=0.65) > 0.75
    assert bold_weight(0.3, held=0.0, typical=0.65) == 1.0


def called_truco_that_failed(my_team: int) -> dict:
    """A finished hand in which their truco, accepted, lost."""
    them = 1 - my_team
    points = [0, 0]
    points[my_team] = 2
    history = [[them, "truco"], [my_team, "accept"], [them, "play 4d"]]
    return {"hand_no": 0, "history": history, "points": points}


def test_the_beliefs_trust_a_truco_less_from_a_side_whose_trucos_failed():
    before = start("paulista", [(["4d 5s 6h", "5c 6c 7d"], "Kd")])
    state = before  # the judge sees the state in which the truco was called
    obs = act(before, "0 truco").observation(1)
    trusting, doubting = bot_for(obs, bold=True), bot_for(obs, bold=True)
    for k in range(20):
        doubting.profile.learn(1, called_truco_that_failed(1), key=k)
    assert doubting.profile.called_win.value < 0.2

    def weight(bot):
        return bot.belief()(state, 0, "truco", random.Random(2))  # the same draw: no bluff

    # In the world where seat 0 holds nothing, the fitted model would not have called.
    assert weight(trusting) < 0.5
    assert weight(doubting) > 0.8
    assert weight(bot_for(obs, bold=False)) < 0.5


def raise_war(my_team: int, last: str) -> dict:
    """Their truco, raised by us, answered `last`."""
    them = 1 - my_team
    history = [[them, "truco"], [my_team, "truco"], [them, last]]
    if last == "truco":
        history += [[my_team, "accept"], [them, "play 4c"]]
    return {"hand_no": 0, "history": history, "points": [0, 6] if my_team == 0 else [6, 0]}


def test_the_profile_counts_how_their_raise_wars_went():
    profile = OpponentProfile()
    prior = profile.war.raise_back.value
    for k in range(10):
        profile.learn(0, raise_war(0, "truco"), key=k)
    assert profile.war.raise_back.total == 10
    assert profile.war.raise_back.value > 0.7 > prior
    assert profile.war.held.value > 0.8  # the wars went on to the end and they won them
    for k in range(10, 30):
        profile.learn(0, raise_war(0, "refuse"), key=k)
    assert profile.war.raise_back.value < 0.5
    assert profile.reraise_fold.value > 0.5
    assert profile.war.held.total == 10  # a war someone ran from was not played out


def test_the_war_model_answers_as_this_opponent_did():
    """In the walks (1 vs 1), the other side runs from our trucos as often as it was seen to,
    its weakest hands first, and raises back as often, its strongest first."""
    from bots.expert import WarModel

    state = act(start("paulista", [(["5c 6h 7d", "4d 5s 6h"], "Kd")]), "0 truco")
    weak = state.observation(1)
    strong_state = act(start("paulista", [(["5c 6h 7d", "4c 4h 3s"], "3d")]), "0 truco")
    strong = strong_state.observation(1)
    runner, raiser = OpponentProfile(), OpponentProfile()
    for k in range(40):
        runner.learn(0, hand_where_they_ran(0), key=k)
        raiser.learn(0, {"hand_no": 0, "history": [[0, "truco"], [1, "truco"]]}, key=k)
    rng = random.Random(0)
    assert WarModel(Thresholds(), runner).decide(weak, rng) == "refuse"
    assert WarModel(Thresholds(), raiser).decide(strong, rng) == "truco"
    assert WarModel(Thresholds(), raiser).decide(weak, rng) != "truco"


def test_bold_weights_and_the_war_model_are_for_1_vs_1_only():
    """Both measured worse with 4 players: there the expert keeps its plain model and
    beliefs even when they are asked for."""
    from bots.expert import WarModel

    state = start("paulista", [(["4d 5s 6h", "5c 6c 7d"], "Kd")])
    obs = state.observation(0)
    on = {"bold": True, "war": True}
    duel, table = bot_for(obs, players=2, **on), bot_for(obs, players=4, **on)
    assert duel.bold and duel.war and isinstance(duel.opponent_policy(), WarModel)
    assert not table.bold and not table.war
    assert not isinstance(table.opponent_policy(), WarModel)
    default = bot_for(obs, players=2)  # off unless asked for: they measured no better
    assert not default.bold and not default.war
    assert not isinstance(default.opponent_policy(), WarModel)


def test_expert_plays_the_envido_by_expected_value_by_default():
    obs = start("argentino", [(["7e 6e 12c", "4o 5c 12b"], None)]).observation(0)
    assert bot_for(obs).adaptive.envido_ev
    assert not bot_for(obs, envido_ev=False).adaptive.envido_ev


def test_a_sound_bettors_bets_weigh_the_worlds_it_would_not_have_bet_in_less():
    """A side whose bets of a kind held more often than a typical bettor's bets on the cards
    the model would bet on: a world that gives it other cards shrinks with its failures."""
    from bots.expert import sound_weight

    assert sound_weight(0.45, held=0.75, typical=0.75) == pytest.approx(0.45)
    assert sound_weight(0.45, held=0.5, typical=0.75) == pytest.approx(0.45)  # bold's business
    assert sound_weight(0.45, held=0.95, typical=0.75) == pytest.approx(0.45 * 0.2)
    assert sound_weight(0.45, held=1.0, typical=0.75) > 0  # never ruled out
    assert sound_weight(0.45, held=0.95, typical=0.75) < sound_weight(0.45, 0.85, 0.75) < 0.45


def their_raise(my_hand: str = "5c 6h 7d") -> Observation:
    """Seat 0 called truco and seat 1 raised it: seat 0 answers."""
    state = act(start("paulista", [([my_hand, "4d 5s 6h"], "Kd")]), "0 truco", "1 truco")
    return state.observation(0)


def test_a_raise_of_theirs_is_answered_by_the_adaptive_heuristic_not_the_search(monkeypatch):
    """In the walks the other side answers a raise as the heuristic does (it reads a raise as
    strength and runs); a side that raises on its own cards alone takes it: against a side
    whose raises held, raise wars are the adaptive heuristic's, whose answers are calibrated
    by how this side's raises ended."""
    obs = their_raise()
    searched = []
    monkeypatch.setattr(ExpertBot, "search", lambda self, o, base, **kw: searched.append(kw))
    bot = raised_by_a_sound_raiser(bot_for(obs))
    assert bot.act(obs) in ("accept", "refuse", "truco")
    assert searched == []
    # the option that searches them, and a side whose raises held no more than a typical one's
    raised_by_a_sound_raiser(bot_for(obs, search_raises=True)).act(obs)
    bot_for(obs).act(obs)
    assert len(searched) == 2


def raised_by_a_sound_raiser(bot: ExpertBot) -> ExpertBot:
    """The bot, having taken five raises of the other side over its trucos and lost them all."""
    me = bot.seat % 2
    for k in range(5):
        history = [[me, "truco"], [1 - me, "truco"], [me, "accept"]]
        points = [0, 0]
        points[1 - me] = 6
        bot.profile.learn(me, {"hand_no": k, "history": history, "points": points}, key=k)
    assert bot.raises_hold()
    return bot


def test_raise_wars_are_left_to_the_heuristic_only_against_a_side_whose_raises_held():
    obs = their_raise()
    assert not bot_for(obs).raises_hold()  # nothing seen yet: the search answers
    assert raised_by_a_sound_raiser(bot_for(obs)).raises_hold()


def test_a_raise_of_ours_once_they_bet_is_not_searched(monkeypatch):
    """Once a side whose raises held has bet in the hand, the search chooses the card, not a
    raise of ours: unless the adaptive heuristic would raise, truco is left out of the
    candidates."""
    state = act(start("paulista", [(["5c 6h 7d", "4d 5s 6h"], "Kd")]), "0 truco", "1 accept")
    state = act(state, "0 play 5c")
    obs = state.observation(1)
    assert "truco" in obs.legal
    seen = []
    monkeypatch.setattr(
        ExpertBot, "search", lambda self, o, base, exclude=(), **kw: seen.append((base, exclude))
    )
    raised_by_a_sound_raiser(bot_for(obs)).act(obs)
    ((base, exclude),) = seen
    assert base == "truco" or "truco" in exclude


def test_the_answers_the_heuristic_gives_are_noted_for_its_calibration():
    """An acceptance of theirs is set against how the hand ended (as `heuristic` does): a side
    whose raises always held is believed less at the next one."""
    obs = their_raise()
    bot = bot_for(obs)
    bot.adaptive.last_belief = ("raise", 0.6)
    assert bot.answered(obs, "accept") == "accept"
    assert bot.answered(obs, "refuse") == "refuse"
    assert [(kind, believed) for _key, kind, believed in bot.profile.accepted] == [("raise", 0.6)]
    before = bot.profile.calibration("raise").apply(0.6)
    lost = {
        "hand_no": obs.hand_no,
        "history": [[0, "truco"], [1, "truco"], [0, "accept"]],
        "points": [0, 6],
    }
    bot.profile.learn(0, lost, key=(bot.game_no, obs.hand_no))
    assert bot.profile.calibration("raise").apply(0.6) < before


def test_expert_keeps_a_profile_of_its_own_play_as_the_other_side_sees_it():
    """At each hand's end the bot counts the hand twice: what the other side did (its profile
    of them) and what it did itself, as a player across the table would count it (the mirror
    profile of its model of them)."""
    deals = [(["4c 4h 3s", "4d 5s 6h"], "Kd"), (["5c 6h 7d", "4d 5s 6c"], "Kd")]
    state = act(start("paulista", deals), "0 truco", "1 refuse")
    obs = state.observation(0)
    assert obs.previous_hand and obs.previous_hand["history"]
    bot = bot_for(obs)
    bot.on_hand_end(obs)
    assert bot.profile.refuse_rate.hits == 1  # they ran from our truco
    assert bot.seen_by_them.truco_rate.hits == 1  # seen from there: we opened a truco
    assert bot.seen_by_them.refuse_rate.total == 0  # they bet nothing we could answer
    bot.on_game_end(obs)  # the game's end repeats the last hand: not counted again
    assert bot.seen_by_them.truco_rate.total == 1


def test_the_model_of_the_other_side_adapts_to_our_play_as_the_heuristic_does():
    """In the walks the other side is the adaptive heuristic holding the mirror profile: once
    we have called truco in every hand, it takes a truco on cards it ran from at first (a side
    that bets every hand says little with each bet), as `heuristic` itself would."""
    state = act(start("paulista", [(["5c 6h 7d", "Ks 5s 6h"], "2d")]), "0 truco")
    theirs = state.observation(1)
    bot = bot_for(theirs)
    rng = random.Random(0)
    assert bot.opponent_policy().decide(theirs, rng) == "refuse"
    bettor_hand = {"hand_no": 0, "history": [[0, "truco"], [1, "refuse"]], "points": [1, 0]}
    for k in range(40):
        bot.seen_by_them.learn(1, bettor_hand, key=k)
    assert bot.seen_by_them.truco_rate.value > 0.8
    assert bot.opponent_policy().decide(theirs, rng) == "accept"


def test_mirror_false_keeps_the_model_fitted_to_their_rates():
    state = start("paulista", [(["4d 5s 6h", "5c 6c 7d"], "Kd")])
    obs = state.observation(0)
    fitted = bot_for(obs, mirror=False).opponent_policy()
    assert fitted.profile is None  # thresholds moved, no profile of its own
    assert bot_for(obs).opponent_policy().profile is not None


def test_the_search_plans_against_the_model_that_predicted_their_play_best():
    """`choose=true`: the model of the other side is the one whose predictions of its decisions
    this match were clearly the likeliest (bots/model_choice.py); until then, and by default,
    the mirror model."""
    obs = start("paulista", [(["4d 5s 6h", "5c 6c 7d"], "Kd")]).observation(0)
    bot = bot_for(obs, choose=True)
    assert bot.opponent_policy() is bot.mirrored
    bot.evidence.log.update(mirror=-20.0, fitted=-17.0, war=-30.0)  # ahead, not by the margin
    assert bot.opponent_policy() is bot.mirrored
    bot.evidence.log.update(fitted=-12.0)
    assert bot.opponent_policy() is bot.fitted_policy(war=False)
    bot.evidence.log.update(war=-5.0)
    assert isinstance(bot.opponent_policy(), WarModel)
    unchosen = bot_for(obs)  # off by default
    unchosen.evidence.log.update(mirror=-20.0, fitted=-5.0)
    assert unchosen.opponent_policy() is unchosen.mirrored


class FirstLegal(Bot):
    """Always the first legal action: a side whose every decision a model can foresee."""

    def act(self, observation):
        return observation.legal[0]


def test_each_finished_hand_scores_the_models_by_their_predictions_of_the_other_side(monkeypatch):
    """At each hand's end the other side's decisions of the hand (bets, answers, cards played
    where a bet was legal) are scored under each model in worlds consistent with the hand: a
    model that foresees every decision keeps a likelihood of 1, one that gets them wrong
    loses."""
    monkeypatch.setitem(registry().bots, "first-legal", FirstLegal)
    logs = []
    original = ModelEvidence.score_hand

    def score_hand(self, seen, history, start, models, weight, rng):
        test_models = {
            "foresees": lambda obs, rng, rules: obs.legal[0],
            "mistakes": lambda obs, rng, rules: obs.legal[-1],
        }
        evidence = ModelEvidence(test_models)
        if original(evidence, seen, history, start, test_models, weight, random.Random(0)):
            logs.append(evidence.log)
        return original(self, seen, history, start, models, weight, rng)

    monkeypatch.setattr(ModelEvidence, "score_hand", score_hand)
    spec = MatchSpec("paulista", expert(choose=True), "first-legal", games=2, seed=3)
    assert [g.result.termination for g in play_match(spec).games] == ["normal", "normal"]
    assert logs  # hands where the other side bet, answered or played where it could bet
    assert all(log["foresees"] == 0.0 for log in logs)
    assert sum(log["mistakes"] for log in logs) < -1.0


def test_a_truco_called_every_time_they_take_the_first_trick_weighs_no_world_down():
    """The beliefs: a truco the other side calls nearly every time it takes the first trick
    keeps every world's weight (weak hands as likely as strong ones), where an ordinary truco
    makes a world whose cards the model would not bet on less likely."""
    state = start("paulista", [(["4h 3s 5c", "2d 6s 7h"], "Kd")])
    state = act(state, "0 play 4h", "1 play 2d")  # they took the first trick, holding 6s 7h
    bot = bot_for(state.observation(0))
    judge = bot.belief()
    assert judge(state, 1, "truco", random.Random(0)) < 1.0
    bot.profile.truco_after_first.hits = bot.profile.truco_after_first.total = 20.0
    assert judge(state, 1, "truco", random.Random(0)) == 1.0


def their_truco_after_taking_the_first_trick() -> Observation:
    """Seat 1 took the first trick and called truco; seat 0, holding 3s 5c, answers."""
    state = start("paulista", [(["4h 3s 5c", "2d 6s 7h"], "Kd")])
    state = act(state, "0 play 4h", "1 play 2d", "1 truco")
    return state.observation(0)


def test_a_truco_the_search_runs_from_is_now_and_then_taken_to_learn_how_they_hold(monkeypatch):
    """A side that is always believed is never tested: until a few of its trucos were taken
    and played out, one truco in `EXPLORE_SHARE` that the search would run from is taken
    instead; then never again."""
    obs = their_truco_after_taking_the_first_trick()
    monkeypatch.setattr(ExpertBot, "search", lambda self, o, base, **kw: "refuse")
    bot = bot_for(obs)
    answers = [bot.act(obs) for _ in range(60)]
    assert {"accept", "refuse"} == set(answers)
    assert 5 < answers.count("accept") < 30
    bot.profile.called_win.total = float(bots.expert.EXPLORE_UNTIL)
    assert {bot.act(obs) for _ in range(30)} == {"refuse"}
    assert {bot_for(obs, explore=False).act(obs) for _ in range(30)} == {"refuse"}


def test_a_raise_the_heuristic_makes_because_they_run_from_raises_is_not_searched(monkeypatch):
    """The walks answer a raise as the model of the other side would, by its cards; a side
    that ran from our raises nine times in ten is raised back as `heuristic` raises it."""
    obs = their_truco_after_taking_the_first_trick()
    monkeypatch.setattr(ExpertBot, "search", lambda self, o, base, **kw: "refuse")

    def facing_a_side_that_ran(folds: float, **params) -> ExpertBot:
        bot = bot_for(obs, **params)
        p = bot.profile
        p.called_win.total = float(bots.expert.EXPLORE_UNTIL)  # nothing left to explore
        p.reraise_fold.total, p.reraise_fold.hits = 20.0, 20.0 * folds
        return bot

    runner = facing_a_side_that_ran(0.95)
    assert [runner.act(obs) for _ in range(40)].count("truco") > 20
    searched = facing_a_side_that_ran(0.95, trust_raise=False)
    assert {searched.act(obs) for _ in range(20)} == {"refuse"}
    never_ran = facing_a_side_that_ran(0.0)  # the heuristic does not raise: the search decides
    assert {never_ran.act(obs) for _ in range(20)} == {"refuse"}


def test_a_truco_of_ours_is_searched_after_an_answer_that_raised_back(monkeypatch):
    """The heuristic's note that it raised because they run is about that answer only: a
    truco it proposes at the next decision is searched as any other."""
    state = start("paulista", [(["4h 3s 5c", "2d 6s 7h"], "Kd")])
    state = act(state, "0 play 4h", "1 play 2d", "1 play 6s")
    obs = state.observation(0)
    assert "truco" in obs.legal and "accept" not in obs.legal
    searched = []
    monkeypatch.setattr(
        ExpertBot, "search", lambda self, o, base, **kw: searched.append(base) or "play 3s"
    )
    bot = bot_for(obs)
    bot.adaptive.raised_back = True  # left from an earlier answer
    monkeypatch.setattr(type(bot.adaptive), "_decide", lambda self, *a: "truco")
    assert bot.act(obs) == "play 3s"
    assert searched == ["truco"]
