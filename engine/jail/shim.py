"""The Python side of the bot protocol, run inside the jail for a registered plugin bot:

    python -I -S -B -c "...; from engine.jail.shim import run; run()" MODULE QUALNAME

It imports only the engine's observation and bot classes and the bot's own module (no plugin
registry, nothing of the server), builds the bot for each game as the runner would in-process
(`Bot(variant=..., options=..., seat=..., players=..., rng=Random(seed), **params)`) and answers
each `act` with the bot's action. A bot that cannot be built, or raises, answers `{"error": ...}`
(its game is a crash; the process goes on for the next game).
"""

from __future__ import annotations

import importlib
import json
import os
import random
import sys
import traceback
from types import MappingProxyType

# Messages are read with the standard library's decoder: orjson's reads an integer beyond 64
# bits as a float, and a bot's parameters may hold one.
loads = json.loads

try:  # the runner's fast encoder, where the jail sees it (site-packages is bound read-only)
    import orjson

    def dumps(reply: dict) -> bytes:
        try:
            return orjson.dumps(reply)
        except TypeError:  # orjson's JSONEncodeError; an action beyond what it writes
            return json.dumps(reply, separators=(",", ":")).encode()

except ImportError:  # pragma: no cover - the standard library's does the same, slower

    def dumps(reply: dict) -> bytes:
        return json.dumps(reply, separators=(",", ":")).encode()


def load(module: str, qualname: str):
    target = importlib.import_module(module)
    for part in qualname.split("."):
        target = getattr(target, part)
    return target


# Where the server keeps the code the jail shows (its own folders on the host, bound at their
# paths): named by what they are in what the shim writes, so that a bot's log and error say
# `<engine>/engine/bot.py`, not the server's layout. Filled in by main() from its sys.path.
_HIDDEN: list[tuple[str, str]] = []


def _hide_host_paths(paths: list[str]) -> None:
    found = {}
    for path in paths:
        if path and path.startswith("/") and path != "/bot":
            name = os.path.basename(path)
            found[path] = (
                "<site-packages>" if name in ("site-packages", "dist-packages") else "<code>"
            )
    for prefix in {sys.base_prefix, sys.prefix}:
        if prefix and prefix not in ("/", "/usr"):
            found[prefix] = "<python>"
    _HIDDEN[:] = sorted(found.items(), key=lambda item: len(item[0]), reverse=True)


def scrubbed(text: str) -> str:
    for path, label in _HIDDEN:
        text = text.replace(path, label)
    return text


def _error(exc: BaseException) -> str:
    lines = traceback.format_exception_only(type(exc), exc)
    return scrubbed("".join(lines).strip())[-2000:]


def _log_traceback() -> None:
    print(scrubbed(traceback.format_exc()), file=sys.stderr)


class Seat:
    """The bot of the current game and what it needs to be built."""

    def __init__(self, factory, match: dict):
        self.factory = factory
        self.match = match
        self.options = MappingProxyType(
            {k: tuple(v) if isinstance(v, list) else v for k, v in match["options"].items()}
        )
        self.bot = None
        self.error: str | None = None
        self.hears_hands = False

    def new_game(self, message: dict) -> None:
        self.bot, self.error = None, None
        try:
            self.bot = self.factory(
                variant=self.match["variant"],
                options=self.options,
                seat=message["seat"],
                players=self.match["players"],
                rng=random.Random(message["seed"]),
                **self.match.get("params", {}),
            )
        except Exception as exc:
            self.error = f"the bot could not start: {_error(exc)}"
            _log_traceback()
        base = getattr(getattr(sys.modules.get("engine.bot"), "Bot", None), "on_hand_end", None)
        self.hears_hands = getattr(type(self.bot), "on_hand_end", base) is not base


def main(argv: list[str] | None = None) -> int:
    # Imported when the shim runs in the jail, not when its module is read: the module loads
    # nothing of the engine but what a run needs (the docstring above).
    from engine.observation import Observation

    module, qualname = (argv or sys.argv[1:])[:2]
    _hide_host_paths(list(sys.path))
    # The protocol's pipes are the shim's alone: whatever the bot prints goes to its log, and it
    # cannot read the engine's messages from under the shim.
    out = sys.stdout.buffer
    requests = sys.stdin.buffer
    sys.stdout = sys.stderr
    sys.stdin = open(os.devnull)
    factory = None
    seat = None
    load_error = None
    for line in requests:
        # The engine writes `type` first: notices the bot does not hear are skipped unparsed.
        if line.startswith(b'{"type":"hand_end"') and (seat is None or not seat.hears_hands):
            continue
        message = loads(line)
        kind = message.get("type")
        if kind == "match":
            try:
                factory = load(module, qualname)
            except Exception as exc:
                load_error = f"the bot's module could not be loaded: {_error(exc)}"
                _log_traceback()
            seat = Seat(factory, message)
        elif kind == "game" and seat is not None:
            if load_error is None:
                seat.new_game(message)
        elif kind == "act":
            reply = answer(seat, load_error, Observation.from_dict(message["observation"]))
            reply["id"] = message["id"]
            try:
                data = dumps(reply)
            except (TypeError, ValueError):
                data = dumps({"id": message["id"], "action": None})
            out.write(data + b"\n")
            out.flush()
        elif kind in ("hand_end", "game_end") and seat is not None and seat.bot is not None:
            observation = Observation.from_dict(message["observation"])
            try:
                if kind == "hand_end":
                    seat.bot.on_hand_end(observation)
                else:
                    seat.bot.on_game_end(observation)
            except Exception:  # a notice is a courtesy, as in the runner
                _log_traceback()
        elif kind == "match_end":
            break
    return 0


def answer(seat: Seat | None, load_error: str | None, observation) -> dict:
    if load_error or seat is None:
        return {"error": load_error or "no match was announced"}
    if seat.bot is None:
        return {"error": seat.error or "no game was announced"}
    try:
        action = seat.bot.act(observation)
    except Exception as exc:
        _log_traceback()
        return {"error": _error(exc)}
    return {"action": action}


def run(argv: list[str] | None = None) -> int:
    """main(), with whatever else the bot raises (KeyboardInterrupt, a BaseException of its own)
    written to its log with the host's folders hidden too, instead of Python's own traceback;
    the bot's process then ends (a crash). sys.exit() keeps its own exit code."""
    try:
        return main(argv)
    except SystemExit:
        raise
    except BaseException:
        _log_traceback()
        return 1


if __name__ == "__main__":
    raise SystemExit(run())
