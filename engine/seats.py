"""Seat actors that live as long as a match: bots outside the runner's process (in the jail, or
remote over HTTP) are started once per seat per match and kept across its games.

Each isolation other than `inprocess` has a factory, registered here by name, that makes the
seat's actor (an `engine.protocol.ProtocolBot` or anything with its methods). Factories are
named by a dotted path, imported on first use, so that a transport module (engine/remote.py)
plugs in without editing the runner: `register_isolation("remote", "engine.remote:remote_actor")`
is all it takes, and is already done here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import PluginError


@dataclass(frozen=True)
class MatchContext:
    """What a seat's actor is told when it starts: the table, not the deal."""

    variant: str
    options: Mapping[str, Any]
    players: int
    decision_seconds: float | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)  # per-isolation settings


# isolation -> factory(spec, context) -> actor, or "module:function" to import on first use
_FACTORIES: dict[str, Callable[..., Any] | str] = {
    "jail": "engine.jail.actor:jailed_actor",
    "remote": "engine.remote:remote_actor",
}


def register_isolation(isolation: str, factory: Callable[..., Any] | str) -> None:
    _FACTORIES[isolation] = factory


def registered_isolations() -> tuple[str, ...]:
    return tuple(_FACTORIES)


def actor_factory(isolation: str) -> Callable[..., Any]:
    try:
        factory = _FACTORIES[isolation]
    except KeyError:
        raise PluginError(f"no seat factory for isolation {isolation!r}") from None
    if isinstance(factory, str):
        module, _, name = factory.partition(":")
        try:
            factory = getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError) as exc:
            raise PluginError(f"{isolation} bots are not available here: {exc}") from None
        _FACTORIES[isolation] = factory
    return factory


class SeatPool:
    """The out-of-process actors of one match, by seat key (say ("a", 0): side A's first seat,
    whichever seat number it has in this game), and the in-process bots that remember the
    match (engine/actors.py). `close` ends the match for all of them."""

    def __init__(self):
        self._actors: dict[Hashable, Any] = {}
        # In-process bots that keep their memory across the games of the match (Bot.match_memory)
        self._kept: dict[Hashable, tuple[Any, Any]] = {}

    def actor(self, key: Hashable, spec, context: MatchContext):
        actor = self._actors.get(key)
        if actor is None:
            actor = self._actors[key] = actor_factory(spec.isolation)(spec, context)
        return actor

    def kept(self, key: Hashable, spec) -> Any:
        """The remembering in-process bot kept under `key` for this very `spec`, or None."""
        found = self._kept.get(key)
        return found[1] if found is not None and found[0] == spec else None

    def keep(self, key: Hashable, spec, bot) -> None:
        self._kept[key] = (spec, bot)

    def close(self) -> None:
        actors, self._actors = list(self._actors.values()), {}
        self._kept = {}
        errors = []
        for actor in actors:
            try:
                actor.close()
            except Exception as exc:  # every actor is closed, whatever one of them does
                errors.append(exc)
        if errors:
            raise errors[0]

    def finish(self) -> dict[int, str]:
        """Close, as `close`, and return what the actors wrote to their logs since their last
        game's end (hearing the match's end, say), by their seat in that game."""
        actors = list(self._actors.values())
        self.close()
        logs: dict[int, str] = {}
        for actor in actors:
            log_since_last = getattr(actor, "log_since_last", None)
            seat = getattr(actor, "seat", None)
            text = log_since_last() if log_since_last is not None else ""
            if text and seat is not None:
                logs[seat] = logs.get(seat, "") + text
        return logs

    def __enter__(self) -> SeatPool:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


class NotStarted:
    """The actor of a bot seat at a table built only to show, deal or vote (`ShownPool`): no
    process starts, and nothing is asked of it but to begin a game and close."""

    enforces_deadline = True

    def __init__(self, spec):
        self.spec = spec
        self.seat: int | None = None

    def begin_game(self, *, game: int, seat: int, seed: int) -> None:
        self.seat = seat

    def act(self, observation):
        raise RuntimeError(
            f"{self.spec.name} was not started: this table was built to be shown, not played"
        )

    def end_game(self, observation, result) -> None:
        pass

    def on_game_end(self, observation) -> None:
        pass

    def close(self) -> None:
        pass

    def log_since_last(self) -> str:
        return ""


class ShownPool(SeatPool):
    """The pool of a table built only to show it (a page, a state), deal its next game or count
    a vote: its out-of-process seats start no process (a game dealt starts its bots before its
    first decision, and a table shown at a game's start started a jail, told it the match and
    stopped it at once). Whoever plays the table builds it with a pool of its own."""

    def actor(self, key: Hashable, spec, context: MatchContext):
        actor = self._actors.get(key)
        if actor is None:
            actor = self._actors[key] = NotStarted(spec)
        return actor
