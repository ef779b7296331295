"""Whatever a bot does, the game ends with the right typed termination, the record says what
happened, and the match goes on: in-process and in child processes with a hard deadline."""

from __future__ import annotations

import time

import pytest

from engine.match import MatchSpec, play_match
from engine.records import replay
from engine.runner import CRASH, ILLEGAL, NORMAL, TIMEOUT, BotSpec, play_game

pytestmark = pytest.mark.usefixtures("faulty_bots")

IN = "inprocess"
OUT = "process"


def game(bot, isolation=IN, decision_seconds=None, variant="paulista", seed=5):
    return play_game(
        variant,
        [BotSpec(bot.split(":")[0], {}, isolation), "random"],
        seed=seed,
        decision_seconds=decision_seconds,
    )


def assert_forfeit(result, termination, message):
    """Seat 0 forfeits: team 1 wins whatever the score, and the record keeps the typed reason.
    The bot's own words (`message`) are kept apart in `fault_message`, never in the record,
    which everyone may read; the engine's own phrase for a timeout is in `detail`."""
    assert result.termination == termination
    assert result.seat == 0
    assert result.winner == 1
    written = result.record["result"]
    assert written["termination"] == termination
    assert written["seat"] == 0 and written["winner"] == 1
    assert written["detail"] == result.detail
    if termination == TIMEOUT:
        assert message in result.detail
    else:
        assert message in result.fault_message
        assert message not in result.detail
    replay(result.record)  # the actions recorded before the fault are a valid game


@pytest.mark.parametrize("isolation", [IN, OUT])
def test_a_bot_that_raises_forfeits_with_crash(isolation):
    result = game("faulty-raises", isolation)
    assert_forfeit(result, CRASH, "the bot broke")


@pytest.mark.parametrize("isolation", [IN, OUT])
def test_an_illegal_action_forfeits_with_illegal_action(isolation):
    result = game("faulty-illegal", isolation)
    assert_forfeit(result, ILLEGAL, "'play 9z'")


@pytest.mark.parametrize("isolation", [IN, OUT])
def test_a_malformed_answer_forfeits_with_illegal_action(isolation):
    result = game("faulty-malformed", isolation)
    assert_forfeit(result, ILLEGAL, "card")


@pytest.mark.parametrize("isolation", [IN, OUT])
def test_a_first_timeout_is_auto_played_and_the_game_goes_on(isolation):
    result = game("faulty-slow-once", isolation, decision_seconds=0.1)
    assert result.termination == NORMAL
    assert result.timeouts == [0]
    assert result.record["result"]["timeouts"] == [0]
    # The late decision was played by the default move: the record replays to the same score.
    assert replay(result.record).state.score == result.score


@pytest.mark.parametrize("isolation", [IN, OUT])
def test_a_second_timeout_in_a_game_forfeits_with_timeout(isolation):
    result = game("faulty-slow", isolation, decision_seconds=0.05)
    assert_forfeit(result, TIMEOUT, "second decision over 0.05s")
    assert result.timeouts == [0]


def test_a_bot_that_loops_forever_is_killed_at_its_deadline_and_the_match_goes_on():
    started = time.monotonic()
    spec = MatchSpec(
        "paulista",
        BotSpec("faulty-loops", isolation=OUT),
        BotSpec("random", isolation=OUT),
        pairs=1,
        decision_seconds=0.2,
    )
    result = play_match(spec)
    assert [g.result.termination for g in result.games] == [TIMEOUT, TIMEOUT]
    assert result.wins == (0, 2)
    # Two games, each with two decisions of 0.2 s before the forfeit, and child start-ups.
    assert time.monotonic() - started < 10


def test_a_child_that_exits_is_a_crash():
    result = game("faulty-exits", OUT)
    assert_forfeit(result, CRASH, "exited with code 3")


def test_a_child_over_its_memory_limit_crashes_instead_of_taking_the_machine():
    result = game("faulty-hog", OUT)
    assert_forfeit(result, CRASH, "MemoryError")


@pytest.mark.parametrize("isolation", [IN, OUT])
def test_a_bot_that_cannot_start_is_a_crash(isolation):
    result = game("faulty-bad-start", isolation)
    assert_forfeit(result, CRASH, "cannot start")


def test_a_child_process_does_not_see_the_runners_environment(monkeypatch):
    monkeypatch.setenv("TRUCO_TEST_SECRET", "database password")
    result = game("faulty-snoops", OUT)
    assert result.termination == NORMAL


def test_a_child_process_has_no_network_where_the_system_allows_it():
    import socket

    from engine.sandbox import network_jail

    if not network_jail():
        pytest.skip("no network namespaces here (needs root and util-linux's unshare)")
    with socket.create_server(("127.0.0.1", 0)) as server:  # stands for the database
        port = server.getsockname()[1]
        bots = [BotSpec("faulty-phones", {"port": port}, IN), "random"]
        inside = play_game("paulista", bots, seed=5)
        assert inside.termination == CRASH and "reached the network" in inside.fault_message
        bots[0] = BotSpec("faulty-phones", {"port": port}, OUT)
        outside = play_game("paulista", bots, seed=5)
    assert outside.termination == NORMAL


def test_a_child_process_bot_plays_exactly_as_in_process():
    """Same seed, same bot: the game is the same wherever the bot runs."""
    inside = play_game("paulista", ["heuristic", "random"], seed=11)
    outside = play_game("paulista", [BotSpec("heuristic", isolation=OUT), "random"], seed=11)
    assert outside.record == inside.record


def test_a_match_of_faulty_bots_finishes_and_counts_every_termination():
    spec = MatchSpec("paulista", "faulty-illegal", "faulty-raises", games=4)
    result = play_match(spec)
    assert len(result.games) == 4
    for played in result.games:
        # Whoever acts first faults first, and the other side wins the game.
        faulty_side = "a" if (played.result.seat & 1) == played.a_team else "b"
        expected = ILLEGAL if faulty_side == "a" else CRASH
        assert played.result.termination == expected
        assert played.winner_side != faulty_side
