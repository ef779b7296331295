"""The bot protocol without a jail: messages as the docs say, the reply parser's typed errors
with public fixed phrases, the seat actor's restarts, and one-way bot seeds."""

from __future__ import annotations

import json

import pytest

from engine import botseed
from engine.plugins import registry
from engine.protocol import (
    BotExited,
    BotGaveUp,
    BotTimeout,
    MalformedReply,
    ProtocolBot,
    act_message,
    encode,
    hand_end_message,
    parse_reply,
    shown_action,
)


def observations():
    for name in sorted(registry().variants):
        variant = registry().variant(name)
        for players in variant.players:
            state = variant.new_game(players, seed=3)
            for _ in range(12):
                if state.winner is not None or state.phase == "deal":
                    break
                yield state.observation(state.to_act)
                state = state.apply(state.observation(state.to_act).legal[0])


def test_messages_encode_the_observation_exactly_as_to_dict():
    seen = 0
    for observation in observations():
        line = encode(act_message(7, observation))
        assert line.endswith(b"\n") and b"\n" not in line[:-1]
        message = json.loads(line)
        assert list(message)[0] == "type" and message["type"] == "act"
        assert message["legal"] == list(observation.legal)
        assert message["observation"] == observation.to_dict()
        assert (
            json.loads(encode(hand_end_message(observation)))["observation"]
            == message["observation"]
        )
        seen += 1
    assert seen > 20


def test_a_match_message_with_any_json_parameter_still_encodes():
    """A user's bot parameters are any JSON its owner saved: an integer beyond 64 bits (which
    the fast encoder does not write) or a named tuple reach the bot all the same."""
    from collections import namedtuple

    from engine.protocol import match_message

    Pair = namedtuple("Pair", "a b")
    message = match_message(
        bot="alice/greedy v1",
        params={"iterations": 2**70, "weights": Pair(1, 2)},
        variant="paulista",
        options={"target": 12},
        players=2,
        decision_seconds=1.0,
    )
    decoded = json.loads(encode(message))
    assert decoded["params"] == {"iterations": 2**70, "weights": [1, 2]}
    assert list(decoded)[0] == "type"
    # and the shim, in the jail, reads the integer as the integer it is (not a float)
    from engine.jail import shim

    assert shim.loads(encode(message))["params"]["iterations"] == 2**70


@pytest.mark.parametrize(
    ("line", "error", "detail"),
    [
        (b"not json", MalformedReply, "answered a line that is not JSON"),
        # nested deeper than the decoder recurses: a garbled answer too, not a crash
        (b"[" * 60000, MalformedReply, "answered a line that is not JSON"),
        (b'{"action": ' * 5000, MalformedReply, "answered a line that is not JSON"),
        (b"[1, 2]", MalformedReply, "answered JSON that is not an object"),
        (b'{"action": 3}', MalformedReply, "answered an action that is not a string"),
        (
            b'{"id": 2, "action": "play 4c"}',
            MalformedReply,
            "answered with the id of another request",
        ),
        (b'{"error": "my DATABASE_URL is ..."}', BotGaveUp, "gave up the game"),
        (b'{"action": "' + b"x" * 70000 + b'"}', MalformedReply, "answered more than 65536 bytes"),
    ],
)
def test_a_bad_answer_is_a_typed_error_with_a_fixed_public_phrase(line, error, detail):
    with pytest.raises(error) as raised:
        parse_reply(line, ident=1)
    assert raised.value.detail.startswith(detail)
    assert b"DATABASE_URL" not in raised.value.detail.encode()
    if error is BotGaveUp:
        assert "DATABASE_URL" in raised.value.fault_message  # the bot's text, kept privately


def test_a_good_answer_may_echo_its_id():
    assert parse_reply(b'{"action": "play 4c"}', ident=1) == "play 4c"
    assert parse_reply(b'{"id": 1, "action": "truco"}', ident=1) == "truco"


def test_only_action_like_words_are_shown_in_the_public_record():
    assert shown_action("play 9z") == "'play 9z'"
    for text in ("postgres://u:secret@db/x", "a" * 40, 42, "Ünïcode", "line\nbreak"):
        assert shown_action(text) == "something that is not an action"


class FakeTransport:
    def __init__(self, log, replies):
        self.log, self.replies, self.closed = log, replies, False

    def send(self, message):
        self.log.append(message["type"])

    def request(self, message, seconds):
        self.log.append(message["type"])
        reply = self.replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        return reply

    def close(self, graceful=True):
        self.log.append("closed" if graceful else "killed")

    def log_since_last(self):
        return ""


def test_the_seat_actor_restarts_a_hung_bot_at_once_and_a_dead_one_at_the_next_game():
    from engine.observation import Observation  # noqa: F401

    log: list[str] = []
    replies = [
        BotTimeout("no answer within 1s"),
        {"action": "a"},
        BotExited("exited"),
        {"action": "b"},
    ]
    connects = []

    def connect():
        connects.append(1)
        return FakeTransport(log, replies)

    bot = ProtocolBot(connect, {"type": "match", "bot": "x"}, decision_seconds=1.0)
    observation = next(observations())
    bot.begin_game(game=0, seat=0, seed=1)
    with pytest.raises(BotTimeout):
        bot.act(observation)
    assert bot.act(observation) == "a"  # a fresh bot, told the match and the game again
    with pytest.raises(BotExited):
        bot.act(observation)
    with pytest.raises(BotExited):  # dead for the rest of this game: no new process
        bot.act(observation)
    bot.begin_game(game=1, seat=1, seed=2)
    assert bot.act(observation) == "b"
    bot.close()
    assert len(connects) == 3
    assert log == [
        "match",
        "game",
        "act",
        "killed",
        "match",
        "game",
        "act",
        "act",
        "closed",
        "match",
        "game",
        "act",
        "match_end",
        "closed",
    ]


def test_bot_seeds_are_one_way_from_the_deal_seed(monkeypatch):
    monkeypatch.setenv(botseed.ENV, "one secret")
    first = botseed.bot_seed(123456, 0)
    assert first == botseed.bot_seed(123456, 0)  # reproducible under one secret
    assert first != botseed.bot_seed(123456, 1) != botseed.bot_seed(123457, 0)
    assert first != (123456 * 16 + 1) * 2654435761  # not the old invertible formula
    monkeypatch.setenv(botseed.ENV, "another secret")
    assert botseed.bot_seed(123456, 0) != first  # unknowable without the secret
