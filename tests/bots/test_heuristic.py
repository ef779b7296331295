"""The heuristic bot follows the source documents' advice (seed 002) and the rules' stakes."""

from __future__ import annotations

import random

import pytest

from bots.heuristic import HeuristicPolicy
from engine.match import MatchSpec, play_match
from engine.plugins import get_variant
from tests.support import act, start

POLICY = HeuristicPolicy()


def decide(state, seed=0):
    return POLICY.decide(state.observation(state.to_act), random.Random(seed))


def decisions(state, tries=200):
    return [decide(state, seed) for seed in range(tries)]


def card_choice(state, seed=0):
    """Which card the bot plays (apart from whether it bets first)."""
    obs = state.observation(state.to_act)
    rules = state.rules
    return POLICY.play(obs, random.Random(seed), rules, obs.legal)


# Vira 3d: the manilhas are the 4s (4c zap > 4h > 4s > 4d), then 3 2 A K J Q 7 6 5.


def test_heuristic_wins_the_first_trick_with_the_cheapest_card_that_does():
    state = start("paulista", [(["Kd 5s 6h", "3s 2h Qc"], "3d")])
    state = act(state, "0 play Kd")
    assert card_choice(state) == "play 2h"  # 2 beats K; the 3 is kept back


def test_heuristic_throws_its_weakest_card_when_it_cannot_win_the_trick():
    state = start("paulista", [(["4c 5s 6h", "7s 2h Qc"], "3d")])
    state = act(state, "0 play 4c")
    assert card_choice(state) == "play 7s"


def test_heuristic_keeps_its_best_card_for_the_decisive_trick():
    """Leading the first trick with a manilha and a 3: the 3 goes first, the zap stays."""
    state = start("paulista", [(["4c 3s 6h", "7s 2h Qc"], "3d")])
    assert {card_choice(state, seed) for seed in range(20)} == {"play 3s"}


def test_heuristic_calls_truco_with_a_strong_hand():
    state = start("paulista", [(["4c 4h 3s", "7s 5h Qc"], "3d")])
    assert decide(state) == "truco"


def test_heuristic_bluffs_sometimes_but_not_often_with_a_weak_hand():
    state = start("paulista", [(["5c 6h 7s", "3s 2h Qc"], "3d")])
    calls = decisions(state, 400).count("truco")
    assert 0 < calls < 0.2 * 400


def test_heuristic_accepts_truco_with_a_strong_hand_and_runs_with_a_weak_one():
    strong = act(start("paulista", [(["5c 6h 7s", "4c 4h 3s"], "3d")]), "0 truco")
    weak = act(start("paulista", [(["4c 4h 3s", "5c 6h 7s"], "3d")]), "0 truco")
    assert decide(strong) in ("accept", "truco")
    assert decide(weak) == "refuse"


def test_heuristic_mao_de_onze_plays_a_strong_hand_and_runs_from_a_weak_one():
    strong = start("paulista", [(["4c 4h 3s", "5c 6h 7s"], "3d")], start_score=(11, 4))
    weak = start("paulista", [(["5c 6h 7s", "4c 4h 3s"], "3d")], start_score=(11, 4))
    assert strong.phase == weak.phase == "decide"
    assert decide(strong) == "accept"
    assert decide(weak) == "refuse"


def test_heuristic_mao_de_onze_counts_its_partners_cards():
    """2v2 on 11: the deciding seat sees its partner's hand; a weak hand with a strong partner
    plays, the same hand with a weak partner runs."""
    strong_partner = start(
        "paulista",
        [(["5c 6h 7s", "5d 6d 7d", "4c 4h 3s", "Qd Jd Kd"], "3d")],
        players=4,
        start_score=(11, 4),
    )
    weak_partner = start(
        "paulista",
        [(["5c 6h 7s", "4c 4h 3s", "5h 6s 7c", "Qd Jd Kd"], "3d")],
        players=4,
        start_score=(11, 4),
    )
    assert decide(strong_partner) == "accept"
    assert decide(weak_partner) == "refuse"


def test_heuristic_never_calls_truco_in_a_hand_of_eleven_where_it_loses_the_game():
    """Truc Tete: truco is legal in the hand of eleven, and calling it loses the game."""
    state = start("truc-tete", [(["4c 4h 3s", "5c 6h 7s"], "3d")], start_score=(11, 4))
    state = act(state, "0 accept")
    assert "truco" in state.legal_actions()
    assert "truco" not in decisions(state, 100)


# Argentino envido (seed 002): "from 28 it is generally worth betting, and 33 is the maximum".


def argentino(cards_mano, cards_other="4o 5c 12b"):
    return start("argentino", [([cards_mano, cards_other], None)])


def test_heuristic_envido_from_28_upward():
    assert decide(argentino("7e 1e 12c")) == "envido"  # 7 + 1 + 20 = 28
    assert all(
        a not in ("envido", "real_envido", "falta_envido")
        for a in decisions(argentino("6e 1e 12c"), 50)
    )  # 27


def test_heuristic_real_envido_from_31_and_falta_envido_at_33():
    assert decide(argentino("7e 4e 12c")) == "real_envido"  # 31
    assert decide(argentino("7e 6e 12c")) == "falta_envido"  # 33


def test_heuristic_answers_envido_by_its_points():
    good = act(argentino("4o 5c 12b", "7e 1e 12c"), "0 envido")  # the answering seat has 28
    poor = act(argentino("7e 1e 12c", "4o 5c 12b"), "0 envido")  # 5
    assert decide(good) in ("accept", "envido", "real_envido")
    assert decide(poor) == "refuse"


def test_heuristic_opens_the_envido_with_poor_points_against_a_side_that_refuses_them():
    """Five points (three suits) are no envido against a side that takes envidos, or for the
    search's model with no profile; against a side that refused sixteen of our twenty envidos,
    an envido is a point it gives away: heuristic opens one."""
    obs = argentino("4o 5c 12b", "7e 1e 12c").observation(0)
    refusing = profiled(envido_refuse=(16, 20))
    taking = profiled(envido_refuse=(2, 20))
    assert {refusing.decide(obs, random.Random(seed)) for seed in range(10)} == {"envido"}
    assert "envido" not in {taking.decide(obs, random.Random(seed)) for seed in range(10)}
    assert "envido" not in {POLICY.decide(obs, random.Random(seed)) for seed in range(10)}


def test_the_profile_counts_how_often_our_envidos_were_refused():
    """Our envido refused, accepted, raised: one refusal in three. Their envido, refused by
    us, is not an answer to ours."""
    from bots.profile import OpponentProfile

    hands = [
        ((0, "envido"), (1, "refuse"), (0, "play 4o")),
        ((0, "envido"), (1, "accept"), (0, "play 4o")),
        ((0, "envido"), (1, "real_envido"), (0, "refuse"), (0, "play 4o")),
        ((1, "envido"), (0, "refuse"), (1, "play 4o")),
    ]
    profile = OpponentProfile()
    for n, history in enumerate(hands):
        profile.learn(0, {"hand_no": n, "points": (1, 0), "history": history}, key=n)
    assert (profile.envido_refuse.hits, profile.envido_refuse.total) == (1, 3)


def test_heuristic_declares_its_flor():
    state = start("argentino", [(["1e 5e 12e", "4o 5c 12b"], None)], options={"flor": True})
    assert decide(state) == "flor"


def test_heuristic_showdown_plays_its_best_card_face_up():
    """Mineiro, first trick tied: the stronger remaining card goes face up."""
    state = start("mineiro", [(["3c 5h 6s", "3h Qd Jd"], None)])
    state = act(state, "0 play 3c", "1 play 3h")
    assert state.phase == "showdown"
    choice = decide(state)
    assert choice in ("pair 6s 5h", "truco")


def test_heuristic_beats_random_in_every_variant(monkeypatch):
    """The issue's target is 85% of games, and heuristic is above it everywhere: about 89% in the
    weakest setting (Mineiro, 2v2: 89.1% [87.4, 90.8] of 1,200 games, `python -m engine arena
    --bots heuristic random --variant mineiro --players 4 --pairs 600 --seed 3`), 94% to 98.5%
    elsewhere. 120 pairs measure that to about two points either way, so a run once gave 84.6%:
    the test asks 80%, which chance does not reach but a broken heuristic misses by far, and fixes
    the bots' seeds so that a run is the same run every time."""
    from engine import botseed
    from engine.plugins import registry

    monkeypatch.setenv(botseed.ENV, "test-heuristic-beats-random")
    for name, variant in sorted(registry().variants.items()):
        for players in variant.players:
            spec = MatchSpec(name, "heuristic", "random", players=players, pairs=120, seed=11)
            wins, losses = play_match(spec).wins
            assert wins / (wins + losses) >= 0.80, (name, players, (wins, losses))


def profiled(**rates):
    """A heuristic policy whose profile of the other team saw `rates` (name: (hits, total))."""
    from bots.profile import OpponentProfile

    profile = OpponentProfile()
    for name, (hits, total) in rates.items():
        rate = getattr(profile, name)
        rate.hits, rate.total = float(hits), float(total)
    return HeuristicPolicy(profile=profile)


def test_heuristic_runs_from_the_bets_of_a_side_whose_called_bets_always_held():
    """A middling hand (a 3, a 2 and an ace) takes a truco from a side it knows nothing of, and
    runs from the same truco of a side that won every bet it was called on this match."""
    state = act(start("paulista", [(["5c 6h 7s", "3s 2h Ac"], "3d")]), "0 truco")
    obs = state.observation(1)
    fresh = profiled()
    tight = profiled(called_win=(12, 12), truco_rate=(12, 60))
    assert fresh.decide(obs, random.Random(0)) in ("accept", "truco")
    assert tight.decide(obs, random.Random(0)) == "refuse"


def test_heuristic_reads_a_bet_made_facing_its_card_by_how_often_such_bets_held():
    """The other seat bets after seeing the 3 that seat 0 led: against a side whose bets there
    always held, seat 0 runs; against one whose bets there mostly failed, it takes them."""
    state = act(start("paulista", [(["3s 2h Ac", "5c 6h 7s"], "3d")]), "0 play 3s", "1 truco")
    obs = state.observation(0)
    honest = profiled(late_win=(12, 12))
    bluffing = profiled(late_win=(2, 12))
    assert {honest.decide(obs, random.Random(seed)) for seed in range(20)} == {"refuse"}
    assert {bluffing.decide(obs, random.Random(seed)) for seed in range(20)} <= {"accept", "truco"}


def test_the_profile_counts_a_bet_made_facing_our_card_apart_from_a_bet_made_blind():
    from bots.profile import OpponentProfile

    facing = {
        "hand_no": 1,
        "points": (0, 3),
        "history": ((0, "play 3s"), (1, "truco"), (0, "accept"), (1, "play 4c")),
    }
    blind = {
        "hand_no": 2,
        "points": (0, 3),
        "history": ((1, "truco"), (0, "accept"), (1, "play 4c"), (0, "play 3s")),
    }
    profile = OpponentProfile()
    profile.learn(0, facing, key=1)
    assert (profile.late_win.total, profile.called_win.total) == (1, 0)
    profile.learn(0, blind, key=2)
    assert (profile.late_win.total, profile.called_win.total) == (1, 1)


def test_with_partners_a_bet_reads_as_facing_us_only_once_both_of_our_cards_are_down():
    """Four players: seat 1 bets having seen only seat 0's card (seat 2, its partner, has not
    played): an ordinary bet. Seat 3 bets having seen seat 0's and seat 2's: made facing all our
    cards on the trick, read (and counted) as such."""
    from bots.heuristic import bet_facing_us
    from bots.profile import OpponentProfile

    deal = [(["3s 2h Ac", "5c 6h 7s", "Kc Qh Js", "4c 4h 5d"], "3d")]
    one_down = act(start("paulista", deal, players=4), "0 play 3s", "1 truco")
    assert not bet_facing_us(one_down.observation(0))
    both_down = act(
        start("paulista", deal, players=4), "0 play 3s", "1 play 5c", "2 play Kc", "3 truco"
    )
    assert bet_facing_us(both_down.observation(0))

    def counted(history):
        profile = OpponentProfile()
        profile.learn(0, {"hand_no": 1, "points": (0, 3), "history": history}, key=1)
        return profile.late_win.total, profile.called_win.total

    tail = ((0, "accept"), (3, "play 4c"))
    seen_one = ((0, "play 3s"), (1, "truco"), (0, "accept"), (1, "play 5c"), (2, "play Kc"))
    assert counted((*seen_one, (3, "play 4c"))) == (0, 1)
    assert counted(((0, "play 3s"), (1, "play 5c"), (2, "play Kc"), (3, "truco"), *tail)) == (1, 0)


def test_heuristic_takes_the_raises_of_a_side_whose_raises_mostly_failed():
    """Seat 0 called truco on a poor hand (a king, a six, a seven) and seat 1 raised to six.
    Running gives away three points. Against a side whose raises held every time seat 0 runs;
    against one whose raises failed most of the time a raise says nothing, and it plays on."""
    state = start("paulista", [(["Kc 6s 7c", "Jd Qd Js"], "3d")])
    obs = act(state, "0 truco", "1 truco").observation(0)
    honest = profiled(raise_win=(20, 20))
    bluffing = profiled(raise_win=(4, 20))
    assert {honest.decide(obs, random.Random(seed)) for seed in range(20)} == {"refuse"}
    assert {bluffing.decide(obs, random.Random(seed)) for seed in range(20)} <= {"accept", "truco"}


def test_the_equity_table_values_the_hand_of_eleven_as_the_deciding_team_sees_it():
    """The team on eleven looks at its cards and runs from its bad hands for a point, so 11 to
    9 is well above the coin flip at three points it was valued at (the first to eleven won
    about nine games in ten against opp-eleven-rush), and the other side's view is its
    complement. Mineiro's hand of ten alike."""
    from bots.equity import win_chance, win_table
    from engine.plugins import get_variant

    for variant in ("paulista", "mineiro", "truc-tete"):
        rules = get_variant(variant).rules({})
        table = win_table(rules)
        on = rules.threshold
        for theirs in range(on):
            assert win_chance(table, on, theirs) > 0.5
            assert abs(win_chance(table, theirs, on) + win_chance(table, on, theirs) - 1) < 1e-9
        assert win_chance(table, on, on - 2) > 0.6
        assert win_chance(table, on, on) == 0.5


def test_heuristic_at_eleven_refuses_a_middling_hand_of_eleven_when_the_others_are_near():
    """At 11 to 9 a hand it wins about 55% of the time runs: running gives a point and leaves it
    on eleven, deciding the next hand again; at 11 to 4 the same hand plays."""
    near = start("paulista", [(["3s Kh 7c", "5h 6s 7d"], "3d")], start_score=(11, 9))
    far = start("paulista", [(["3s Kh 7c", "5h 6s 7d"], "3d")], start_score=(11, 4))
    assert near.phase == far.phase == "decide"
    assert decide(near) == "refuse"
    assert decide(far) == "accept"


def test_heuristic_calibrates_its_answers_by_how_the_bets_it_accepted_ended():
    """Seat 0 called truco on a 3, a 2 and an ace and seat 1 raised to six. Against a side
    whose raises were typical by the profile's counts, seat 0 takes the raise; once the raises
    it accepted believing it would win most of them were lost anyway, it runs from the same
    raise (the model's chance is scaled by the odds it saw against the odds it believed)."""
    from bots.profile import OpponentProfile

    state = start("paulista", [(["3s 2h Ac", "Jd Qd Js"], "3d")])
    obs = act(state, "0 truco", "1 truco").observation(0)
    policy = HeuristicPolicy(profile=OpponentProfile())
    assert {policy.decide(obs, random.Random(seed)) for seed in range(20)} <= {"accept", "truco"}
    kind, believed = policy.last_belief
    assert kind == "raise" and believed > 0.5
    lost = {"points": (0, 6), "history": ((0, "truco"), (1, "truco"), (0, "accept"))}
    for hand_no in range(12):
        policy.profile.note_accept(("g", hand_no), kind, believed)
        policy.profile.learn(0, {**lost, "hand_no": hand_no}, key=("g", hand_no))
    assert policy.profile.calibration("raise").factor() < 0.3
    assert {policy.decide(obs, random.Random(seed)) for seed in range(20)} == {"refuse"}


def test_the_heuristic_bot_notes_only_the_bets_it_accepted():
    """The bot hands the profile its acceptances of the other side's bets (the chance it
    believed, by kind of bet), not its refusals, nor a hand of eleven it plays."""
    from bots.heuristic import HeuristicBot

    bot = HeuristicBot(variant="paulista", options={}, seat=0, players=2, rng=random.Random(0))
    taken = act(start("paulista", [(["3s 2h Ac", "5c 6h 7d"], "3d")]), "0 truco", "1 truco")
    assert bot.act(taken.observation(0)) == "accept"
    assert [(kind, round(p, 2) > 0) for _key, kind, p in bot.profile.accepted] == [("raise", True)]
    bot.profile.accepted.clear()
    run = act(start("paulista", [(["Kc 6s 7c", "4c 4h 3s"], "3d")]), "0 truco", "1 truco")
    assert bot.act(run.observation(0)) == "refuse"
    eleven = start("paulista", [(["3s 2h Ac", "5h 6s 7d"], "3d")], start_score=(11, 4))
    assert bot.act(eleven.observation(eleven.to_act)) == "accept"
    assert bot.profile.accepted == []


def test_the_calibration_leaves_out_a_hand_that_nobody_won():
    """A hand whose three tricks were all tied scores nothing: it says neither that we were
    right to accept nor wrong, and is not counted."""
    from bots.profile import OpponentProfile

    profile = OpponentProfile()
    profile.note_accept(("g", 1), "called", 0.6)
    tied = {"hand_no": 1, "points": (0, 0), "history": ((1, "truco"), (0, "accept"))}
    profile.learn(0, tied, key=("g", 1))
    assert profile.calibration("called").total == 0 and profile.accepted == []
    profile.note_accept(("g", 2), "called", 0.6)
    won = {"hand_no": 2, "points": (3, 0), "history": ((1, "truco"), (0, "accept"))}
    profile.learn(0, won, key=("g", 2))
    assert profile.calibration("called").total == 1
    assert profile.calibration("called").factor() > 1


def test_heuristic_bluffs_by_how_often_its_bluffs_were_run_from_not_its_trucos():
    """A side that runs from most of our trucos but takes our bluffs (it answers by its own
    cards, which are strong when ours are weak) gets few bluffs; one that ran from our bluffs
    too gets many: the bluff rate follows the refusals of our bluffs, counted apart. The bot
    notes the hands where it bluffed, and the profile counts the answers to them."""
    from bots.heuristic import HeuristicBot

    state = start("paulista", [(["5c 6h 7s", "4c 4h 3s"], "3d")])
    obs = state.observation(0)
    runs_from_all = profiled(refuse_rate=(50, 60), bluff_refuse=(50, 60))
    takes_bluffs = profiled(refuse_rate=(50, 60), bluff_refuse=(6, 60))
    often = sum(runs_from_all.decide(obs, random.Random(seed)) == "truco" for seed in range(300))
    rarely = sum(takes_bluffs.decide(obs, random.Random(seed)) == "truco" for seed in range(300))
    assert often > 60 and rarely < 10

    bot = HeuristicBot(variant="paulista", options={}, seat=0, players=2, rng=random.Random(0))
    bot.profile.bluff_refuse.hits, bot.profile.bluff_refuse.total = 60.0, 60.0
    seed = next(s for s in range(100) if bot.policy.decide(obs, random.Random(s)) == "truco")
    bot.rng = random.Random(seed)
    assert bot.act(obs) == "truco"
    assert bot.profile.bluffs == [(0, obs.hand_no)]
    taken = {"hand_no": obs.hand_no, "points": (0, 3), "history": ((0, "truco"), (1, "accept"))}
    bot.profile.learn(0, taken, key=(0, obs.hand_no))
    assert bot.profile.bluff_refuse.total == 61 and bot.profile.bluffs == []


def later_bet(hand0: str, hand1: str, *steps: str):
    """Seat 0 called truco, seat 1 accepted and, at a later turn, bet again (to six)."""
    state = start("paulista", [([hand0, hand1], "3d")])
    return act(state, "0 truco", "1 accept", *steps, "1 truco").observation(0)


def later_policy(profile, later=True):
    policy = HeuristicPolicy(profile=profile)
    policy.later = later
    return policy


def test_heuristic_reads_a_bet_over_its_accepted_truco_by_how_such_bets_held():
    """Seat 0 called truco on two twos, seat 1 took it and bet six facing seat 0's first card.
    The old reading took that for a bet made seeing our card, of the sort that held (a side
    that bets at once only on sure hands) and ran; read apart (`later`), a side that takes a
    truco on a fair hand and bets again as the tricks go its way is called, until its later
    bets are seen to hold, then run from."""
    from bots.profile import OpponentProfile

    obs = later_bet("2s 2h Kc", "Jd Qd Js", "0 play 2s")
    assert later_policy(OpponentProfile(), later=False).decide(obs, random.Random(0)) == "refuse"
    assert later_policy(OpponentProfile()).decide(obs, random.Random(0)) == "accept"
    held = OpponentProfile()
    for _ in range(10):
        held.later_win.add(True)
    policy = later_policy(held)
    assert policy.decide(obs, random.Random(0)) == "refuse"
    assert policy.last_belief[0] == "later"


def test_heuristic_takes_a_bet_over_its_accepted_truco_without_raising_it():
    """With both manilhas of the top and a side that bets most hands (a bet of theirs says
    little: raise it on less), the raise model raised the six to nine; a bet of a later turn
    over our truco is accepted, not raised."""
    from bots.profile import OpponentProfile

    obs = later_bet("4c 4h 5s", "Jd Qd 2s", "0 play 5s", "1 play Jd")
    for later, expected in ((False, {"truco"}), (True, {"accept"})):
        profile = OpponentProfile()
        for _ in range(20):
            profile.truco_rate.add(True)
        policy = later_policy(profile, later)
        assert {policy.decide(obs, random.Random(seed)) for seed in range(20)} == expected


def test_the_profile_counts_bets_over_our_accepted_trucos_apart():
    """A truco of theirs over one of ours they had accepted, which we took and won, counts in
    `later_win`, not in the raises made at once nor the bets made facing our card."""
    from bots.profile import OpponentProfile

    profile = OpponentProfile()
    history = ((0, "truco"), (1, "accept"), (0, "play 5s"), (1, "truco"), (0, "accept"))
    profile.learn(0, {"hand_no": 1, "points": (6, 0), "history": history}, key=("g", 1))
    assert profile.later_win.total == 1 and profile.later_win.hits == 0
    assert profile.raise_win.total == 0 and profile.late_win.total == 0
    raised = ((0, "truco"), (1, "truco"), (0, "accept"))
    profile.learn(0, {"hand_no": 2, "points": (0, 6), "history": raised}, key=("g", 2))
    assert profile.later_win.total == 1 and profile.raise_win.total == 1


def test_heuristic_with_a_partner_judges_its_hand_of_eleven_by_both_hands_against_two():
    """Four players, 11 to 9: seat 0 holds the zap and two queens, its partner an ace, a jack
    and a four (vira 6c). The rules' estimate took the team's three best cards against a
    single hand (0.76) and played; against two hands whose best card meets each of ours, the
    playouts give it about one in five, and it runs (a point, still on eleven)."""
    from bots.heuristic import HeuristicBot

    hands = ["Qh 7c Qd", "7d Kd Ah", "Ad Jh 4c", "4d Ks Jc"]
    state = start("paulista", [(hands, "6c")], players=4, start_score=(11, 9))
    obs = state.observation(state.to_act)
    assert obs.phase == "decide" and obs.partner_cards

    def bot(**params):
        rng = random.Random(0)
        return HeuristicBot(variant="paulista", options={}, seat=0, players=4, rng=rng, **params)

    assert bot(eleven_playouts=False).act(obs) == "accept"
    assert {bot().act(obs) for _ in range(5)} == {"refuse"}


def test_the_profile_counts_our_opening_trucos_by_the_chance_our_cards_had():
    """Each opening truco of ours is counted in the band of the chance we called it on: run
    from, or taken (accepted, or raised at once) and then won or lost, however the hand ended
    (a raise of theirs we ran from is a loss). A truco of ours over theirs opened nothing."""
    from bots.profile import OpponentProfile

    profile = OpponentProfile()
    hands = [
        ((0, "truco"), (1, "refuse")),  # run from
        ((0, "truco"), (1, "accept"), (0, "play 4o"), (1, "truco"), (0, "refuse")),  # lost
        ((0, "truco"), (1, "truco"), (0, "accept"), (0, "play 4o")),  # taken, then won
        ((1, "truco"), (0, "truco"), (1, "refuse")),  # a raise of ours: not an opening truco
    ]
    points = [(1, 0), (0, 3), (6, 0), (3, 0)]
    for n, (history, scored) in enumerate(zip(hands, points, strict=True)):
        profile.trucos.note(n, 0.2)
        profile.learn(0, {"hand_no": n, "points": scored, "history": history}, key=n)
    band = profile.trucos.band(0.2)
    assert (band.opened, band.refused, band.taken, band.won) == (3, 1, 2, 1)
    assert profile.trucos.band(0.9).opened == 0 and not profile.trucos.noted


def bluffs_taken(opened: int, refused: int, won: int) -> HeuristicPolicy:
    """A heuristic policy whose bluffs (trucos on cards under a 0.35 chance) were run from and
    won this often."""
    policy = HeuristicPolicy(profile=profiled().profile)
    band = policy.profile.trucos.band(0.1)
    band.opened, band.refused, band.won = opened, refused, won
    return policy


def test_heuristic_stops_bluffing_into_a_side_that_takes_its_bluffs_and_wins():
    """opp-eleven-rush, with four players, took 20 of our 29 bluffs and won 16: a bluff cost
    about three points where playing the hand quietly cost about one. Once a band of cards has
    been tried and its trucos lost more than staying quiet, the rules' bluffs there stop; a side
    that runs from them still gets them; a fair hand's truco is never stopped."""
    weak = start("paulista", [(["5c 6h 7s", "3s 2h Qc"], "3d")])
    obs = weak.observation(0)

    def trucos(policy) -> int:
        return sum(policy.decide(obs, random.Random(seed)) == "truco" for seed in range(400))

    assert trucos(bluffs_taken(opened=10, refused=1, won=0)) == 0
    assert trucos(bluffs_taken(opened=10, refused=9, won=0)) > 0
    assert trucos(bluffs_taken(opened=3, refused=0, won=0)) > 0  # not tried enough yet
    strong = start("paulista", [(["4c 4h 3s", "7s 5h Qc"], "3d")]).observation(0)
    policy = bluffs_taken(opened=10, refused=0, won=0)
    for band in policy.profile.trucos.bands:
        band.opened, band.refused, band.won = 10, 0, 0
    assert policy.decide(strong, random.Random(0)) == "truco"


def test_the_heuristic_bot_notes_its_opening_trucos_with_their_chance():
    from bots.heuristic import HeuristicBot

    bot = HeuristicBot(variant="paulista", options={}, seat=0, players=2, rng=random.Random(0))
    strong = start("paulista", [(["4c 4h 3s", "7s 5h Qc"], "3d")])
    assert bot.act(strong.observation(0)) == "truco"
    ((_key, band),) = bot.profile.trucos.noted.items()
    assert band == len(bot.profile.trucos.bands) - 1  # the strongest band


def final_truco():
    """Paulista, vira Kd (aces are the manilhas): the first two tricks split, seat 0 leads the
    third with a 2 (beaten only by a 3 or a manilha) and seat 1, holding its last card and
    seeing that 2, calls truco: it knows whether its card wins, so the bet is a sure win or a
    bluff (here a bluff: a 6)."""
    state = start("paulista", [(["4h 3s 2c", "2d 5s 6h"], "Kd")])
    state = act(state, "0 play 4h", "1 play 2d", "1 play 5s", "0 play 3s", "0 play 2c")
    return act(state, "1 truco")


def test_a_bet_facing_our_last_card_is_believed_as_a_bluff_or_a_sure_win():
    """With nothing left to play, our card's chance against the unseen cards says nothing: the
    other side saw it. Against a side whose bets there held (written bots bet there only on a
    sure win) the truco is run from, however good our card; against one whose bets there
    failed (a bluffer), taken."""
    obs = final_truco().observation(0)
    rng = random.Random(3)
    honest = profiled(final_win=(8, 8))
    assert honest.decide(obs, rng, get_variant("paulista").rules({})) == "refuse"
    bluffer = profiled(final_win=(1, 8))
    assert bluffer.decide(obs, rng, get_variant("paulista").rules({})) == "accept"


def test_the_profile_counts_a_bet_facing_our_last_card_apart():
    from bots.profile import OpponentProfile

    state = act(final_truco(), "0 accept", "1 play 6h")
    profile = OpponentProfile()
    profile.learn(0, state.observation(0).previous_hand, key=0)
    assert (profile.final_win.hits, profile.final_win.total) == (0, 1)  # taken: their bluff lost
    assert profile.late_win.total == 0 and profile.later_win.total == 0


def test_the_profile_counts_whether_they_bet_once_they_took_the_first_trick():
    """Their first decision of the second trick, when they took the first with no bet made:
    counted whatever it is; not when a truco came first, nor in a hand of eleven."""
    from bots.profile import OpponentProfile

    took_first = ((0, "play 4c"), (1, "play 3s"))
    hands = [
        took_first + ((1, "truco"), (0, "refuse")),  # they bet there
        took_first + ((1, "play 5h"), (0, "play 6d")),  # they did not
        ((0, "truco"), (1, "accept"), *took_first, (1, "truco"), (0, "refuse")),  # bet already
        ((1, "accept"), *took_first, (1, "play 5h")),  # a hand of eleven
    ]
    profile = OpponentProfile()
    for n, history in enumerate(hands):
        profile.learn(0, {"hand_no": n, "results": (1,), "points": (0, 1), "history": history}, n)
    assert (profile.truco_after_first.hits, profile.truco_after_first.total) == (1, 2)


def test_a_truco_they_call_every_time_they_take_the_first_trick_says_nothing_of_their_cards():
    """Written bots often call truco whenever they took the first trick ("won the first round:
    raise"). Once the profile has seen that, such a truco is answered on our cards' own chance,
    without the doubt a bet casts on them."""
    state = start("paulista", [(["4h 3s 5c", "2d 6s 7h"], "Kd")])
    state = act(state, "0 play 4h", "1 play 2d", "1 truco")
    obs = state.observation(0)
    rules = get_variant("paulista").rules({})
    ordinary = profiled()
    habitual = profiled(truco_after_first=(20, 20))
    raw = ordinary.chance(obs, rules)
    assert habitual.believed(obs, rules, late=False) > ordinary.believed(obs, rules, late=False)
    assert habitual.believed(obs, rules, late=False) == pytest.approx(raw, abs=0.1)
