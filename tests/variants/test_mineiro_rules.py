"""Truco Mineiro: one scenario per rule and per option of RULES.md section 2, from explicit deals,
exact scores.

Unless a test says otherwise: 2 players, seat 0 is the mão of the first hand (seat 1 deals), and
the default options (stakes 2-4-8-12, showdown after a tied first trick, target 12). Four-player
deals list seats 0, 1, 2, 3 with seat 3 dealing, so seat 0 is the mão there too.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine.cards import DECKS
from engine.deals import Deal
from engine.errors import IllegalAction, OptionError, RecordError
from engine.plugins import get_variant
from engine.records import replay
from engine.runner import play_game
from tests.support import act, hand, play, record

V = "mineiro"
NO_SHOWDOWN = {"first_tie_showdown": False}
FOUR = ["3c Kh 5h", "3d Qs 6s", "4h Jc 6c", "5s Js 6d"]  # a four-player deal whose trick one ties
LOTS = [["4c", "7h", "As"], ["7d", "3h", "3s"], ["2h", "2s", "Ah"]]


def points(replay):
    return [list(p) for p in replay.hand_points]


def one_hand(cards, actions=(), players=2, **kwargs):
    return play(V, [hand(cards, actions)], players=players, **kwargs)


def begin(cards, *, players=2, lots=(), **kwargs):
    """A game at the start of one explicit hand (with the mão's lots, if any)."""
    hands = tuple(tuple(c.split()) for c in cards)
    extra = tuple(card for lot in lots for card in lot)
    return get_variant(V).new_game(
        players, deals=[Deal(hands, None, extra)], first_dealer=players - 1, **kwargs
    )


def words(observation) -> set[str]:
    return set(repr(observation).replace("'", " ").replace('"', " ").split())


# --- players and deck ---------------------------------------------------------------------


def test_players_two_or_four_and_no_other_count():
    game = get_variant(V)
    assert game.new_game(2).players == 2 and game.new_game(4).players == 4
    with pytest.raises(OptionError, match="mineiro is played by 2 or 4 players, not 3"):
        game.new_game(3)


def test_french_forty_card_deck_and_no_vira():
    state = get_variant(V).new_game(4, seed=5)
    dealt = [card for cards in state.dealt for card in cards]
    assert state.vira is None and state.observation(0).vira is None
    assert len(set(dealt)) == 12 and set(dealt) <= set(DECKS["french40"])
    with pytest.raises(RecordError, match="mineiro has no vira"):
        play(V, [hand(["3c 3h 4h", "2c 2h 4s"], vira="7d")])


# --- card strength ------------------------------------------------------------------------


def test_fixed_manilhas_zap_copas_espadilha_pica_fumo_above_the_threes():
    for strong, weak in (("4c", "7h"), ("7h", "As"), ("As", "7d"), ("7d", "3c")):
        r = one_hand([f"{weak} 5h 6h", f"{strong} 5s 6s"], [f"0 play {weak}", f"1 play {strong}"])
        assert r.state.results == (1,), (strong, weak)


def test_other_fours_sevens_and_aces_are_common_cards():
    for strong, weak in (("5c", "4d"), ("Qc", "7s"), ("2c", "Ad"), ("Ah", "Kc")):
        r = one_hand([f"{weak} 6h 6s", f"{strong} 5s 5d"], [f"0 play {weak}", f"1 play {strong}"])
        assert r.state.results == (1,), (strong, weak)


def test_common_cards_rank_3_2_a_k_j_q_7_6_5_4():
    order = ["3", "2", "A", "K", "J", "Q", "7", "6", "5", "4"]
    for high, low in zip(order, order[1:], strict=False):
        # Suits that are never manilhas for these ranks: 3-2-K-J-Q-6-5 any, A of hearts, 7 of
        # spades, 4 of diamonds.
        low_card = {"A": "Ah", "7": "7s", "4": "4d"}.get(low, low + "d")
        high_card = {"A": "Ac", "7": "7c"}.get(high, high + "h")
        fillers = [c for c in DECKS["french40"] if c[:-1] not in (high, low)][4:8]
        cards = [[low_card, *fillers[:2]], [high_card, *fillers[2:]]]
        r = one_hand(cards, [f"0 play {low_card}", f"1 play {high_card}"])
        assert r.state.results == (1,), (high_card, low_card)


def test_suits_do_not_matter_outside_manilhas_equal_ranks_tie():
    r = one_hand(["3c 4h 5h", "3d 4s 5s"], ["0 play 3c", "1 play 3d"])
    assert r.state.results == (-1,)


# --- tricks and ties (as in Paulista) -----------------------------------------------------


def test_two_tricks_win_the_hand_worth_two():
    r = one_hand(["3c 3h 4h", "2c 2h 4s"], ["0 play 3c", "1 play 2c", "0 play 3h", "1 play 2h"])
    assert points(r) == [[2, 0]]


def test_trick_winner_leads_the_next_trick():
    state = act(begin(["3c 3h 4h", "2c 2h 4s"]), "0 play 4h", "1 play 2c")
    assert state.to_act == 1


def test_equal_top_cards_of_partners_win_for_their_team_first_played_leads():
    state = begin(["3c 4h 5h", "2h 4s 5s", "3d 6h 6s", "Kh 7c 7s"], players=4)
    state = act(state, "0 play 3c", "1 play 2h", "2 play 3d", "3 play Kh")
    assert state.results == (0,) and state.to_act == 0


def test_first_trick_tied_without_showdown_the_next_trick_won_decides():
    actions = ["0 play 3c", "1 play 3d", "0 play Kh", "1 play Qs"]
    r = one_hand(["3c Kh 5h", "3d Qs 6s"], actions, options=NO_SHOWDOWN)
    assert points(r) == [[2, 0]]


def test_after_a_tied_trick_the_player_who_led_it_leads_again():
    state = begin(["3c Kh 5h", "3d Qs 6s"], options=NO_SHOWDOWN)
    state = act(state, "0 play 3c", "1 play 3d")
    assert state.to_act == 0 and state.phase == "play"


def test_second_trick_tied_the_first_trick_winner_wins():
    actions = ["0 play 3c", "1 play 2c", "0 play Kh", "1 play Ks"]
    r = one_hand(["3c Kh 5h", "2c Ks 6s"], actions)
    assert points(r) == [[2, 0]] and r.state.hand_no == 1


def test_third_trick_tied_the_first_trick_winner_wins():
    actions = ["0 play 3c", "1 play 2c", "0 play 4h", "1 play 2h", "1 play 5s", "0 play 5h"]
    r = one_hand(["3c 4h 5h", "2c 2h 5s"], actions)
    assert points(r) == [[2, 0]]


def test_all_tied_no_points_by_default_and_dealer_team_option():
    actions = ["0 play 3c", "1 play 3d", "0 play Kh", "1 play Ks", "0 play 5h", "1 play 5s"]
    r = one_hand(["3c Kh 5h", "3d Ks 5s"], actions, options=NO_SHOWDOWN)
    assert points(r) == [[0, 0]] and r.state.hand_no == 1
    r = one_hand(
        ["3c Kh 5h", "3d Ks 5s"], actions, options=NO_SHOWDOWN | {"all_tied": "dealer_team"}
    )
    assert points(r) == [[0, 2]]  # seat 1 dealt


# --- the first-trick-tie showdown ---------------------------------------------------------


def test_first_tie_showdown_each_seat_plays_both_cards_at_once_from_the_leader_of_the_tie():
    state = act(begin(["3c Kh 5h", "3d Qs 6s"]), "0 play 3c", "1 play 3d")
    assert state.phase == "showdown" and state.to_act == 0
    assert state.legal_actions() == ("pair 5h Kh", "pair Kh 5h", "truco")
    state = act(state, "0 pair Kh 5h")
    assert state.to_act == 1 and state.legal_actions() == ("pair 6s Qs", "pair Qs 6s", "truco")


def test_first_tie_showdown_up_cards_decide():
    actions = ["0 play 3c", "1 play 3d", "0 pair Kh 5h", "1 pair Qs 6s"]
    r = one_hand(["3c Kh 5h", "3d Qs 6s"], actions)
    assert points(r) == [[2, 0]]
    # The down cards do not count while the up cards decide: 6s would beat 5h.
    actions = ["0 play 3c", "1 play 3d", "0 pair 5h Kh", "1 pair 6s Qs"]
    r = one_hand(["3c Kh 5h", "3d Qs 6s"], actions)
    assert points(r) == [[0, 2]]


def test_first_tie_showdown_second_tie_the_down_cards_decide():
    actions = ["0 play 3c", "1 play 3d", "0 pair Kh 5h", "1 pair Ks 6s"]
    r = one_hand(["3c Kh 5h", "3d Ks 6s"], actions)
    assert points(r) == [[0, 2]]


def test_first_tie_showdown_third_tie_is_all_tied_no_points():
    actions = ["0 play 3c", "1 play 3d", "0 pair Kh 5h", "1 pair Ks 5s"]
    r = one_hand(["3c Kh 5h", "3d Ks 5s"], actions)
    assert points(r) == [[0, 0]] and r.state.hand_no == 1


def test_first_tie_showdown_four_players_pair_in_turn_and_partners_win_together():
    state = act(begin(FOUR, players=4), "0 play 3c", "1 play 3d", "2 play 4h", "3 play 5s")
    assert state.phase == "showdown" and state.to_act == 0
    r = one_hand(
        FOUR,
        [
            "0 play 3c",
            "1 play 3d",
            "2 play 4h",
            "3 play 5s",
            "0 pair 5h Kh",
            "1 pair Qs 6s",
            "2 pair 6c Jc",  # up cards 5h Qs 6c Js: seat 1's queen
            "3 pair Js 6d",
        ],
        players=4,
    )
    assert points(r) == [[0, 2]]


def test_first_tie_showdown_truco_may_be_called_before_pairing():
    actions = ["0 play 3c", "1 play 3d", "0 truco", "1 accept", "0 pair Kh 5h", "1 pair Qs 6s"]
    r = one_hand(["3c Kh 5h", "3d Qs 6s"], actions)
    assert points(r) == [[4, 0]]
    state = act(begin(["3c Kh 5h", "3d Qs 6s"]), "0 play 3c", "1 play 3d", "0 truco", "1 accept")
    assert state.phase == "showdown" and state.to_act == 0  # the pair is still to be played


def test_first_tie_showdown_down_card_hidden_from_other_seats_until_shown():
    state = act(begin(["3c Kh 5h", "3d Qs 6s"]), "0 play 3c", "1 play 3d", "0 pair Kh 5h")
    theirs, mine = state.observation(1), state.observation(0)
    assert theirs.trick == ((0, "Kh", False),)
    assert theirs.history[-1] == (0, "pair Kh")
    assert "5h" not in words(theirs)
    assert mine.covered == ("5h",) and mine.hand == ()


def test_first_tie_showdown_in_a_hand_of_ten_an_up_card_not_above_its_down_card_is_worth_nothing():
    # Seat 0 shows a king over a two: worthless, so seat 1's queen takes the up cards.
    deal = ["3c Kh 2h", "3d Qs 4s"]
    actions = ["0 accept", "0 play 3c", "1 play 3d", "0 pair Kh 2h", "1 pair Qs 4s"]
    r = one_hand(deal, actions, start_score=(10, 4))
    assert points(r) == [[0, 4]] and r.state.score == (10, 8)  # a hand of ten lost after playing
    r = one_hand(deal, actions[1:], start_score=(4, 4))
    assert points(r) == [[2, 0]]  # outside a hand of ten the king wins


def test_first_tie_showdown_in_a_hand_of_ten_both_up_cards_worthless_the_down_cards_decide():
    # Seat 1's two would beat seat 0's king, but both lie over stronger cards: the zap decides.
    deal = ["3c Kh 4c", "3d 2s 3s"]
    actions = ["0 accept", "0 play 3c", "1 play 3d", "0 pair Kh 4c", "1 pair 2s 3s"]
    r = one_hand(deal, actions, start_score=(10, 4))
    assert points(r) == [[4, 0]] and r.state.winner == 0
    r = one_hand(deal, actions[1:], start_score=(4, 4))
    assert points(r) == [[0, 2]]


def test_first_tie_showdown_blind_iron_hand_pairs_by_slot_and_sees_no_own_card():
    state = act(begin(["3c Kh 5h", "3d Qs 6s"], start_score=(10, 10)), "0 play #0", "1 play #0")
    assert state.legal_actions() == ("pair #1 #2", "pair #2 #1")
    state = act(state, "0 pair #1 #2")
    assert state.trick == ((0, "Kh", False),)
    for seat in (0, 1):
        assert "5h" not in words(state.observation(seat))
    r = one_hand(
        ["3c Kh 5h", "3d Qs 6s"],
        ["0 play #0", "1 play #0", "0 pair #1 #2", "1 pair #1 #2"],
        start_score=(10, 10),
    )
    assert r.state.winner == 0 and r.state.score == (12, 10)


def test_first_tie_showdown_option_off_plays_the_second_trick():
    state = act(begin(["3c Kh 5h", "3d Qs 6s"], options=NO_SHOWDOWN), "0 play 3c", "1 play 3d")
    assert state.phase == "play"
    assert not any(a.startswith("pair") for a in state.legal_actions())


def test_first_tie_showdown_auto_play_shows_the_stronger_card():
    state = act(begin(["3c 5h Kh", "3d Qs 6s"]), "0 play 3c", "1 play 3d")
    assert state.rules.default_action(state) == "pair Kh 5h"


# --- stakes -------------------------------------------------------------------------------


def test_ladder_hand_is_worth_two_without_bets():
    r = one_hand(["3c 3h 4h", "2c 2h 4s"], ["0 play 3c", "1 play 2c", "0 play 3h", "1 play 2h"])
    assert r.state.score == (2, 0)


def test_ladder_truco_four_six_eight_nine_twelve_wins_the_game():
    state = begin(["3c 3h 4h", "2c 2h 4s"])
    pending = []
    for seat in (0, 1, 0):
        state = act(state, f"{seat} truco")
        pending.append(state.observation(1).pending)
    assert pending == [4, 8, 12]
    assert state.legal_actions() == ("accept", "refuse")  # nothing above twelve
    state = act(state, "1 accept", "0 play 3c", "1 play 2c", "0 play 3h", "1 play 2h")
    assert state.winner == 0 and state.score == (12, 0)


@pytest.mark.parametrize(
    ("calls", "refuser", "expected"), [(1, 1, [2, 0]), (2, 0, [0, 4]), (3, 1, [8, 0])]
)
def test_ladder_refusing_gives_the_callers_the_value_before_the_call(calls, refuser, expected):
    actions = [f"{i % 2} truco" for i in range(calls)] + [f"{refuser} refuse"]
    r = one_hand(["3c 3h 4h", "2c 2h 4s"], actions)
    assert points(r) == [expected]


def test_ladder_a_team_never_raises_twice_in_a_row():
    state = act(begin(["3c 3h 4h", "2c 2h 4s"]), "0 truco", "1 accept")
    assert "truco" not in state.legal_actions()
    state = act(state, "0 play 3c")
    assert "truco" in state.legal_actions()


def test_ladder_option_sets_the_stakes_and_the_hand_of_n():
    options = {"ladder": [1, 3, 6, 9, 12]}
    r = one_hand(["3c 3h 4h", "2c 2h 4s"], ["0 truco", "1 truco", "0 refuse"], options=options)
    assert points(r) == [[0, 3]]
    state = begin(["3c 3h 4h", "2c 2h 4s"], options=options, start_score=(11, 0))
    assert state.phase == "decide"
    assert begin(["3c 3h 4h", "2c 2h 4s"], options=options, start_score=(10, 0)).phase == "play"


def test_ladder_option_bad_values_are_clear_errors():
    for bad in ([4, 2], [2], "2-4-8", [0, 2]):
        with pytest.raises(OptionError, match="increasing positive integers"):
            get_variant(V).new_game(2, {"ladder": bad})
    with pytest.raises(OptionError, match="must be below the target 3"):
        get_variant(V).new_game(2, {"ladder": [3, 6], "target": 3})


# --- mão de dez ---------------------------------------------------------------------------


def test_mao_de_dez_played_is_worth_four():
    actions = ["0 accept", "0 play 3c", "1 play 2c", "0 play 3h", "1 play 2h"]
    r = one_hand(["3c 3h 4h", "2c 2h 4s"], actions, start_score=(10, 4))
    assert points(r) == [[4, 0]] and r.state.winner == 0


def test_mao_de_dez_lost_after_playing_gives_the_opponents_four():
    actions = ["0 accept", "0 play 4h", "1 play 3c", "1 play 2h", "0 play 5h"]
    r = one_hand(["4h 5h 6h", "3c 2h 7s"], actions, start_score=(10, 4))
    assert points(r) == [[0, 4]] and r.state.score == (10, 8)


def test_mao_de_dez_refused_gives_the_opponents_two_and_a_new_hand():
    r = one_hand(["3c 3h 4h", "2c 2h 4s"], ["0 refuse"], start_score=(10, 4))
    assert points(r) == [[0, 2]] and r.state.score == (10, 6) and r.state.hand_no == 1


def test_mao_de_dez_nobody_may_call_truco():
    state = begin(["3c 3h 4h", "2c 2h 4s"], start_score=(10, 4))
    assert state.legal_actions() == ("accept", "refuse")
    state = act(state, "0 accept")
    assert "truco" not in state.legal_actions()
    with pytest.raises(IllegalAction, match="nobody may call truco"):
        state.apply("truco")


def test_mao_de_dez_truco_at_eleven_option_loses_the_game():
    r = one_hand(
        ["3c 3h 4h", "2c 2h 4s"],
        ["0 accept", "0 play 3c", "1 truco"],
        start_score=(10, 4),
        options={"truco_at_eleven": "loses_game"},
    )
    assert r.state.winner == 0 and r.state.score == (12, 4)


def test_mao_de_dez_decided_by_the_team_seat_nearest_the_mao():
    state = begin(FOUR, players=4, start_score=(4, 10))
    assert state.phase == "decide" and state.to_act == 1


def test_mao_de_dez_partner_cards_visible_only_to_the_deciding_team():
    state = begin(FOUR, players=4, start_score=(4, 10))
    assert dict(state.observation(1).partner_cards) == {3: ("5s", "Js", "6d")}
    assert dict(state.observation(3).partner_cards) == {1: ("3d", "Qs", "6s")}
    for seat in (0, 2):
        observation = state.observation(seat)
        assert not observation.partner_cards
        assert not {"5s", "Js", "6d", "3d", "Qs", "6s"} & words(observation)


def test_mao_de_ferro_both_on_ten_blind_no_truco_and_the_winner_wins_the_game():
    state = begin(["3c 3h 4h", "2c 2h 4s"], start_score=(10, 10))
    assert state.kind == "iron" and state.legal_actions() == ("play #0", "play #1", "play #2")
    assert state.observation(0).hand == ("#0", "#1", "#2")
    assert not {"3c", "3h", "4h"} & words(state.observation(0))
    actions = ["0 play #0", "1 play #0", "0 play #1", "1 play #1"]
    r = one_hand(["3c 3h 4h", "2c 2h 4s"], actions, start_score=(10, 10))
    assert r.state.winner == 0 and r.state.score == (12, 10)


def test_mao_de_ferro_nobody_sees_partner_cards():
    state = begin(FOUR, players=4, start_score=(10, 10))
    assert all(not state.observation(seat).partner_cards for seat in range(4))


def test_mao_de_ferro_all_tied_is_dealt_again():
    actions = ["0 play #0", "1 play #0", "0 pair #1 #2", "1 pair #1 #2"]
    r = play(
        V,
        [hand(["3c Kh 5h", "3d Ks 5s"], actions), hand(["4c 4h 4s", "5c 5d 6s"])],
        start_score=(10, 10),
        options={"all_tied": "dealer_team"},
    )
    assert r.state.score == (10, 10) and r.state.hand_no == 1 and r.state.kind == "iron"


def test_iron_hand_blind_option_off_shows_own_cards():
    state = begin(
        ["3c 3h 4h", "2c 2h 4s"], start_score=(10, 10), options={"iron_hand_blind": False}
    )
    assert state.observation(0).hand == ("3c", "3h", "4h")


# --- covered cards ------------------------------------------------------------------------


def test_covered_card_from_the_second_trick_wins_nothing_and_is_hidden_from_others():
    state = begin(["2c 4h 5h", "3c 3s 6s"])
    assert not any(a.startswith("cover") for a in state.legal_actions())
    state = act(state, "0 play 2c", "1 play 3c", "1 cover 3s")
    assert state.observation(1).covered == ("3s",)
    assert "3s" not in words(state.observation(0))
    assert state.observation(0).trick == ((1, None, True),)
    state = act(state, "0 play 4h")
    assert state.results == (1, 0)


def test_covered_cards_option_off_forbids_them():
    state = begin(["3c 4h 5h", "2c 3s 6s"], options={"covered_cards": False})
    state = act(state, "0 play 3c", "1 play 2c")
    assert not any(a.startswith("cover") for a in state.legal_actions())


# --- target -------------------------------------------------------------------------------


def test_target_twelve_first_team_to_reach_it_wins():
    actions = ["0 truco", "1 accept", "0 play 3c", "1 play 2c", "0 play 3h", "1 play 2h"]
    r = one_hand(["3c 3h 4h", "2c 2h 4s"], actions, start_score=(8, 9))
    assert r.state.winner == 0 and r.state.score == (12, 9) and r.state.legal_actions() == ()


def test_target_option_moves_the_hand_of_ten():
    state = begin(["3c 3h 4h", "2c 2h 4s"], start_score=(13, 3), options={"target": 15})
    assert state.phase == "decide"


# --- no_winning_raise ---------------------------------------------------------------------


def test_no_winning_raise_a_team_may_not_raise_when_accepting_alone_wins_the_game():
    options = {"no_winning_raise": True}
    state = act(begin(["3c 3h 4h", "2c 2h 4s"], start_score=(8, 4), options=options), "0 play 3c")
    state = act(state, "1 truco")
    assert state.legal_actions() == ("accept", "refuse")  # 8 + 4 already wins
    state = act(begin(["3c 3h 4h", "2c 2h 4s"], start_score=(6, 4), options=options), "0 play 3c")
    assert "truco" in act(state, "1 truco").legal_actions()


def test_no_winning_raise_also_bars_raising_on_ones_own_turn():
    options = {"no_winning_raise": True}
    state = begin(["3c 3h 4h", "2c 2h 4s"], start_score=(4, 8), options=options)
    state = act(state, "0 truco", "1 accept", "0 play 3c")
    assert state.to_act == 1 and "truco" not in state.legal_actions()
    state = begin(["3c 3h 4h", "2c 2h 4s"], start_score=(8, 4))  # the option is off by default
    assert "truco" in act(state, "0 play 3c", "1 truco").legal_actions()


# --- truco_on_trick -----------------------------------------------------------------------

ON_TRICK = {"truco_on_trick": True}


def test_truco_on_trick_an_accepted_truco_makes_the_current_trick_decide_the_hand():
    actions = ["0 play 3c", "1 play 2c", "0 truco", "1 accept", "0 play 4h", "1 play 3h"]
    r = one_hand(["3c 4h Kh", "2c 3h 6s"], actions, options=ON_TRICK)
    assert points(r) == [[0, 4]] and r.state.hand_no == 1
    # Without the option the third trick is played, and seat 0 wins two tricks.
    r = one_hand(["3c 4h Kh", "2c 3h 6s"], [*actions, "1 play 6s", "0 play Kh"])
    assert points(r) == [[4, 0]]


def test_truco_on_trick_tie_with_a_card_played_before_the_bet_the_last_bettors_lose():
    actions = ["0 play 3c", "1 play 2c", "0 play Kh", "1 truco", "0 accept", "1 play Ks"]
    r = one_hand(["3c Kh 5h", "2c Ks 6s"], actions, options=ON_TRICK)
    assert points(r) == [[4, 0]]
    # A raise makes its caller the last bettor: seat 0 raised to six, so seat 0 loses.
    actions = ["0 play 3c", "1 play 2c", "0 play Kh", "1 truco", "0 truco", "1 accept", "1 play Ks"]
    r = one_hand(["3c Kh 5h", "2c Ks 6s"], actions, options=ON_TRICK)
    assert points(r) == [[0, 8]]


def test_truco_on_trick_tie_with_both_cards_played_after_the_bet_the_next_trick_decides():
    actions = ["0 play 3c", "1 play 2c", "0 truco", "1 accept", "0 play Kh", "1 play Ks"]
    state = act(begin(["3c Kh 5h", "2c Ks 6s"], options=ON_TRICK), *actions)
    assert state.trick_no == 2 and state.to_act == 0
    assert state.observation(1).extra["trick_decides_hand"] is True
    r = one_hand(["3c Kh 5h", "2c Ks 6s"], [*actions, "0 play 5h", "1 play 6s"], options=ON_TRICK)
    assert points(r) == [[0, 4]]  # the usual rule would give the hand to the first trick's winner


def test_truco_on_trick_tie_in_the_last_trick_scores_nothing():
    actions = ["0 play 3c", "1 play 2c", "0 play Kh", "1 play 3h"]
    actions += ["1 truco", "0 accept", "1 play 5s", "0 play 5h"]
    r = one_hand(["3c Kh 5h", "2c 3h 5s"], actions, options=ON_TRICK)
    assert points(r) == [[0, 0]] and r.state.hand_no == 1


def test_truco_on_trick_refused_gives_the_value_before_the_bet():
    r = one_hand(["3c Kh 5h", "2c Ks 6s"], ["0 truco", "1 refuse"], options=ON_TRICK)
    assert points(r) == [[2, 0]]


def test_truco_on_trick_first_trick_tied_after_the_bet_goes_to_the_showdown():
    actions = ["0 truco", "1 accept", "0 play 3c", "1 play 3d"]
    state = act(begin(["3c Kh 5h", "3d Qs 6s"], options=ON_TRICK), *actions)
    assert state.phase == "showdown"
    r = one_hand(
        ["3c Kh 5h", "3d Qs 6s"], [*actions, "0 pair Kh 5h", "1 pair Qs 6s"], options=ON_TRICK
    )
    assert points(r) == [[4, 0]]


# --- deal_lots ----------------------------------------------------------------------------

WITH_LOTS = {"deal_lots": True}


def test_deal_lots_the_mao_keeps_burns_or_with_a_partner_passes_before_play():
    state = begin(["4h 5h 6h", "3c 2c Kd"], lots=LOTS, options=WITH_LOTS)
    assert state.phase == "lots" and state.to_act == 0
    assert state.legal_actions() == ("burn", "keep")
    assert act(state, "0 keep").phase == "play"
    state = begin(
        ["3c 4h 5h", "2c 4s 5s", "Kc 6h 6s", "Kh 7c 7s"], players=4, lots=LOTS, options=WITH_LOTS
    )
    assert state.legal_actions() == ("burn", "keep", "pass")


def test_deal_lots_burn_lays_the_lot_face_up_and_the_mao_plays_the_next():
    actions = ["0 burn", "0 keep", "0 play 4c", "1 play 3c", "0 play 7h", "1 play 2c"]
    r = play(V, [hand(["4h 5h 6h", "3c 2c Kd"], actions, lots=LOTS)], options=WITH_LOTS)
    assert points(r) == [[2, 0]]
    state = act(begin(["4h 5h 6h", "3c 2c Kd"], lots=LOTS, options=WITH_LOTS), "0 burn")
    assert state.observation(0).hand == ("4c", "7h", "As")
    assert state.observation(1).extra["burned"] == ("4h", "5h", "6h")
    assert "4c" not in words(state.observation(1))


def test_deal_lots_pass_gives_the_lot_to_the_partner_and_sets_its_cards_aside():
    state = begin(
        ["3c 4h 5h", "2c 4s 5s", "Kc 6h 6s", "Kh 7c 7s"], players=4, lots=LOTS, options=WITH_LOTS
    )
    state = act(state, "0 pass")
    assert state.observation(2).hand == ("3c", "4h", "5h")
    assert state.observation(0).hand == ("4c", "7h", "As")
    assert state.legal_actions() == ("burn", "keep")  # one pass a hand
    for opponent in (1, 3):
        assert not {"3c", "4c", "Kc"} & words(state.observation(opponent))
    state = act(state, "0 keep", "0 play 4c", "1 play 2c", "2 play 3c", "3 play Kh")
    state = act(state, "0 play 7h", "1 play 4s")
    with pytest.raises(IllegalAction):
        state.apply("play Kc")  # seat 2's own cards were set aside


def test_deal_lots_the_mao_sees_at_most_four_lots():
    state = act(begin(["4h 5h 6h", "3c 2c Kd"], lots=LOTS, options=WITH_LOTS), "0 burn", "0 burn")
    assert state.legal_actions() == ("burn", "keep")
    state = act(state, "0 burn")
    assert state.legal_actions() == ("keep",)
    assert state.observation(0).hand == ("2h", "2s", "Ah")
    assert len(state.observation(1).extra["burned"]) == 9


def test_deal_lots_come_before_the_mao_de_dez_decision_and_not_in_a_blind_iron_hand():
    state = begin(["4h 5h 6h", "3c 2c Kd"], lots=LOTS, options=WITH_LOTS, start_score=(10, 4))
    assert state.phase == "lots"
    state = act(state, "0 burn", "0 keep")
    assert state.phase == "decide" and state.to_act == 0
    state = begin(["4h 5h 6h", "3c 2c Kd"], lots=LOTS, options=WITH_LOTS, start_score=(10, 10))
    assert state.phase == "play" and state.blind


def test_deal_lots_the_partner_of_a_hand_of_ten_sees_the_lot_in_play():
    cards = ["3c 4h 5h", "2c 4s 5s", "Kc 6h 6s", "Kh 7c 7s"]
    state = begin(cards, players=4, lots=LOTS, options=WITH_LOTS, start_score=(10, 4))
    state = act(state, "0 pass", "0 keep")
    assert dict(state.observation(0).partner_cards) == {2: ("3c", "4h", "5h")}
    assert dict(state.observation(2).partner_cards) == {0: ("4c", "7h", "As")}


def test_deal_lots_are_in_the_record_and_replay_identically():
    result = play_game(V, ["random"] * 4, options=WITH_LOTS, seed=7, notify=False)
    first = result.record["hands"][0]
    assert len(first["lots"]) == 3 and all(len(lot) == 3 for lot in first["lots"])
    dealt = [c for cards in first["cards"] for c in cards] + [
        c for lot in first["lots"] for c in lot
    ]
    assert len(set(dealt)) == 21
    assert list(replay(result.record).state.score) == list(result.score)


def test_deal_lots_bad_record_lots_are_clear_errors():
    cards = ["4h 5h 6h", "3c 2c Kd"]
    with pytest.raises(RecordError, match="only with the deal_lots option"):
        play(V, [hand(cards, lots=LOTS)])
    with pytest.raises(RecordError, match="up to 3 lots of 3 cards"):
        play(V, [hand(cards, lots=[["4c", "7h"]])], options=WITH_LOTS)
    with pytest.raises(RecordError, match="card 3c is dealt twice"):
        play(V, [hand(cards, lots=[["4c", "7h", "3c"]])], options=WITH_LOTS)


def test_deal_lots_auto_play_keeps_the_lot():
    state = begin(["4h 5h 6h", "3c 2c Kd"], lots=LOTS, options=WITH_LOTS)
    assert state.rules.default_action(state) == "keep"


# --- presets, schema and records ----------------------------------------------------------


def test_mineiro_pagat_preset_ladder_hand_of_eleven_no_showdown_and_no_winning_raise():
    game = get_variant(V)
    options = game.resolve_options(preset="mineiro-pagat")
    assert options["ladder"] == (1, 3, 6, 9, 12) and options["no_winning_raise"] is True
    assert options["covered_cards"] and options["iron_hand_blind"]
    assert not options["truco_on_trick"] and not options["deal_lots"]
    assert not options["first_tie_showdown"]
    state = game.new_game(
        2,
        preset="mineiro-pagat",
        deals=[Deal((("3c", "3h", "4h"), ("2c", "2h", "4s")))],
        first_dealer=1,
        start_score=(11, 4),
    )
    assert state.phase == "decide"
    assert act(state, "0 refuse").score == (11, 5)  # the hand of eleven gives 1
    assert act(state, "0 accept").stake == 3


def test_mineiro_pagat_preset_iron_hand_all_tied_is_dealt_again():
    actions = ["0 play #0", "1 play #0", "0 play #1", "1 play #1", "0 play #2", "1 play #2"]
    r = play(
        V,
        [hand(["3c Kh 5h", "3d Ks 5s"], actions), hand(["4c 4h 4s", "5c 5d 6s"])],
        start_score=(11, 11),
        options=get_variant(V).presets["mineiro-pagat"],
    )
    assert r.state.score == (11, 11) and r.state.hand_no == 1 and r.state.kind == "iron"


def test_presets_options_and_summary_are_described_for_the_admin_and_api():
    described = get_variant(V).describe()
    assert described["summary"] and described["players"] == [2, 4]
    options = {o["name"]: o for o in described["options"]}
    assert options["ladder"] == {
        "name": "ladder",
        "type": "ladder",
        "default": [2, 4, 8, 12],
        "help": options["ladder"]["help"],
    }
    for name in ("first_tie_showdown", "no_winning_raise", "truco_on_trick", "deal_lots"):
        assert options[name]["type"] == "bool" and options[name]["help"]
    assert described["presets"]["mineiro-pagat"]["ladder"] == [1, 3, 6, 9, 12]
    full = described["presets"]["mineiro-pagat-full"]
    assert full["truco_on_trick"] is True and full["deal_lots"] is True
    json.dumps(described)  # plain data for the REST API


def test_a_record_stores_the_presets_resolved_options_and_replays_identically():
    result = play_game(V, ["random"] * 2, preset="mineiro-pagat", seed=3, notify=False)
    assert result.record["options"] == {
        "ladder": [1, 3, 6, 9, 12],
        "first_tie_showdown": False,
        "no_winning_raise": True,
    }
    rebuilt = replay(json.loads(json.dumps(result.record)))
    assert list(rebuilt.state.score) == list(result.score) and rebuilt.state.is_over


def test_unknown_preset_is_a_clear_error():
    with pytest.raises(OptionError, match="unknown preset 'pagat'; valid presets: mineiro-pagat"):
        get_variant(V).new_game(2, preset="pagat")


def test_replay_command_replays_mineiro_records_and_rejects_bad_ones(tmp_path):
    actions = ["0 burn", "0 keep", "0 play 4c", "1 play 3c", "0 play 7h", "1 play 2c"]
    good = record(V, [hand(["4h 5h 6h", "3c 2c Kd"], actions, lots=LOTS)], options=WITH_LOTS)
    bad = record(V, [hand(["4h 5h 6h", "3c 2c Kd"], ["0 burn"], lots=LOTS)])
    outputs = []
    for name, data in (("good", good), ("bad", bad)):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(data))
        proc = subprocess.run(
            [sys.executable, "-m", "engine", "replay", str(path)], capture_output=True, text=True
        )
        outputs.append((proc.returncode, json.loads(proc.stdout)))
    # The record holds one hand: the game waits for the next deal, whose mão is seat 1.
    assert outputs[0] == (
        0,
        {
            "score": [2, 0],
            "winner": None,
            "finished": False,
            "hands": [{"points": [2, 0]}],
            "to_act": 1,
            "legal": [],
        },
    )
    assert outputs[1][0] == 2 and "deal_lots" in outputs[1][1]["error"]
