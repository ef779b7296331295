"""The bot protocol (version 1, docs/bot-protocol.md): the only thing that crosses the jail wall.

JSON lines. Every engine message is one JSON object on one line whose first key is `type`:
`match` (once, first), `game` (a new game and the bot's seat in it), `act` (a decision: the only
message that is answered, by one line `{"action": "<one of legal>"}`), `hand_end`, `game_end`
(with the result) and `match_end` (last; then the bot's input closes).

This module is transport-independent: the message builders, the reply parser, the typed errors
that map to the runner's terminations, and `ProtocolBot`, the seat actor the runner drives. A
transport (the jail's pipes in engine/jail/process.py, HTTP in engine/remote.py) only moves
lines: `send`, `request`, `close`, `log_since_last`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, Protocol

import orjson

from .bot import BotCrashed, DecisionTimeout
from .observation import Observation, plain

VERSION = 1
MAX_REPLY_BYTES = 64 * 1024  # an answer longer than this is malformed

# --- typed errors: what a transport or the parser raises, and the runner's termination -------


class ProtocolError(Exception):
    """A bot that broke the protocol. `detail` is public and made only of fixed phrases and
    numbers (it goes into the game record everyone sees); `fault_message` is the bot's own text
    (its error, the tail of its log), private to its owner and staff."""

    termination = "crash"

    def __init__(self, detail: str, fault_message: str = ""):
        super().__init__(detail)
        self.detail = detail
        self.fault_message = fault_message


class BotTimeout(ProtocolError, DecisionTimeout):
    """No answer within the decision's time: the runner plays the default move once, and a
    second time forfeits the game (`timeout`). The bot is restarted before its next decision."""

    termination = "timeout"


class BotExited(ProtocolError, BotCrashed):
    """The bot is gone: its process exited or was killed, its connection failed, or it closed
    its output (`crash`). It is restarted for the next game."""


class BotGaveUp(ProtocolError, BotCrashed):
    """The bot answered `{"error": ...}`: it cannot go on with this game (`crash`). Its process
    is kept for the next game."""


class MalformedReply(ProtocolError):
    """The answer is not a JSON object with a string `action` (`illegal_action`)."""

    termination = "illegal_action"


# --- messages --------------------------------------------------------------------------------


def match_message(
    *,
    bot: str,
    params: Mapping[str, Any],
    variant: str,
    options: Mapping[str, Any],
    players: int,
    decision_seconds: float | None,
    limits: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    return {
        "type": "match",
        "protocol": VERSION,
        "bot": bot,
        "params": plain(dict(params)),
        "variant": variant,
        "options": plain(dict(options)),
        "players": players,
        "decision_seconds": decision_seconds,
        "limits": dict(limits or {}),
    }


def game_message(*, game: int, seat: int, seed: int) -> dict[str, Any]:
    """`seed`: this seat's own random seed for the game, unrelated to the deal (engine/botseed)."""
    return {"type": "game", "game": game, "seat": seat, "seed": seed}


# Messages that carry an observation hold it as the engine's own values (tuples, read-only
# mappings), not a JSON-ready copy: `encode` writes them as `Observation.to_dict()` would, in
# one pass of orjson's encoder (the runner encodes every decision and notice of every seat: with
# the standard library's, that was a third of a jailed decision's cost). Serialize messages
# with `encode` only.


def act_message(ident: int, observation: Observation) -> dict[str, Any]:
    return {
        "type": "act",
        "id": ident,
        "legal": observation.legal,
        "observation": observation._asdict(),
    }


def hand_end_message(observation: Observation) -> dict[str, Any]:
    return {"type": "hand_end", "observation": observation._asdict()}


def game_end_message(observation: Observation, result: Mapping[str, Any]) -> dict[str, Any]:
    public = {k: result.get(k) for k in ("score", "winner", "termination", "seat")}
    public["termination"] = public["termination"] or "normal"
    return {"type": "game_end", "result": plain(public), "observation": observation._asdict()}


def match_end_message() -> dict[str, Any]:
    return {"type": "match_end"}


def _mapping(value: Any) -> Any:
    if type(value) is MappingProxyType or isinstance(value, Mapping):  # observations' mappings
        return dict(value)
    if isinstance(value, tuple):  # a named tuple (orjson writes plain tuples itself)
        return list(value)
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


_ENCODER = json.JSONEncoder(separators=(",", ":"), default=_mapping)
_ORJSON_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_APPEND_NEWLINE


def encode(message: Mapping[str, Any]) -> bytes:
    """One line of JSON (tuples as lists, mapping keys as strings, as in `Observation.to_dict`);
    compact separators keep the pipe short."""
    try:
        return orjson.dumps(message, default=_mapping, option=_ORJSON_OPTIONS)
    except orjson.JSONEncodeError:
        # What orjson does not write (an integer beyond 64 bits) the standard library does.
        return _ENCODER.encode(message).encode() + b"\n"


# --- answers ---------------------------------------------------------------------------------

_SAFE_ACTION = re.compile(r"[a-z0-9#_ -]{1,32}")


def shown_action(action: object) -> str:
    """How a wrong answer is named in the public record: an action-like word as it was, anything
    else (long, odd characters, not a string) by a fixed phrase, so that a bot cannot publish
    text through its forfeits."""
    if isinstance(action, str) and _SAFE_ACTION.fullmatch(action):
        return repr(action)
    return "something that is not an action"


def parse_reply(line: bytes | str, ident: int | None = None) -> str:
    """The action of one answer line. Raises MalformedReply or BotGaveUp."""
    if len(line) > MAX_REPLY_BYTES:
        raise MalformedReply(
            f"answered more than {MAX_REPLY_BYTES} bytes in one line",
            _text(line[:200]),
        )
    try:
        reply = json.loads(line)
    except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: nested too deep
        raise MalformedReply("answered a line that is not JSON", _text(line[:200])) from None
    return reply_action(reply, ident)


def reply_action(reply: Any, ident: int | None = None) -> str:
    """As parse_reply, for an answer already decoded (an HTTP transport's JSON body). An `id`
    is optional; when given it must be the request's."""
    if not isinstance(reply, dict):
        raise MalformedReply("answered JSON that is not an object", _text(repr(reply)[:200]))
    if ident is not None and "id" in reply and reply["id"] != ident:
        raise MalformedReply("answered with the id of another request", _text(repr(reply)[:200]))
    if "error" in reply:
        raise BotGaveUp("gave up the game", _text(str(reply["error"])[:2000]))
    action = reply.get("action")
    if not isinstance(action, str):
        raise MalformedReply("answered an action that is not a string", _text(repr(action)[:200]))
    return action


def _text(value: bytes | str) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else value


# --- the transport and the seat actor --------------------------------------------------------


class Transport(Protocol):
    """Moves protocol messages to one running bot and its answers back."""

    def send(self, message: Mapping[str, Any]) -> None:
        """A message that needs no answer. Raises BotExited when the bot is gone."""

    def request(self, message: Mapping[str, Any], seconds: float) -> Any:
        """Send `message` and return the bot's answer, decoded from JSON (a dict for a bot that
        keeps the protocol; parse_reply/reply_action check it). Raises BotTimeout when no
        answer comes within `seconds`, BotExited when the bot is gone, MalformedReply for a
        line that is not JSON."""

    def close(self, graceful: bool = True) -> None:
        """Stop the bot: every process of it ends. `graceful`: it may first leave by itself
        (a moment after its input closes); not for a bot that hung."""

    def log_since_last(self) -> str:
        """What the bot logged since the last call (its stderr), bounded."""


DEFAULT_DECISION_SECONDS = 10.0


class ProtocolBot:
    """A seat's actor for the runner, speaking the protocol over a transport from `connect`.

    The same actor (and the same running bot) serves a seat across all the games of a match:
    `begin_game` before each game, `act` for decisions, `on_hand_end`, `end_game`, and `close`
    at the end of the match. A bot that hung or died is replaced by a fresh one from `connect`
    (which hears the match and the current game again): after a timeout at once, so that its
    start-up does not eat the next decision; after a crash, at the next game."""

    enforces_deadline = True  # the runner leaves the timing of decisions to the transport

    def __init__(
        self,
        connect: Callable[[], Transport],
        match: Mapping[str, Any],
        *,
        decision_seconds: float | None = None,
    ):
        self._connect = connect
        self.match = dict(match)
        self.name = str(match.get("bot", "bot"))
        self.deadline = DEFAULT_DECISION_SECONDS if decision_seconds is None else decision_seconds
        self._transport: Transport | None = None
        self._game: dict[str, Any] | None = None
        self._broken: ProtocolError | None = None  # this game's bot is dead; no more messages
        self._next_id = 0
        self._log: list[str] = []  # logs of transports closed during this game

    # --- lifecycle -----------------------------------------------------------------------
    def _ensure(self) -> Transport:
        if self._transport is None:
            self._transport = self._connect()
            self._transport.send(self.match)
            if self._game is not None:
                self._transport.send(self._game)
        return self._transport

    def _drop(self, graceful: bool = True) -> None:
        transport, self._transport = self._transport, None
        if transport is not None:
            try:
                transport.close(graceful=graceful)
            finally:
                self._log.append(transport.log_since_last())

    def begin_game(self, *, game: int, seat: int, seed: int) -> None:
        if self._broken is not None:
            self._drop()  # a bot that died last game starts afresh
            self._broken = None
        self._game = game_message(game=game, seat=seat, seed=seed)
        self.seat = seat
        try:
            if self._transport is None:
                self._ensure()  # a fresh bot hears the match, then this game
            else:
                self._transport.send(self._game)
        except ProtocolError as exc:
            self._broken = exc
            self._drop()

    def close(self) -> None:
        """The end of the match: the bot hears it and is stopped."""
        if self._transport is not None and self._broken is None:
            try:
                self._transport.send(match_end_message())
            except ProtocolError:
                pass
        self._drop()

    def log_since_last(self) -> str:
        parts, self._log = self._log, []
        if self._transport is not None:
            parts.append(self._transport.log_since_last())
        return "".join(parts)

    # --- the runner's calls --------------------------------------------------------------
    def act(self, observation: Observation) -> str:
        if self._broken is not None:
            raise self._broken
        try:
            transport = self._ensure()
            self._next_id += 1
            ident = self._next_id
            reply = transport.request(act_message(ident, observation), self.deadline)
            return reply_action(reply, ident)
        except (BotTimeout, MalformedReply):
            # A hung bot is replaced now (the runner plays the default move); after a garbled
            # answer nothing it sends can be trusted to be in step any more.
            self._drop(graceful=False)
            raise
        except BotExited as exc:
            self._broken = exc
            self._drop()
            raise

    def on_hand_end(self, observation: Observation) -> None:
        self._notice(hand_end_message(observation))

    def end_game(self, observation: Observation, result: Mapping[str, Any]) -> None:
        self._notice(game_end_message(observation, result))

    def on_game_end(self, observation: Observation) -> None:
        self.end_game(observation, {"score": list(observation.score), "winner": observation.winner})

    def settle(self, seconds: float) -> None:
        """Deliver the notices sent so far and wait (at most `seconds`; 0: only deliver) for
        the bot to have heard them, before its log is read at the end of a game: what it writes
        on hearing `game_end` is then that game's. A transport that cannot tell (HTTP: no log)
        has no `settle`."""
        settle = getattr(self._transport, "settle", None)
        if settle is None or self._broken is not None:
            return
        try:
            settle(seconds)
        except BotTimeout:  # it stopped reading: replaced before its next decision
            self._drop(graceful=False)
        except ProtocolError as exc:
            self._broken = exc
            self._drop()

    def _notice(self, message: Mapping[str, Any]) -> None:
        """Notices get no answer; a bot that is gone is told nothing more (its next decision or
        game reports it)."""
        if self._transport is None or self._broken is not None:
            return
        try:
            self._transport.send(message)
        except BotTimeout:  # it stopped reading: replaced before its next decision
            self._drop(graceful=False)
        except ProtocolError as exc:
            self._broken = exc
            self._drop()
