"""Truc Tete: one scenario per rule of RULES.md section 3, from explicit deals, exact scores.

Unless a test says otherwise: seat 0 is the mão of the first hand (seat 1 deals) and the vira 7d
makes the queens the manilhas (Qc > Qh > Qs > Qd).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine.cards import DECKS
from engine.cli import main as cli_main
from engine.errors import IllegalAction, OptionError, RecordError
from engine.plugins import get_variant
from tests.support import act, hand, play, record, start

V = "truc-tete"


def points(replay):
    return [list(p) for p in replay.hand_points]


def one_hand(cards, actions, **kwargs):
    return play(V, [hand(cards, actions, vira="7d")], **kwargs)


# --- players ------------------------------------------------------------------------------


def test_one_against_one_only_any_other_player_count_is_a_clear_error():
    game = get_variant(V)
    assert game.players == (2,)
    assert game.new_game(2).players == 2
    for count in (3, 4, 6):
        with pytest.raises(OptionError, match="truc-tete is played by 2 players, not"):
            game.new_game(count)
    with pytest.raises(RecordError, match="2 players, not 4"):
        play(V, [hand(["3c 3h 4h", "2c 2h 4s", "5c 5h 5s", "6c 6h 6s"], vira="7d")], players=4)


def test_one_against_one_only_the_match_command_exits_2_for_four_players(capsys):
    code = cli_main(
        ["match", "--variant", V, "--players", "4", "--bots", "random", "random", "--games", "1"]
    )
    assert code == 2
    assert "2 players, not 4" in capsys.readouterr().err


# --- cards --------------------------------------------------------------------------------


def test_vira_makes_the_next_rank_the_manilhas_as_in_paulista():
    # Vira 7d: the queens are manilhas, so the weakest of them beats a three.
    r = one_hand(["Qd 4h 5h", "3c 4s 5s"], ["0 play Qd", "1 play 3c"])
    assert r.state.results == (0,)
    # Vira 3h: the cycle wraps around and the fours are manilhas.
    r = play(V, [hand(["4d 5h 6h", "3c 2s As"], ["0 play 4d", "1 play 3c"], vira="3h")])
    assert r.state.results == (0,)


def test_manilha_suit_order_clubs_hearts_spades_diamonds():
    for strong, weak in (("Qc", "Qh"), ("Qh", "Qs"), ("Qs", "Qd")):
        r = one_hand([f"{weak} 5h 6h", f"{strong} 5s 6s"], [f"0 play {weak}", f"1 play {strong}"])
        assert r.state.results == (1,), (strong, weak)


def test_common_cards_rank_3_2_a_k_j_7_6_5_4_and_suits_do_not_matter():
    order = ["3", "2", "A", "K", "J", "7", "6", "5", "4"]  # the queens are manilhas here
    for high, low in zip(order, order[1:], strict=False):
        fillers = [c for c in DECKS["french40"] if c[:-1] not in (high, low, "Q")][:4]
        cards = [[f"{low}c", *fillers[:2]], [f"{high}h", *fillers[2:]]]
        r = one_hand(cards, [f"0 play {low}c", f"1 play {high}h"])
        assert r.state.results == (1,), (high, low)
    r = one_hand(["3c 4h 5h", "3d 4s 5s"], ["0 play 3c", "1 play 3d"])
    assert r.state.results == (-1,)


# --- tricks and ties ----------------------------------------------------------------------


def test_two_tricks_win_the_hand_worth_one():
    r = one_hand(["3c 3h 4h", "2c 2h 4s"], ["0 play 3c", "1 play 2c", "0 play 3h", "1 play 2h"])
    assert points(r) == [[1, 0]]


def test_tied_trick_goes_to_the_player_who_won_an_earlier_trick():
    r = one_hand(["3c Kh 5h", "2c Ks 6s"], ["0 play 3c", "1 play 2c", "0 play Kh", "1 play Ks"])
    assert points(r) == [[1, 0]]
    assert r.state.hand_no == 1  # decided after two tricks: no third is played


def test_tied_trick_goes_to_the_player_who_wins_a_later_trick():
    r = one_hand(["3c Kh 5h", "3d As 6s"], ["0 play 3c", "1 play 3d", "0 play Kh", "1 play As"])
    assert points(r) == [[0, 1]]


def test_first_two_tricks_tied_the_third_decides():
    actions = ["0 play 3c", "1 play 3d", "0 play Kh", "1 play Ks", "0 play 5h", "1 play 6s"]
    r = one_hand(["3c Kh 5h", "3d Ks 6s"], actions)
    assert points(r) == [[0, 1]]


def test_third_trick_tied_after_one_trick_each_goes_to_the_first_trick_winner():
    actions = ["0 play 3c", "1 play 2c", "0 play 4h", "1 play 2h", "1 play 5s", "0 play 5h"]
    r = one_hand(["3c 4h 5h", "2c 2h 5s"], actions)
    assert points(r) == [[1, 0]]


def test_after_a_tied_trick_the_player_who_led_it_leads_again():
    state = start(V, [(["3c Kh 5h", "3d As 6s"], "7d")], first_dealer=0)  # seat 1 is the mão
    state = act(state, "1 play 3d", "0 play 3c")
    assert state.to_act == 1


def test_all_three_tricks_tied_nobody_scores_and_a_new_hand_is_dealt():
    actions = ["0 play 3c", "1 play 3d", "0 play Kh", "1 play Ks", "0 play 5h", "1 play 5s"]
    r = play(
        V,
        [
            hand(["3c Kh 5h", "3d Ks 5s"], actions, vira="7d"),
            hand(["4c 4h 4s", "5c 5d 6s"], vira="7d"),
        ],
    )
    assert points(r) == [[0, 0], [0, 0]]
    assert r.state.hand_no == 1 and r.state.dealer == 0 and r.state.to_act == 1


# --- truco --------------------------------------------------------------------------------


def test_truco_on_ones_turn_before_playing_accepted_makes_the_hand_worth_three():
    actions = ["0 truco", "1 accept", "0 play 3c", "1 play 2c", "0 play 3h", "1 play 2h"]
    r = one_hand(["3c 3h 4h", "2c 2h 4s"], actions)
    assert points(r) == [[3, 0]]


def test_truco_ladder_three_six_nine_twelve_raised_in_answer():
    state = start(V, [(["3c 3h 4h", "2c 2h 4s"], "7d")])
    state = act(state, "0 truco")
    assert state.legal_actions() == ("accept", "refuse", "truco")
    stakes = []
    for seat in (1, 0, 1):
        state = act(state, f"{seat} truco")
        stakes.append(state.observation(0).pending)
    assert stakes == [6, 9, 12]
    assert state.legal_actions() == ("accept", "refuse")  # nothing above twelve
    state = act(state, "0 accept", "0 play 3c", "1 play 2c", "0 play 3h", "1 play 2h")
    assert state.winner == 0 and state.score == (12, 0)


def test_truco_run_gives_the_caller_the_value_before_the_call():
    r = one_hand(["3c 3h 4h", "2c 2h 4s"], ["0 truco", "1 refuse"])
    assert points(r) == [[1, 0]]


def test_runner_gives_the_caller_the_value_in_play_before_the_last_call_six_then_nine_run():
    # Truco, six, nine called; the one who runs gives the caller of nine the six in play.
    r = one_hand(["3c 3h 4h", "2c 2h 4s"], ["0 truco", "1 truco", "0 truco", "1 refuse"])
    assert points(r) == [[6, 0]]
    r = one_hand(["3c 3h 4h", "2c 2h 4s"], ["0 truco", "1 truco", "0 refuse"])
    assert points(r) == [[0, 3]]


def test_a_player_never_calls_truco_twice_in_a_row():
    state = start(V, [(["3c 3h 4h", "2c 2h 4s"], "7d")])
    state = act(state, "0 truco", "1 accept")
    assert state.to_act == 0 and "truco" not in state.legal_actions()
    with pytest.raises(IllegalAction):
        state.apply("truco")
    state = act(state, "0 play 3c")
    assert "truco" in state.legal_actions()  # the other player, who accepted, may raise
    state = act(state, "1 truco", "0 accept", "1 play 2c")
    assert state.to_act == 0 and "truco" in state.legal_actions() and state.stake == 6


# --- hand of eleven -----------------------------------------------------------------------


def test_hand_of_eleven_played_is_worth_three():
    won = ["0 accept", "0 play 3c", "1 play 2c", "0 play 3h", "1 play 2h"]
    r = one_hand(["3c 3h 4h", "2c 2h 4s"], won, start_score=(11, 5))
    assert points(r) == [[3, 0]] and r.state.winner == 0
    lost = ["0 accept", "0 play 4h", "1 play 3c", "1 play 2h", "0 play 5h"]
    r = one_hand(["4h 5h 6h", "3c 2h 7s"], lost, start_score=(11, 5))
    assert points(r) == [[0, 3]] and r.state.score == (11, 8)


def test_hand_of_eleven_refused_gives_the_other_player_one():
    r = one_hand(["3c 3h 4h", "2c 2h 4s"], ["0 refuse"], start_score=(11, 5))
    assert points(r) == [[0, 1]] and r.state.score == (11, 6) and r.state.hand_no == 1


def test_hand_of_eleven_decided_by_the_player_on_eleven_even_when_not_the_mao():
    state = start(V, [(["3c 3h 4h", "2c 2h 4s"], "7d")], start_score=(5, 11))
    assert state.phase == "decide" and state.to_act == 1
    assert state.legal_actions() == ("accept", "refuse")


def test_hand_of_eleven_truco_loses_the_game_at_once_for_either_player():
    r = one_hand(["3c 3h 4h", "2c 2h 4s"], ["0 accept", "0 truco"], start_score=(11, 5))
    assert r.state.winner == 1 and r.state.score == (11, 12) and r.state.is_over
    r = one_hand(
        ["3c 3h 4h", "2c 2h 4s"], ["0 accept", "0 play 3c", "1 truco"], start_score=(11, 5)
    )
    assert r.state.winner == 0 and r.state.score == (12, 5)


def test_hand_of_eleven_truco_option_illegal_instead_of_losing():
    state = start(
        V,
        [(["3c 3h 4h", "2c 2h 4s"], "7d")],
        start_score=(11, 5),
        options={"truco_at_eleven": "illegal"},
    )
    state = act(state, "0 accept")
    assert "truco" not in state.legal_actions()


# --- iron hand ----------------------------------------------------------------------------


def test_iron_hand_is_played_blind_by_slot_without_seeing_ones_own_cards():
    state = start(V, [(["3c 3h 4h", "2c 2h 4s"], "7d")], start_score=(11, 11))
    assert state.kind == "iron" and state.phase == "play"
    assert state.legal_actions() == ("play #0", "play #1", "play #2", "truco")
    for seat, cards in ((0, {"3c", "3h", "4h"}), (1, {"2c", "2h", "4s"})):
        mine = state.observation(seat)
        assert mine.hand == ("#0", "#1", "#2") and mine.covered == ()
        assert not cards & set(repr(mine).replace("'", " ").split())
    state = act(state, "0 play #1")
    assert state.trick == ((0, "3h", False),)  # once played, a card is seen by both


def test_iron_hand_winner_wins_the_game_and_truco_in_it_loses_the_game():
    actions = ["0 play #0", "1 play #0", "0 play #1", "1 play #1"]
    r = one_hand(["3c 3h 4h", "2c 2h 4s"], actions, start_score=(11, 11))
    assert r.state.winner == 0 and r.state.score == (12, 11)
    r = one_hand(["3c 3h 4h", "2c 2h 4s"], ["0 play #0", "1 truco"], start_score=(11, 11))
    assert r.state.winner == 0 and r.state.score == (12, 11)


def test_iron_hand_all_tied_is_dealt_again():
    actions = ["0 play #0", "1 play #0", "0 play #1", "1 play #1", "0 play #2", "1 play #2"]
    r = play(
        V,
        [
            hand(["3c Kh 5h", "3d Ks 5s"], actions, vira="7d"),
            hand(["4c 4h 4s", "5c 5d 6s"], vira="7d"),
        ],
        start_score=(11, 11),
    )
    assert r.state.score == (11, 11) and r.state.hand_no == 1 and r.state.kind == "iron"


# --- covered cards ------------------------------------------------------------------------


def test_covered_card_counts_for_nothing_and_is_seen_only_by_its_owner():
    state = start(V, [(["2c 4h 5h", "3c 3s 6s"], "7d")])
    assert not any(a.startswith("cover") for a in state.legal_actions())  # not in trick one
    state = act(state, "0 play 2c", "1 play 3c", "1 cover 3s")
    assert state.observation(1).covered == ("3s",)
    assert "3s" not in repr(state.observation(0))
    state = act(state, "0 play 4h")
    assert state.results == (1, 0)  # a three played face down loses to a four


# --- game ---------------------------------------------------------------------------------


def test_first_to_twelve_wins_the_game():
    actions = ["0 truco", "1 accept", "0 play 3c", "1 play 2c", "0 play 3h", "1 play 2h"]
    r = one_hand(["3c 3h 4h", "2c 2h 4s"], actions, start_score=(9, 10))
    assert r.state.winner == 0 and r.state.score == (12, 10) and r.state.legal_actions() == ()


def test_options_schema_and_summary_are_described_for_the_admin_and_api():
    described = get_variant(V).describe()
    assert described["players"] == [2]
    assert described["summary"]
    options = {o["name"]: o for o in described["options"]}
    assert set(options) == {"covered_cards", "truco_at_eleven", "iron_hand_blind", "target"}
    assert options["truco_at_eleven"]["default"] == "loses_game"
    assert all(o["help"] and o["type"] for o in options.values())
    with pytest.raises(OptionError, match="unknown option 'deck'"):
        get_variant(V).new_game(2, {"deck": "clean"})


def test_replay_command_replays_a_truc_tete_record(tmp_path):
    actions = ["0 truco", "1 truco", "0 truco", "1 refuse"]
    data = record(V, [hand(["3c 3h 4h", "2c 2h 4s"], actions, vira="7d")])
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(path)], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["score"] == [6, 0] and out["hands"] == [{"points": [6, 0]}]
    assert out["finished"] is False and out["legal"] == []  # the record has no next hand
