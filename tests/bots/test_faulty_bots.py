"""Whatever a bot does, the game ends with the right typed termination, the record says what
happened in fixed words (the bot's own text is kept apart, private), and the match goes on:
in-process and in the jail with a hard deadline. The hostile bots are in tests/jail/."""

from __future__ import annotations

import time

import pytest

from engine.match import MatchSpec, play_match
from engine.records import replay
from engine.runner import CRASH, ILLEGAL, NORMAL, TIMEOUT, BotSpec, play_game

pytestmark = pytest.mark.usefixtures("faulty_bots")

IN = "inprocess"
OUT = "jail"


def game(bot, isolation=IN, decision_seconds=None, variant="paulista", seed=5):
    return play_game(
        variant,
        [BotSpec(bot.split(":")[0], {}, isolation), "random"],
        seed=seed,
        decision_seconds=decision_seconds,
    )


def assert_forfeit(result, termination, detail, message=""):
    """Seat 0 forfeits: team 1 wins whatever the score, and the record keeps the reason in fixed
    words; the bot's own text is only in the private `fault_message`."""
    assert result.termination == termination
    assert result.seat == 0
    assert result.winner == 1
    assert detail in result.detail
    assert message in result.fault_message
    written = result.record["result"]
    assert written["termination"] == termination
    assert written["seat"] == 0 and written["winner"] == 1
    assert detail in written["detail"]
    if message:
        assert message not in written["detail"]
    replay(result.record)  # the actions recorded before the fault are a valid game


@pytest.mark.parametrize(
    ("isolation", "detail"),
    [(IN, "the bot raised an exception"), (OUT, "gave up the game")],
)
def test_a_bot_that_raises_forfeits_with_crash(isolation, detail):
    result = game("faulty-raises", isolation)
    assert_forfeit(result, CRASH, detail, "ValueError: the bot broke")


@pytest.mark.parametrize("isolation", [IN, OUT])
def test_an_illegal_action_forfeits_with_illegal_action(isolation):
    result = game("faulty-illegal", isolation)
    # An action-like word is shown as it was; anything else would be a fixed phrase.
    assert_forfeit(result, ILLEGAL, "answered 'play 9z', not a legal action")


@pytest.mark.parametrize(
    ("isolation", "detail"),
    [(IN, "answered something that is not an action"), (OUT, "not a string")],
)
def test_a_malformed_answer_forfeits_with_illegal_action(isolation, detail):
    result = game("faulty-malformed", isolation)
    assert_forfeit(result, ILLEGAL, detail, "card")


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


def test_a_jailed_bot_that_exits_is_a_crash():
    result = game("faulty-exits", OUT)
    assert_forfeit(result, CRASH, "bot process exited with code 3")


def test_a_jailed_bot_over_its_memory_limit_crashes_instead_of_taking_the_machine():
    result = game("faulty-hog", OUT)
    assert result.termination == CRASH and result.seat == 0
    # Killed by the memory cgroup, or refused the allocation by RLIMIT_DATA (a MemoryError).
    assert "memory limit" in result.detail or "MemoryError" in result.fault_message


@pytest.mark.parametrize("isolation", [IN, OUT])
def test_a_bot_that_cannot_start_is_a_crash(isolation):
    result = game("faulty-bad-start", isolation)
    assert result.detail in ("the bot could not start", "gave up the game")
    assert_forfeit(result, CRASH, result.detail, "cannot start")


def test_a_jailed_bot_does_not_see_the_runners_environment(monkeypatch):
    monkeypatch.setenv("TRUCO_TEST_SECRET", "database password")
    result = game("faulty-snoops", OUT)
    assert result.termination == NORMAL


def test_a_jailed_bot_has_no_network():
    import socket

    with socket.create_server(("127.0.0.1", 0)) as server:  # stands for the database
        port = server.getsockname()[1]
        bots = [BotSpec("faulty-phones", {"port": port}, IN), "random"]
        inside = play_game("paulista", bots, seed=5)
        assert inside.termination == CRASH and "reached the network" in inside.fault_message
        bots[0] = BotSpec("faulty-phones", {"port": port}, OUT)
        outside = play_game("paulista", bots, seed=5)
    assert outside.termination == NORMAL


def test_a_jailed_bot_plays_exactly_as_in_process():
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
