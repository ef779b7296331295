"""The engine side of human play: a game rebuilt from its actions, a human acting only with their
seat's legal actions, the turn timer's auto-play, and bots that fail forfeiting."""

from __future__ import annotations

import pytest

from engine.errors import IllegalAction
from engine.plugins import registry
from tables.session import GameSetup, LiveGame, NotYourTurn

SETUP = GameSetup("paulista", 2, seed=42)


def test_a_game_rebuilt_from_its_actions_is_the_same_game():
    game = LiveGame(SETUP)
    game.advance({1: "random"})
    while not game.finished:
        game.act(game.to_act, game.observation(game.to_act)["legal"][-1])
        game.advance({1: "random"})
    again = LiveGame(SETUP, game.actions)
    assert again.record() == game.record()
    assert again.state.score == game.state.score


def test_human_acts_only_with_their_own_seats_legal_actions():
    game = LiveGame(SETUP)
    seat = game.to_act
    other = 1 - seat
    with pytest.raises(NotYourTurn):
        game.act(other, "play " + game.observation(other)["hand"][0])
    with pytest.raises(IllegalAction) as refused:
        game.act(seat, "play 9z")
    assert "legal actions" in str(refused.value)
    game.act(seat, game.observation(seat)["legal"][0])
    assert game.ply == 1


def test_turn_seconds_run_out_and_the_game_plays_the_default_action_for_the_seat():
    game = LiveGame(SETUP)
    seat = game.to_act
    expected = game.state.rules.default_action(game.state)
    played = game.auto_play()
    assert played == expected
    assert game.actions == [[seat, expected]]
    assert game.result()["timeouts"] == [seat]


class Crasher:
    def __init__(self, **kwargs):
        pass

    def act(self, observation):
        raise RuntimeError("lost my marbles")


class Cheater:
    def __init__(self, **kwargs):
        pass

    def act(self, observation):
        return "play Zz"


@pytest.mark.parametrize(("bot", "termination"), [(Crasher, "crash"), (Cheater, "illegal_action")])
def test_a_failing_bot_forfeits_the_game_to_the_human(monkeypatch, bot, termination):
    monkeypatch.setitem(registry().bots, "faulty", bot)
    game = LiveGame(SETUP)
    bot_seat = game.to_act
    game.advance({bot_seat: "faulty"})
    assert game.finished
    result = game.result()
    assert result["termination"] == termination and result["seat"] == bot_seat
    assert result["winner"] == 1 - (bot_seat & 1)


def test_an_absent_seat_is_played_for_and_a_present_one_waits():
    game = LiveGame(SETUP)
    game.advance({}, absent=lambda seat: seat == 0)
    assert game.to_act == 1 or game.finished
    assert all(seat == 0 for seat, _ in game.actions)


def test_observation_for_a_seat_outside_the_table_is_refused():
    with pytest.raises(ValueError):
        LiveGame(SETUP).observation(5)


def test_a_jailed_robot_at_a_table_hears_and_keeps_the_tables_deadline():
    """The table's budget per decision reached the jailed robot neither in its `match` message
    (it read null) nor as its deadline (the engine's default, 10 s): a robot that sleeps 3 s
    per decision at a table that allows 0.5 s is now played for at its deadline."""
    import time

    from engine.jail import Program
    from engine.runner import BotSpec

    from ..jail.conftest import jail_or_skip

    jail_or_skip()
    script = (
        "import json, sys, time\n"
        "for line in sys.stdin:\n"
        "    message = json.loads(line)\n"
        "    if message['type'] == 'match':\n"
        "        print('deadline', message['decision_seconds'], file=sys.stderr, flush=True)\n"
        "    if message['type'] == 'act':\n"
        "        time.sleep(3)\n"
        "        print(json.dumps({'action': message['legal'][0]}), flush=True)\n"
    )
    sleeper = BotSpec(
        "sleeper", isolation="jail", program=Program(("/usr/bin/python3", "-c", script))
    )
    game = LiveGame(SETUP, decision_seconds=0.5)
    robot_seat = game.to_act
    started = time.monotonic()
    game.advance({robot_seat: sleeper})
    assert time.monotonic() - started < 2.5  # one deadline of 0.5 s, not 3 s nor 10 s
    assert game.auto_played == [robot_seat]  # played for it, as in bot matches
    assert not game.finished or game.result().get("termination") != "timeout"


def test_a_jailed_robots_log_is_kept_across_the_advances_of_its_game():
    """At a human table a robot's process lasts one advance: what it wrote to its log was lost
    with it, so its owner saw no log for the games it played against people."""
    from engine.jail import Program
    from engine.runner import BotSpec

    from ..jail.conftest import jail_or_skip

    jail_or_skip()
    script = (
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    message = json.loads(line)\n"
        "    if message['type'] == 'act':\n"
        "        print('thinking about', len(message['legal']), 'choices', file=sys.stderr)\n"
        "        print(json.dumps({'action': message['legal'][0]}), flush=True)\n"
    )
    talker = BotSpec(
        "talker", isolation="jail", program=Program(("/usr/bin/python3", "-c", script))
    )
    game = LiveGame(SETUP)
    robot = game.to_act
    human = 1 - robot
    game.advance({robot: talker})
    first = game.logs[robot]
    assert "thinking about" in first
    while not game.finished and game.to_act == human:
        game.act(human, game.observation(human)["legal"][0])
        game = LiveGame(SETUP, game.actions, game.auto_played, logs=game.logs)  # a new request
        game.advance({robot: talker})
    assert game.logs[robot].startswith(first)
    assert game.logs[robot].count("thinking about") >= 2  # from several advances, all kept
