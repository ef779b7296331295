"""Truco Argentino: one scenario per rule and option of RULES.md section 4, from explicit deals,
exact scores.

Unless a test says otherwise: 2 players and seat 0 is the mano of the first hand (seat 1 deals).
Envido values of the hands used most: 7e 6e = 33, 7o 6o = 33, 5o 4o = 29, 12c 11c = 20.
"""

from __future__ import annotations

import json
import subprocess
import sys
from itertools import combinations

import pytest

from engine.cards import DECKS
from engine.errors import IllegalAction, OptionError, RecordError
from engine.observation import Observation
from engine.plugins import get_variant
from engine.records import RecordKeeper, replay
from engine.runner import play_game
from tests.support import act, hand, play, record, start
from variants.argentino.envido import card_value, envido_points, flor_points

V = "argentino"
FLOR = {"flor": True}
PARDA = -1


def deal(*cards):
    """A one-hand deal for `start`: each seat's three cards as a string."""
    return [(list(cards), None)]


def points(replay_):
    return [list(p) for p in replay_.hand_points]


# --- players, deck, card strength ---------------------------------------------------------


def test_players_two_or_four():
    game = get_variant(V)
    assert game.new_game(2).players == 2
    assert game.new_game(4).players == 4
    with pytest.raises(OptionError, match="2 or 4 players"):
        game.new_game(3)


def test_spanish_deck_forty_cards_ranks_1_to_7_and_10_to_12_four_suits():
    deck = DECKS["spanish40"]
    assert len(deck) == 40
    assert {c[:-1] for c in deck} == {"1", "2", "3", "4", "5", "6", "7", "10", "11", "12"}
    assert {c[-1] for c in deck} == {"e", "b", "o", "c"}
    state = get_variant(V).new_game(4, seed=5)
    dealt = [c for cards in state.dealt for c in cards]
    assert len(set(dealt)) == 12 and set(dealt) <= set(deck)
    assert state.vira is None
    with pytest.raises(RecordError, match="unknown card '8e'"):
        play(V, [hand(["8e 1b 2b", "3c 4c 5c"])])
    with pytest.raises(RecordError, match="has no vira"):
        play(V, [hand(["1e 1b 2b", "3c 4c 5c"], vira="7o")])


STRENGTH_STEPS = [
    ("1e", "1b"),
    ("1b", "7e"),
    ("7e", "7o"),
    ("7o", "3c"),
    ("3c", "2e"),
    ("2e", "1o"),
    ("1o", "12e"),
    ("12e", "11e"),
    ("11e", "10e"),
    ("10e", "7c"),
    ("7c", "6e"),
    ("6e", "5e"),
    ("5e", "4e"),
]


@pytest.mark.parametrize(("strong", "weak"), STRENGTH_STEPS)
def test_card_strength_1e_1b_7e_7o_3_2_1_12_11_10_7_6_5_4(strong, weak):
    fillers = [c for c in ("4b", "4o", "4c", "5b", "5o", "5c") if c not in (strong, weak)][:4]
    for first, second, winner in ((weak, strong, 1), (strong, weak, 0)):
        cards = [[first, *fillers[:2]], [second, *fillers[2:]]]
        r = play(V, [hand(cards, [f"0 play {first}", f"1 play {second}"])])
        assert r.state.results == (winner,), (first, second)


@pytest.mark.parametrize(("a", "b"), [("3e", "3o"), ("2b", "2c"), ("1o", "1c"), ("7b", "7c")])
def test_suits_matter_only_for_the_top_four_equal_cards_are_parda(a, b):
    r = play(V, [hand([f"{a} 4e 5e", f"{b} 4b 5b"], [f"0 play {a}", f"1 play {b}"])])
    assert r.state.results == (PARDA,)


# --- tricks and parda ---------------------------------------------------------------------


def test_two_tricks_win_the_hand_worth_one_point():
    r = play(
        V, [hand(["1e 1b 4c", "3c 2c 5e"], ["0 play 1e", "1 play 3c", "0 play 1b", "1 play 2c"])]
    )
    assert points(r) == [[1, 0]]
    assert r.state.score == (1, 0)


def test_trick_winner_leads_the_next_trick():
    state = act(start(V, deal("4c 6b 7b", "3c 4b 5b")), "0 play 4c", "1 play 3c")
    assert state.to_act == 1 and state.leader == 1


def test_parda_first_trick_the_next_trick_won_decides_and_the_tied_trick_leader_leads():
    state = act(start(V, deal("3e 4c 1e", "3o 5c 1b")), "0 play 3e", "1 play 3o")
    assert state.results == (PARDA,) and state.to_act == 0
    state = act(state, "0 play 4c", "1 play 5c")
    assert state.hand_points == ((0, 1),)


def test_parda_after_a_won_trick_the_first_winner_wins_the_hand():
    r = play(
        V, [hand(["1e 3e 4c", "5c 3o 6c"], ["0 play 1e", "1 play 5c", "0 play 3e", "1 play 3o"])]
    )
    assert points(r) == [[1, 0]]


def test_parda_in_the_third_trick_the_first_team_to_win_a_trick_wins():
    actions = ["0 play 1e", "1 play 5c", "0 play 4c", "1 play 1b", "1 play 3o", "0 play 3e"]
    r = play(V, [hand(["1e 4c 3e", "5c 1b 3o"], actions)])
    assert r.state.hand_points == ((1, 0),)


@pytest.mark.parametrize("players", [2, 4])
def test_all_three_parda_the_mano_team_wins(players):
    # Seat 0 deals, so seat 1 is the mano and its team (team 1) wins three pardas.
    cards = ["3e 2e 12e", "3o 2o 12o", "3b 2b 12b", "3c 2c 12c"][:players]
    state = start(V, [(cards, None)], players=players, first_dealer=0)
    for rank in ("3", "2", "12"):
        for i in range(players):
            seat = (1 + i) % players
            state = act(state, f"{seat} play {rank}{'eobc'[seat]}")
    assert state.hand_points == ((0, 1),)


def test_equal_top_cards_of_partners_win_for_their_team_not_parda():
    state = start(V, deal("3e 4e 5e", "4c 6c 7c", "3o 4o 5o", "5c 6b 7b"), players=4)
    state = act(state, "0 play 3e", "1 play 4c", "2 play 3o", "3 play 5c")
    assert state.results == (0,) and state.to_act == 0


# --- truco, retruco, vale cuatro ----------------------------------------------------------


def test_truco_retruco_vale_cuatro_make_the_hand_worth_2_3_4():
    state = start(V, deal("1e 1b 4c", "3c 2c 5e"))
    state = act(state, "0 truco", "1 accept")
    assert state.stake == 2
    state = act(state, "0 play 1e", "1 truco", "0 accept")
    assert state.stake == 3
    state = act(state, "1 play 3c", "0 truco", "1 accept")
    assert state.stake == 4
    assert "truco" not in state.legal_actions()  # nothing beyond vale cuatro
    state = act(state, "0 play 1b", "1 play 2c")
    assert state.hand_points == ((4, 0),)


@pytest.mark.parametrize(
    ("bets", "expected"),
    [
        (["0 truco", "1 refuse"], [1, 0]),
        (["0 truco", "1 truco", "0 refuse"], [0, 2]),
        (["0 truco", "1 truco", "0 truco", "1 refuse"], [3, 0]),
    ],
)
def test_refused_truco_ends_the_hand_and_the_bettors_score_the_value_before_it(bets, expected):
    r = play(V, [hand(["1e 1b 4c", "3c 2c 5e"], bets)])
    assert points(r) == [expected]


def test_only_the_team_that_accepted_the_last_bet_may_raise():
    state = act(start(V, deal("1e 1b 4c", "3c 2c 5e")), "0 truco", "1 accept")
    assert "truco" not in state.legal_actions()  # seat 0 called: it may not raise its own bet
    with pytest.raises(IllegalAction):
        state.apply("truco")
    state = act(state, "0 play 1e")
    assert "truco" in state.legal_actions()  # seat 1 accepted: it may call retruco


# --- envido -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("7e 6e 1b", 33),  # the best two of a suit plus 20
        ("12e 11e 5o", 20),  # 10, 11 and 12 count 0
        ("10c 7c 3b", 27),
        ("7e 1e 3b", 28),
        ("4e 5b 6o", 6),  # three suits: the single best card
        ("12e 11b 10o", 0),
        ("7o 6o 5o", 33),  # three of a suit without flor: the best two
    ],
)
def test_envido_points_best_two_of_a_suit_plus_twenty_or_best_single_card(cards, expected):
    assert envido_points(cards.split()) == expected


def test_envido_points_of_every_three_card_hand_follow_the_definition():
    def by_definition(cards):
        best = max(card_value(c) for c in cards)
        for x, y in combinations(cards, 2):
            if x[-1] == y[-1]:
                best = max(best, 20 + card_value(x) + card_value(y))
        return best

    hands = list(combinations(DECKS["spanish40"], 3))
    assert len(hands) == 9880
    assert all(envido_points(h) == by_definition(h) for h in hands)
    assert max(envido_points(h) for h in hands) == 33


def test_envido_accepted_the_best_envido_scores_two_and_the_caller_goes_on():
    state = start(V, deal("7e 6e 4b", "5o 4o 12c"))
    state = act(state, "0 envido")
    assert state.phase == "envido" and state.to_act == 1
    assert state.legal_actions() == ("accept", "envido", "falta_envido", "real_envido", "refuse")
    state = act(state, "1 accept")
    assert state.score == (2, 0)
    assert state.phase == "play" and state.to_act == 0
    state = act(state, "0 play 7e", "1 play 5o", "0 play 6e", "1 play 4o")
    assert state.hand_points == ((3, 0),)  # 2 for the envido, 1 for the tricks


def test_envido_refused_gives_the_callers_one():
    state = act(start(V, deal("4b 5c 6o", "7e 6e 12c")), "0 envido", "1 refuse")
    assert state.score == (1, 0) and state.to_act == 0 and state.phase == "play"


@pytest.mark.parametrize(
    ("calls", "accepted", "refused"),
    [
        (["envido"], 2, 1),
        (["real_envido"], 3, 1),
        (["envido", "envido"], 4, 2),
        (["envido", "real_envido"], 5, 2),
        (["envido", "envido", "real_envido"], 7, 4),
        (["real_envido", "falta_envido"], 30, 3),
        (["envido", "envido", "real_envido", "falta_envido"], 30, 7),
    ],
)
def test_envido_calls_chain_accepted_sum_and_refused_sum_of_calls_already_accepted(
    calls, accepted, refused
):
    """Seat 0 (33) and seat 1 (20) call in turn; accepted, seat 0's team wins the sum (a falta
    envido at 0-0 in a game to 30 is worth 30); refused, the last caller's team scores 1 for a
    single call, else the calls before the refused one."""
    steps = [f"{i % 2} {call}" for i, call in enumerate(calls)]
    answerer = len(calls) % 2
    base = start(V, deal("7e 6e 4b", "12c 11c 5o"))
    won = act(base, *steps, f"{answerer} accept")
    assert won.score == (accepted, 0)
    lost = act(base, *steps, f"{answerer} refuse")
    caller_team = 1 - answerer
    assert lost.score[caller_team] == refused and lost.score[answerer] == 0


def test_envido_chain_only_goes_up_envido_twice_real_envido_once_falta_last():
    base = start(V, deal("7e 6e 4b", "12c 11c 5o"))
    assert "envido" in act(base, "0 envido").legal_actions()
    assert "envido" not in act(base, "0 envido", "1 envido").legal_actions()
    after_real = act(base, "0 envido", "1 real_envido").legal_actions()
    assert after_real == ("accept", "falta_envido", "refuse")
    assert act(base, "0 falta_envido").legal_actions() == ("accept", "refuse")


def test_envido_tie_won_by_the_seat_nearer_the_mano():
    # Both hold 33; the pie calls after the mano played, and the mano wins the tie.
    state = act(start(V, deal("7e 6e 4b", "7o 6o 4c")), "0 play 4b", "1 envido", "0 accept")
    assert state.score == (2, 0)
    assert state.to_act == 1  # the caller goes on with its turn


@pytest.mark.parametrize(("first_dealer", "winner_team"), [(3, 1), (1, 0)])
def test_envido_tie_in_four_players_goes_to_the_seat_earliest_from_the_mano(
    first_dealer, winner_team
):
    # Seats 1 (team 1) and 2 (team 0) both hold 30, seat 3 29, seat 0 6. Mano 0: seat 1 comes
    # first; mano 2: seat 2.
    cards = ("4e 5b 6o", "7e 3e 12c", "7o 3o 12b", "4c 5c 6b")
    state = start(V, [(list(cards), None)], players=4, first_dealer=first_dealer)
    mano = state.mano
    state = act(state, f"{mano} envido", f"{(mano + 1) % 4} accept")
    expected = [0, 0]
    expected[winner_team] = 2
    assert list(state.score) == expected


@pytest.mark.parametrize(
    ("rule", "start_score", "winner_seat", "expected"),
    [
        # In the malas (leader on 10): the leader lacks 20.
        ("leader_lacks", (10, 5), 1, (10, 25)),
        ("leader_lacks", (10, 5), 0, (30, 5)),
        # In the buenas (leader on 20): the leader lacks 10.
        ("leader_lacks", (20, 12), 1, (20, 22)),
        ("leader_lacks", (20, 12), 0, (30, 12)),
        # The club rule: in the malas the falta envido is played for the game.
        ("game_in_malas", (10, 5), 1, (10, 30)),
        ("game_in_malas", (14, 5), 1, (14, 30)),
        ("game_in_malas", (15, 5), 1, (15, 20)),
        ("game_in_malas", (20, 12), 1, (20, 22)),
    ],
)
def test_falta_envido_worth_what_the_leading_team_lacks_on_each_side_of_the_malas_line(
    rule, start_score, winner_seat, expected
):
    strong, weak = "7e 6e 4b", "12c 11c 5o"
    cards = (strong, weak) if winner_seat == 0 else (weak, strong)
    state = start(V, deal(*cards), start_score=start_score, options={"falta_envido": rule})
    state = act(state, "0 falta_envido", "1 accept")
    assert state.score == expected
    assert state.is_over == (max(expected) >= 30)


def test_falta_envido_in_a_game_to_15_is_what_the_leader_lacks_to_15():
    state = start(V, deal("12c 11c 5o", "7e 6e 4b"), start_score=(9, 4), options={"target": 15})
    state = act(state, "0 falta_envido", "1 accept")
    assert state.score == (9, 10)


def test_falta_envido_refused_gives_the_callers_one():
    state = start(V, deal("12c 11c 5o", "7e 6e 4b"), start_score=(10, 5))
    assert act(state, "0 falta_envido", "1 refuse").score == (11, 5)


def test_envido_only_in_the_first_trick():
    state = act(start(V, deal("1e 4b 5c", "3c 6o 7b")), "0 play 1e", "1 play 3c")
    assert state.trick_no == 1
    assert "envido" not in state.legal_actions()
    with pytest.raises(IllegalAction, match="only in the first trick"):
        state.apply("envido")


def test_envido_not_by_a_seat_that_already_played_even_against_a_truco():
    # Four players: seat 3, last to play the first trick, calls truco; seat 0 (the mano) answers
    # but has played its card, so it may not answer with envido.
    cards = deal("4e 5e 6e", "4b 5b 6b", "4o 5o 6o", "4c 5c 7c")
    state = start(V, cards, players=4)
    state = act(state, "0 play 4e", "1 play 4b", "2 play 4o", "3 truco")
    assert state.to_act == 0
    assert not {"envido", "real_envido", "falta_envido"} & set(state.legal_actions())


def test_envido_not_after_a_truco_was_accepted():
    state = act(start(V, deal("7e 6e 4b", "12c 11c 5o")), "0 truco", "1 accept")
    assert "envido" not in state.legal_actions()
    state = act(state, "0 play 4b")
    assert not {"envido", "real_envido", "falta_envido"} & set(state.legal_actions())


def test_envido_once_per_hand():
    state = act(start(V, deal("7e 6e 4b", "12c 11c 5o")), "0 envido", "1 refuse", "0 play 4b")
    with pytest.raises(IllegalAction, match="already called"):
        state.apply("envido")


def test_truco_called_in_the_first_trick_waits_when_answered_by_envido_envido_goes_first():
    state = start(V, deal("12c 11c 1e", "7e 6e 1b"))
    state = act(state, "0 truco", "1 envido")
    assert state.phase == "envido" and state.to_act == 0
    state = act(state, "0 accept")
    assert state.score == (0, 2)
    # The truco still waits for seat 1's answer, and envido is over.
    assert state.phase == "answer" and state.to_act == 1 and state.pending == 1
    assert state.legal_actions() == ("accept", "refuse", "truco")
    state = act(state, "1 accept", "0 play 1e", "1 play 6e", "0 play 12c", "1 play 1b")
    state = act(state, "1 play 7e", "0 play 11c")
    assert state.hand_points == ((0, 4),)  # envido 2, then the truco hand (2) won by seat 1


def test_truco_answered_by_envido_then_refused_gives_the_truco_callers_one():
    state = start(V, deal("12c 11c 1e", "7e 6e 4b"))
    state = act(state, "0 truco", "1 real_envido", "0 refuse")
    assert state.score == (0, 1) and state.phase == "answer" and state.to_act == 1
    state = act(state, "1 refuse")
    # 1 to seat 1's team for the refused real envido, 1 to seat 0's for the refused truco.
    assert state.hand_points == ((1, 1),)


def test_four_players_envido_answered_by_the_next_opponent_then_the_turn_seat_goes_on():
    cards = deal("4e 5e 6e", "7b 6b 12b", "4o 5o 6o", "4c 5c 7c")
    state = act(start(V, cards, players=4), "0 play 4e", "1 envido")
    assert state.to_act == 2
    state = act(state, "2 real_envido")
    assert state.to_act == 3
    state = act(state, "3 accept")
    # Seat 1 (33) wins envido + real envido = 5 for team 1; seat 1 plays on.
    assert state.score == (0, 5) and state.phase == "play" and state.to_act == 1


def test_envido_that_wins_the_game_ends_it_before_any_trick():
    r = play(
        V,
        [hand(["12c 11c 1e", "7e 6e 4b"], ["0 envido", "1 accept"])],
        start_score=(29, 28),
    )
    assert r.state.is_over and r.state.winner == 1
    assert r.state.score == (29, 30)
    assert r.state.tricks == () and points(r) == [[0, 2]]
    assert r.summary()["finished"] is True


# --- flor ---------------------------------------------------------------------------------


def test_flor_off_by_default_three_of_a_suit_count_as_envido():
    state = start(V, deal("7e 6e 5e", "12c 11c 5o"))
    assert "flor" not in state.legal_actions() and "envido" in state.legal_actions()
    with pytest.raises(IllegalAction, match="option flor"):
        state.apply("flor")


def test_flor_must_be_declared_before_the_holders_first_card():
    state = start(V, deal("7e 6e 5e", "12c 11c 5o"), options=FLOR)
    assert state.legal_actions() == ("flor",)
    with pytest.raises(IllegalAction, match="must declare"):
        state.apply("play 7e")
    state = act(state, "0 flor")
    assert state.to_act == 0 and "play 7e" in state.legal_actions()


def test_flor_scores_three_and_there_is_no_envido_in_that_hand():
    state = act(start(V, deal("7e 6e 5e", "4c 4o 4b"), options=FLOR), "0 flor")
    assert "envido" not in state.legal_actions()
    state = act(state, "0 play 7e")
    assert not {"envido", "real_envido", "falta_envido"} & set(state.legal_actions())
    state = act(state, "1 play 4c")
    assert state.score == (3, 0)  # scored when the first trick ends
    state = act(state, "0 play 6e", "1 play 4o")
    assert state.hand_points == ((4, 0),)


def test_flor_holder_answering_a_truco_declares_the_flor_first():
    state = start(V, deal("12c 11c 5o", "7e 6e 5e"), options=FLOR)
    state = act(state, "0 truco")
    assert state.legal_actions() == ("flor",)
    state = act(state, "1 flor")
    assert state.phase == "answer" and state.legal_actions() == ("accept", "refuse", "truco")
    state = act(state, "1 refuse")
    assert state.hand_points == ((1, 3),)  # the declared flor scores before the refused truco


def test_envido_called_before_a_flor_was_declared_is_void():
    state = start(V, deal("12c 11c 5o", "7e 6e 5e"), options=FLOR)
    state = act(state, "0 envido")
    # Singing flor is compulsory: seat 1's flor is declared and nobody scores the envido.
    assert state.score == (0, 0) and state.phase == "play" and state.to_act == 0
    extra = state.observation(0).extra
    assert extra["envido_status"] == "void" and extra["revealed"]["flor"] == (1,)
    state = act(state, "0 play 5o")
    assert state.legal_actions() == ("fold", "play 5e", "play 6e", "play 7e", "truco")
    state = act(state, "1 play 7e")
    assert state.score == (0, 3)


@pytest.mark.parametrize(
    ("cards", "expected", "best"),
    [
        # Seats 0 and 2 (team 0) hold flors of 30 and 26, seat 1 one of 25: team 0 scores 6.
        (("7o 3o 10o", "2b 3b 11b", "6e 10e 12e", "4c 5c 6b"), (6, 0), (0, 30)),
        # Seat 3's flor of 38 is the best: team 1 scores 3 for its one flor.
        (("7o 3o 10o", "4b 5b 6o", "6e 10e 12e", "7c 6c 5c"), (0, 3), (3, 38)),
    ],
)
def test_best_flor_team_scores_three_for_each_flor_it_holds(cards, expected, best):
    state = start(V, [(list(cards), None)], players=4, options=FLOR)
    flors = [s for s in range(4) if cards[s].split()[0][-1] == cards[s].split()[2][-1]]
    for seat in range(4):
        card = cards[seat].split()[0]
        if seat in flors:
            state = act(state, f"{seat} flor")
        state = act(state, f"{seat} play {card}")
    assert state.score == expected
    assert state.observation(0).extra["revealed"]["best_flor"] == {
        "seat": best[0],
        "points": best[1],
    }
    assert flor_points(cards[best[0]].split()) == best[1]


def test_flor_that_reaches_the_target_ends_the_game_and_the_hand_does_not_count():
    # Team 1 on 29 would win on the fold, but the flor is scored first and wins the game.
    r = play(
        V,
        [hand(["7e 6e 5e", "12c 11c 5o"], ["0 flor", "0 fold"])],
        start_score=(28, 29),
        options=FLOR,
    )
    assert r.state.is_over and r.state.winner == 0
    assert r.state.score == (31, 29)


def test_flor_that_reaches_the_target_at_the_end_of_the_first_trick_ends_the_game():
    actions = ["0 flor", "0 play 5e", "1 play 1e"]
    r = play(V, [hand(["7e 6e 5e", "1e 11c 5o"], actions)], start_score=(28, 0), options=FLOR)
    assert r.state.is_over and r.state.score == (31, 0) and r.state.results == (1,)


# --- folding (irse al mazo) ---------------------------------------------------------------


def test_fold_gives_the_opponents_the_hands_current_value():
    state = start(V, deal("1e 4b 5c", "3c 6o 7b"))
    state = act(state, "0 truco", "1 accept", "0 play 1e", "1 play 3c", "0 fold")
    assert state.hand_points == ((0, 2),)


def test_fold_in_the_first_trick_before_any_envido_gives_one_more_point():
    assert act(start(V, deal("1e 4b 5c", "3c 6o 7b")), "0 fold").hand_points == ((0, 2),)
    # Once the envido was played, the fold is worth the hand's value only.
    state = act(start(V, deal("7e 6e 5c", "3c 6o 7b")), "0 envido", "1 refuse", "0 fold")
    assert state.hand_points == ((1, 1),)


def test_mazo_option_off_nobody_may_fold():
    state = start(V, deal("1e 4b 5c", "3c 6o 7b"), options={"mazo": False})
    assert "fold" not in state.legal_actions()
    with pytest.raises(IllegalAction, match="option mazo"):
        state.apply("fold")


# --- target -------------------------------------------------------------------------------


def test_first_team_to_thirty_wins_the_game():
    r = play(V, [hand(["1e 4b 5c", "3c 6o 7b"], ["0 fold"])], start_score=(0, 28))
    assert r.state.is_over and r.state.winner == 1 and r.state.score == (0, 30)


def test_target_15_option_and_preset_end_the_game_at_15():
    game = get_variant(V)
    assert game.rules({"target": 15}).target == 15
    assert game.rules(preset="argentino-15").target == 15
    r = play(
        V, [hand(["1e 4b 5c", "3c 6o 7b"], ["0 fold"])], start_score=(0, 13), options={"target": 15}
    )
    assert r.state.is_over and r.state.score == (0, 15)
    with pytest.raises(OptionError, match="must be one of 30, 15"):
        get_variant(V).rules({"target": 20})


# --- presets, schema, records -------------------------------------------------------------


def test_variant_exposes_presets_option_schema_and_rules_summary():
    info = get_variant(V).describe()
    assert info["name"] == V and info["players"] == [2, 4]
    assert "envido" in info["summary"] and "flor" in info["summary"]
    options = {o["name"]: o for o in info["options"]}
    assert options["target"] == {
        "name": "target",
        "type": "int",
        "default": 30,
        "help": options["target"]["help"],
        "choices": [30, 15],
    }
    assert options["flor"]["default"] is False and options["mazo"]["default"] is True
    assert options["falta_envido"]["choices"] == ["leader_lacks", "game_in_malas"]
    assert all(o["help"] for o in options.values())
    assert info["presets"] == {"argentino-15": {"target": 15}, "argentino-flor": {"flor": True}}


@pytest.mark.parametrize("players", [2, 4])
def test_records_store_the_presets_resolved_options_and_replay_identically(players):
    game = play_game(V, ["random"] * players, preset="argentino-flor", seed=3, notify=False)
    data = game.record
    assert data["variant"] == V and data["options"] == {"flor": True}
    assert all("vira" not in h for h in data["hands"])
    rebuilt = replay(json.loads(json.dumps(data)))
    assert rebuilt.state.score == game.score and rebuilt.state.winner == game.winner


def test_hand_points_in_a_replay_include_envido_and_flor():
    r = play(
        V,
        [
            hand(["7e 6e 4b", "12c 11c 5o"], ["0 envido", "1 accept", "0 fold"]),
            hand(["7o 6o 5o", "1e 2e 3e"], ["1 flor", "1 play 1e", "0 flor", "0 fold"]),
        ],
        options=FLOR,
    )
    # Hand 0: envido 2 to team 0, the fold 1 to team 1. Hand 1 (seat 1 is the mano): seat 0's
    # flor (38) beats seat 1's (26), team 0 scores 3, and seat 0 folds for 1 to team 1.
    assert points(r) == [[2, 1], [3, 1]]


def test_auto_play_refuses_an_envido_and_declares_a_flor():
    rules = get_variant(V).rules()
    state = act(start(V, deal("7e 6e 4b", "12c 11c 5o")), "0 envido")
    assert rules.default_action(state) == "refuse"
    flor_state = start(V, deal("7e 6e 5e", "12c 11c 5o"), options=FLOR)
    assert flor_state.rules.default_action(flor_state) == "flor"


# --- observations -------------------------------------------------------------------------


def test_refused_envido_reveals_no_points():
    state = act(start(V, deal("7e 6e 4b", "5o 4o 12c")), "0 envido", "1 refuse")
    for seat in (0, 1):
        extra = state.observation(seat).extra
        assert extra["envido_status"] == "refused" and "revealed" not in extra


def test_accepted_envido_shows_only_the_winning_points():
    state = act(start(V, deal("7e 6e 4b", "5o 4o 12c")), "0 envido", "1 accept")
    for seat in (0, 1):
        observation = state.observation(seat)
        assert observation.extra["revealed"] == {"envido": {"seat": 0, "points": 33}}
        assert "29" not in json.dumps(observation.to_dict())  # the loser's envido stays secret
        # What child-process bots and the REST API get back reads the same.
        assert Observation.from_dict(json.loads(json.dumps(observation.to_dict()))) == observation


def test_envido_result_stays_visible_in_the_previous_hand_after_the_next_deal():
    deals = deal("7e 6e 4b", "5o 4o 12c") + deal("1e 2e 3e", "1o 2o 3o")
    state = act(start(V, deals), "0 envido", "1 accept", "0 truco", "1 refuse")
    assert state.hand_no == 1 and state.observation(1).extra == {}
    previous = state.observation(1).previous_hand
    assert previous["points"] == (3, 0)
    assert previous["extra"]["revealed"] == {"envido": {"seat": 0, "points": 33}}


def test_pending_envido_is_public_with_its_calls_and_caller():
    state = act(start(V, deal("7e 6e 4b", "5o 4o 12c")), "0 envido", "1 real_envido")
    extra = state.observation(0).extra
    assert extra["envido_calls"] == ("envido", "real_envido")
    assert extra["envido_status"] == "pending" and extra["envido_bettor"] == 1


def test_observation_shows_own_cards_only():
    state = start(V, deal("7e 6e 4b", "5o 4o 12c", "1e 2e 3e", "1o 2o 3o"), players=4)
    for seat in range(4):
        observation = json.dumps(state.observation(seat).to_dict())
        for other in range(4):
            for card in state.dealt[other]:
                assert (f'"{card}"' in observation) == (other == seat), (seat, card)


# --- the replay command -------------------------------------------------------------------


def run_replay(data):
    return subprocess.run(
        [sys.executable, "-m", "engine", "replay", "-"],
        input=json.dumps(data),
        capture_output=True,
        text=True,
    )


def test_replay_command_replays_an_argentino_record():
    data = record(V, [hand(["12c 11c 1e", "7e 6e 4b"], ["0 truco", "1 envido", "0 accept"])])
    proc = run_replay(data)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {
        "score": [0, 2],
        "winner": None,
        "finished": False,
        "hands": [{"points": [0, 2]}],
        "to_act": 1,
        "legal": ["accept", "refuse", "truco"],
    }


def test_replay_command_rejects_an_illegal_argentino_action_with_exit_2():
    data = record(V, [hand(["12c 11c 1e", "7e 6e 4b"], ["0 truco", "1 accept", "0 envido"])])
    proc = run_replay(data)
    assert proc.returncode == 2
    error = json.loads(proc.stdout)
    assert error["hand"] == 0 and error["action"] == 2 and "envido" in error["error"]


def test_record_keeper_writes_an_argentino_record_that_replays_to_the_same_state():
    state = start(V, deal("12c 11c 1e", "7e 6e 4b"), options=FLOR)
    keeper = RecordKeeper(state)
    for step in ("0 truco", "1 envido", "0 accept", "1 accept", "0 play 1e"):
        seat, action = step.split(" ", 1)
        keeper.open_hand(state.hand_no).append([int(seat), action])
        state = state.apply(action)
    assert replay(keeper.record(state)).state.snapshot() == state.snapshot()
