"""Truco Paulista: one scenario per rule of RULES.md section 1, from explicit deals, exact scores.

Unless a test says otherwise: 2 players, seat 0 is the mão of the first hand (seat 1 deals), and
the vira 7d makes the queens the manilhas (Qc > Qh > Qs > Qd).
"""

from __future__ import annotations

import pytest

from engine.cards import DECKS
from engine.errors import IllegalAction, OptionError, RecordError
from engine.plugins import get_variant
from tests.support import act, hand, play, start

V = "paulista"


def points(replay):
    return [list(p) for p in replay.hand_points]


# --- players and deck ---------------------------------------------------------------------


def test_players_two_or_four_and_no_other_count():
    game = get_variant(V)
    assert game.new_game(2).players == 2
    assert game.new_game(4).players == 4
    with pytest.raises(OptionError, match="2 or 4 players"):
        game.new_game(3)


def test_dirty_deck_has_forty_cards_without_eights_nines_tens():
    deck = DECKS["french40"]
    assert len(deck) == 40
    assert not any(card[:-1] in ("8", "9", "10") for card in deck)
    state = get_variant(V).new_game(4, seed=11)
    dealt = [c for h in state.dealt for c in h] + [state.vira]
    assert len(set(dealt)) == 13 and set(dealt) <= set(deck)


def test_clean_deck_option_deals_only_q_j_k_a_2_3():
    for seed in range(30):
        state = get_variant(V).new_game(4, {"deck": "clean"}, seed=seed)
        dealt = [c for h in state.dealt for c in h] + [state.vira]
        assert {c[:-1] for c in dealt} <= {"Q", "J", "K", "A", "2", "3"}
    with pytest.raises(RecordError, match="unknown card '4c'"):
        play(V, [hand(["4c 3h 2s", "Kd Qs Jh"], vira="Ac")], options={"deck": "clean"})


# --- vira, manilhas and card strength -----------------------------------------------------


def test_vira_makes_the_next_rank_the_manilhas_vira_7_gives_queens():
    # A queen of diamonds (the weakest manilha) beats a three.
    r = play(
        V,
        [
            hand(
                ["Qd 4h 5h", "3c 4s 5s"],
                ["0 play Qd", "1 play 3c"],
                vira="7d",
            )
        ],
    )
    assert r.state.results[0] == 0


def test_vira_3_wraps_around_to_fours_as_manilhas():
    r = play(V, [hand(["4d 5h 6h", "3c 2s As"], ["0 play 4d", "1 play 3c"], vira="3h")])
    assert r.state.results == (0,)


def test_clean_deck_cycle_wraps_from_3_to_queens():
    r = play(
        V,
        [hand(["Qd Jh Kh", "3c 2s As"], ["0 play Qd", "1 play 3c"], vira="3h")],
        options={"deck": "clean"},
    )
    assert r.state.results == (0,)


def test_manilha_suit_order_zap_copas_espadilha_ouros():
    # Vira 3s: the fours are manilhas. Each pair: the first card must beat the second.
    for strong, weak in (("4c", "4h"), ("4h", "4s"), ("4s", "4d")):
        r = play(
            V,
            [
                hand(
                    [f"{weak} 5h 6h", f"{strong} 5s 6s"],
                    [f"0 play {weak}", f"1 play {strong}"],
                    vira="3s",
                )
            ],
        )
        assert r.state.results == (1,), (strong, weak)


def test_common_cards_rank_3_2_a_k_j_q_7_6_5_4():
    order = ["3", "2", "A", "K", "J", "Q", "7", "6", "5", "4"]
    for high, low in zip(order, order[1:], strict=False):
        # A vira whose manilhas (kings, or sixes) are neither of the two ranks compared.
        vira = "Jd" if "K" not in (high, low) else "5d"
        used = {f"{low}c", f"{high}h", vira}
        fillers = [
            c for c in DECKS["french40"] if c not in used and c[:-1] not in (high, low, "K", "6")
        ][:4]
        cards = [[f"{low}c", *fillers[:2]], [f"{high}h", *fillers[2:]]]
        r = play(V, [hand(cards, [f"0 play {low}c", f"1 play {high}h"], vira=vira)])
        assert r.state.results == (1,), (high, low, vira)


def test_suits_do_not_matter_outside_manilhas_equal_ranks_tie():
    r = play(V, [hand(["3c 4h 5h", "3d 4s 5s"], ["0 play 3c", "1 play 3d"], vira="7d")])
    assert r.state.results == (-1,)


# --- tricks -------------------------------------------------------------------------------


def test_trick_winner_leads_the_next_trick():
    state = start(V, [(["5c 6h 7h", "3c 4s 5s"], "Kd")])
    state = act(state, "0 play 5c", "1 play 3c")
    assert state.to_act == 1 and state.leader == 1


def test_after_a_tied_trick_the_player_who_led_it_leads_again():
    state = start(V, [(["3c 6h 7h", "3d 4s 5s"], "Kd")])
    state = act(state, "0 play 3c", "1 play 3d")
    assert state.results == (-1,)
    assert state.to_act == 0


def test_equal_top_cards_of_partners_win_for_their_team_first_played_leads():
    # 4 players: seats 0 and 2 (team 0) both play a three; seat 2's partner card came first?
    # Seat 0 leads with 3c, seat 1 plays 2h, seat 2 plays 3d, seat 3 plays Kh: team 0 wins and
    # seat 0 (the first of the equal cards) leads the next trick.
    state = start(
        V, [(["3c 4h 5h", "2h 4s 5s", "3d 6h 6s", "Kh 7c 7s"], "Qd")], players=4, first_dealer=3
    )
    state = act(state, "0 play 3c", "1 play 2h", "2 play 3d", "3 play Kh")
    assert state.results == (0,)
    assert state.to_act == 0


def test_equal_top_cards_of_opponents_tie_the_trick_even_with_partners():
    state = start(
        V, [(["3c 4h 5h", "3h 4s 5s", "2d 6h 6s", "Kh 7c 7s"], "Qd")], players=4, first_dealer=3
    )
    state = act(state, "0 play 3c", "1 play 3h", "2 play 2d", "3 play Kh")
    assert state.results == (-1,)


# --- winning the hand and ties ------------------------------------------------------------


def test_two_tricks_win_the_hand_worth_one():
    r = play(
        V,
        [
            hand(
                ["3c 3h 4h", "2c 2h 4s"],
                ["0 play 3c", "1 play 2c", "0 play 3h", "1 play 2h"],
                vira="Kd",
            )
        ],
    )
    assert points(r) == [[1, 0]]
    assert r.state.hand_no == 1


def test_first_trick_tied_the_next_trick_won_decides():
    r = play(
        V,
        [
            hand(
                ["3c 2h 4h", "3d 5s 4s"],
                ["0 play 3c", "1 play 3d", "0 play 4h", "1 play 5s"],
                vira="Kd",
            )
        ],
    )
    assert points(r) == [[0, 1]]


def test_first_and_second_tied_the_third_decides():
    r = play(
        V,
        [
            hand(
                ["3c 2h 4h", "3d 2s 5s"],
                ["0 play 3c", "1 play 3d", "0 play 2h", "1 play 2s", "0 play 4h", "1 play 5s"],
                vira="Kd",
            )
        ],
    )
    assert points(r) == [[0, 1]]


def test_second_trick_tied_the_first_trick_winner_wins():
    r = play(
        V,
        [
            hand(
                ["3c 2h 4h", "2c 2s 5s"],
                ["0 play 3c", "1 play 2c", "0 play 2h", "1 play 2s"],
                vira="Kd",
            )
        ],
    )
    assert points(r) == [[1, 0]]


def test_third_trick_tied_the_first_trick_winner_wins():
    r = play(
        V,
        [
            hand(
                ["3c 4h 2h", "2c 5s 2s"],
                ["0 play 3c", "1 play 2c", "0 play 4h", "1 play 5s", "1 play 2s", "0 play 2h"],
                vira="Kd",
            )
        ],
    )
    assert points(r) == [[1, 0]]


def test_all_tied_no_points_by_default():
    r = play(
        V,
        [
            hand(
                ["3c 2h 4h", "3d 2s 4s"],
                ["0 play 3c", "1 play 3d", "0 play 2h", "1 play 2s", "0 play 4h", "1 play 4s"],
                vira="Kd",
            )
        ],
    )
    assert points(r) == [[0, 0]]
    assert r.state.hand_no == 1


def test_all_tied_option_dealer_team_wins_the_hand():
    r = play(
        V,
        [
            hand(
                ["3c 2h 4h", "3d 2s 4s"],
                ["0 play 3c", "1 play 3d", "0 play 2h", "1 play 2s", "0 play 4h", "1 play 4s"],
                vira="Kd",
            )
        ],
        options={"all_tied": "dealer_team"},
    )
    assert points(r) == [[0, 1]]  # seat 1 dealt


# --- covered cards ------------------------------------------------------------------------


def test_covered_card_not_allowed_in_the_first_trick():
    state = start(V, [(["3c 2h 4h", "3d 2s 4s"], "Kd")])
    assert not any(a.startswith("cover") for a in state.legal_actions())
    with pytest.raises(IllegalAction):
        state.apply("cover 3c")


def test_covered_card_from_the_second_trick_wins_nothing():
    # Seat 1 wins the first trick, then covers its three: seat 0's four takes the second trick,
    # and seat 1 wins the third.
    actions = ["0 play 2c", "1 play 3c", "1 cover 3s", "0 play 4h", "0 play 5h", "1 play 6s"]
    r = play(V, [hand(["2c 4h 5h", "3c 3s 6s"], actions, vira="Kd")])
    assert r.state.hand_no == 1
    assert r.state.hand_points == ((0, 1),)
    replayed = play(V, [hand(["2c 4h 5h", "3c 3s 6s"], actions[:4], vira="Kd")])
    assert replayed.state.results == (1, 0)


def test_covered_card_is_hidden_from_the_other_players_but_not_its_owner():
    state = start(V, [(["2c 4h 5h", "3c 3s 6s"], "Kd")])
    state = act(state, "0 play 2c", "1 play 3c", "1 cover 3s")
    mine, theirs = state.observation(1), state.observation(0)
    assert mine.covered == ("3s",)
    assert "3s" not in repr(theirs)
    assert theirs.trick == ((1, None, True),)
    assert theirs.history[-1] == (1, "cover")
    state = act(state, "0 play 4h")
    assert state.observation(0).tricks[1] == ((1, None, True), (0, "4h", False))


def test_covered_cards_option_off_forbids_them():
    state = start(V, [(["3c 4h 5h", "2c 3s 6s"], "Kd")], options={"covered_cards": False})
    state = act(state, "0 play 3c", "1 play 2c")
    assert not any(a.startswith("cover") for a in state.legal_actions())


# --- truco --------------------------------------------------------------------------------


def test_hand_is_worth_one_without_bets():
    r = play(
        V,
        [
            hand(
                ["3c 3h 4h", "2c 2h 4s"],
                ["0 play 3c", "1 play 2c", "0 play 3h", "1 play 2h"],
                vira="Kd",
            )
        ],
    )
    assert r.state.score == (1, 0)


def test_truco_accepted_makes_the_hand_worth_three():
    r = play(
        V,
        [
            hand(
                ["3c 3h 4h", "2c 2h 4s"],
                ["0 truco", "1 accept", "0 play 3c", "1 play 2c", "0 play 3h", "1 play 2h"],
                vira="Kd",
            )
        ],
    )
    assert points(r) == [[3, 0]]


def test_truco_refused_gives_the_callers_the_value_before_the_call():
    r = play(V, [hand(["3c 3h 4h", "2c 2h 4s"], ["0 truco", "1 refuse"], vira="Kd")])
    assert points(r) == [[1, 0]]


def test_truco_ladder_three_six_nine_twelve():
    actions = [
        "0 truco",
        "1 truco",
        "0 truco",
        "1 truco",
        "0 accept",
        "0 play 3c",
        "1 play 2c",
        "0 play 3h",
        "1 play 2h",
    ]
    r = play(V, [hand(["3c 3h 4h", "2c 2h 4s"], actions, vira="Kd")])
    assert points(r) == [[12, 0]]
    assert r.state.winner == 0


@pytest.mark.parametrize(
    ("raises", "refuser", "expected"), [(1, 0, [0, 3]), (2, 1, [6, 0]), (3, 0, [0, 9])]
)
def test_refusing_six_nine_or_twelve_gives_three_six_or_nine(raises, refuser, expected):
    actions = ["0 truco"] + [f"{(i + 1) % 2} truco" for i in range(raises)] + [f"{refuser} refuse"]
    r = play(V, [hand(["3c 3h 4h", "2c 2h 4s"], actions, vira="Kd")])
    assert points(r) == [expected]


def test_no_raise_beyond_twelve():
    state = start(V, [(["3c 3h 4h", "2c 2h 4s"], "Kd")])
    state = act(state, "0 truco", "1 truco", "0 truco", "1 truco")
    assert state.legal_actions() == ("accept", "refuse")


def test_a_team_never_raises_twice_in_a_row_only_the_called_team_may_raise_next():
    state = start(V, [(["3c 3h 4h", "2c 2h 4s"], "Kd")])
    state = act(state, "0 truco", "1 accept")
    assert "truco" not in state.legal_actions()  # seat 0 called last
    state = act(state, "0 play 3c", "1 play 2c", "0 play 3h")
    assert "truco" in state.legal_actions()  # seat 1 accepted: it may ask for six
    state = act(state, "1 truco")
    assert state.to_act == 0 and state.legal_actions() == ("accept", "refuse", "truco")


def test_truco_is_called_on_ones_own_turn_before_playing_a_card():
    state = start(V, [(["3c 3h 4h", "2c 2h 4s"], "Kd")])
    assert "truco" in state.legal_actions() and state.to_act == 0
    state = act(state, "0 play 3c")
    assert state.to_act == 1 and "truco" in state.legal_actions()
    assert state.observation(0).legal == ()


def test_bet_is_answered_by_the_next_opponent_and_a_raise_by_the_next_after_the_raiser():
    state = start(
        V, [(["3c 4h 5h", "2h 4s 5s", "3d 6h 6s", "Kh 7c 7s"], "Qd")], players=4, first_dealer=3
    )
    state = act(state, "0 play 3c", "1 play 2h", "2 truco")
    assert state.to_act == 3  # the opponent who plays after seat 2
    state = act(state, "3 truco")  # six: answered by seat 0, next after seat 3
    assert state.to_act == 0
    state = act(state, "0 accept")
    assert state.to_act == 2 and state.stake == 6  # seat 2's turn goes on


# --- mão de onze ----------------------------------------------------------------------------


def test_mao_de_onze_nobody_may_call_truco():
    state = start(V, [(["3c 3h 4h", "2c 2h 4s"], "Kd")], start_score=(11, 5))
    state = act(state, "0 accept")
    assert "truco" not in state.legal_actions()
    state = act(state, "0 play 3c")
    assert "truco" not in state.legal_actions()


def test_mao_de_onze_played_is_worth_three():
    actions = ["0 accept", "0 play 4h", "1 play 3c", "1 play 2h", "0 play 5h"]
    r = play(V, [hand(["4h 5h 6h", "3c 2h 7s"], actions, vira="Kd")], start_score=(11, 5))
    assert points(r) == [[0, 3]]  # a hand of eleven lost after playing
    won = ["0 accept", "0 play Ac", "1 play 7s", "0 play Ah", "1 play 2h"]
    r = play(V, [hand(["Ac Ah 4h", "3c 2h 7s"], won, vira="Kd")], start_score=(11, 5))
    assert points(r) == [[3, 0]]


def test_mao_de_onze_refused_gives_the_opponents_one_and_a_new_hand():
    r = play(V, [hand(["3c 3h 4h", "2c 2h 4s"], ["0 refuse"], vira="Kd")], start_score=(11, 5))
    assert points(r) == [[0, 1]]
    assert r.state.hand_no == 1 and r.state.score == (11, 6)


def test_mao_de_onze_decided_by_the_team_seat_nearest_the_mao():
    # 4 players, team 1 on 11, seat 0 is the mão: seat 1 decides.
    state = start(
        V,
        [(["3c 4h 5h", "2h 4s 5s", "3d 6h 6s", "Kh 7c 7s"], "Qd")],
        players=4,
        first_dealer=3,
        start_score=(4, 11),
    )
    assert state.phase == "decide" and state.to_act == 1
    assert state.legal_actions() == ("accept", "refuse")


def test_mao_de_onze_team_sees_partner_cards_and_opponents_do_not():
    state = start(
        V,
        [(["3c 4h 5h", "2h 4s 5s", "3d 6h 6s", "Kh 7c 7s"], "Qd")],
        players=4,
        first_dealer=3,
        start_score=(4, 11),
    )
    assert dict(state.observation(1).partner_cards) == {3: ("Kh", "7c", "7s")}
    assert dict(state.observation(3).partner_cards) == {1: ("2h", "4s", "5s")}
    assert not state.observation(0).partner_cards and not state.observation(2).partner_cards
    assert "Kh" not in repr(state.observation(0))


def test_truco_at_eleven_option_loses_the_game_for_the_callers_team():
    r = play(
        V,
        [hand(["3c 3h 4h", "2c 2h 4s"], ["0 accept", "0 play 3c", "1 truco"], vira="Kd")],
        start_score=(11, 5),
        options={"truco_at_eleven": "loses_game"},
    )
    assert r.state.winner == 0
    assert r.state.score == (12, 5)


# --- mão de ferro ---------------------------------------------------------------------------


def test_mao_de_ferro_no_truco_and_no_decision():
    state = start(V, [(["3c 3h 4h", "2c 2h 4s"], "Kd")], start_score=(11, 11))
    assert state.phase == "play" and state.kind == "iron"
    assert "truco" not in state.legal_actions()


def test_mao_de_ferro_blind_players_play_by_slot_without_seeing_their_cards():
    state = start(V, [(["3c 3h 4h", "2c 2h 4s"], "Kd")], start_score=(11, 11))
    assert state.legal_actions() == ("play #0", "play #1", "play #2")
    mine = state.observation(0)
    assert mine.hand == ("#0", "#1", "#2")
    assert not {"3c", "3h", "4h"} & set(repr(mine).replace("'", " ").split())
    state = act(state, "0 play #1")
    assert state.trick == ((0, "3h", False),)  # a played card is shown to everyone
    assert state.observation(0).hand == ("#0", "#2")


def test_mao_de_ferro_hand_winner_wins_the_game():
    r = play(
        V,
        [
            hand(
                ["3c 3h 4h", "2c 2h 4s"],
                ["0 play #0", "1 play #0", "0 play #1", "1 play #1"],
                vira="Kd",
            )
        ],
        start_score=(11, 11),
    )
    assert r.state.winner == 0 and r.state.score == (12, 11)


def test_mao_de_ferro_nobody_sees_partner_cards():
    state = start(
        V,
        [(["3c 4h 5h", "2h 4s 5s", "3d 6h 6s", "Kh 7c 7s"], "Qd")],
        players=4,
        first_dealer=3,
        start_score=(11, 11),
    )
    assert all(not state.observation(s).partner_cards for s in range(4))


def test_mao_de_ferro_all_tied_is_dealt_again():
    r = play(
        V,
        [
            hand(
                ["3c 2h 4h", "3d 2s 4s"],
                ["0 play #0", "1 play #0", "0 play #1", "1 play #1", "0 play #2", "1 play #2"],
                vira="Kd",
            ),
            hand(["5c 6h 7h", "3d 2s 4s"], vira="Kd"),
        ],
        start_score=(11, 11),
        options={"all_tied": "dealer_team"},
    )
    assert r.state.score == (11, 11) and r.state.hand_no == 1 and r.state.kind == "iron"


def test_iron_hand_blind_option_off_shows_own_cards():
    state = start(
        V,
        [(["3c 3h 4h", "2c 2h 4s"], "Kd")],
        start_score=(11, 11),
        options={"iron_hand_blind": False},
    )
    assert state.observation(0).hand == ("3c", "3h", "4h")
    assert "play 3c" in state.legal_actions() and "truco" not in state.legal_actions()


# --- game ---------------------------------------------------------------------------------


def test_first_team_to_twelve_wins_the_game():
    r = play(
        V,
        [
            hand(
                ["3c 3h 4h", "2c 2h 4s"],
                ["0 truco", "1 accept", "0 play 3c", "1 play 2c", "0 play 3h", "1 play 2h"],
                vira="Kd",
            )
        ],
        start_score=(9, 10),
    )
    assert r.state.winner == 0 and r.state.is_over and r.state.legal_actions() == ()


def test_target_option_changes_the_winning_score_and_the_hand_of_eleven():
    state = start(
        V, [(["3c 3h 4h", "2c 2h 4s"], "Kd")], start_score=(14, 3), options={"target": 15}
    )
    assert state.phase == "decide"  # 14 is the "hand of eleven" of a game to 15
    r = play(
        V,
        [
            hand(
                ["3c 3h 4h", "2c 2h 4s"],
                ["0 play 3c", "1 play 2c", "0 play 3h", "1 play 2h"],
                vira="Kd",
            )
        ],
        start_score=(11, 3),
        options={"target": 15},
    )
    assert r.state.score == (12, 3) and not r.state.is_over


def test_the_dealer_rotates_each_hand_and_the_mao_leads():
    state = start(V, [(["3c 3h 4h", "2c 2h 4s"], "Kd"), (["3c 3h 4h", "2c 2h 4s"], "Kd")])
    assert (state.dealer, state.mano, state.to_act) == (1, 0, 0)
    state = act(state, "0 truco", "1 refuse")
    assert (state.dealer, state.mano, state.to_act) == (0, 1, 1)


def test_unknown_option_is_rejected_listing_the_valid_ones():
    with pytest.raises(OptionError, match="unknown option 'ladder'.*all_tied, covered_cards, deck"):
        get_variant(V).new_game(2, {"ladder": [1, 2]})


def test_bad_option_value_is_rejected_listing_the_valid_values():
    with pytest.raises(OptionError, match="'all_tied' must be one of 'no_points', 'dealer_team'"):
        get_variant(V).new_game(2, {"all_tied": "mano"})
    with pytest.raises(OptionError, match="'target' must be an integer from 3 to 30"):
        get_variant(V).new_game(2, {"target": 100})
