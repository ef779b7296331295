"""Helpers for scenario tests: games from explicit deals, written as records and replayed, so that
every rule test also exercises the record format."""

from __future__ import annotations

from engine.deals import Deal
from engine.plugins import get_variant
from engine.records import FORMAT, replay


def hand(cards, actions=(), vira=None, **extra):
    """One hand of a record: each seat's cards (a list of three, or a space-separated string),
    the vira, and the actions as (seat, action) pairs or "seat action" strings."""
    out = {"cards": [c.split() if isinstance(c, str) else list(c) for c in cards]}
    if vira is not None:
        out["vira"] = vira
    out["actions"] = [_action(a) for a in actions]
    out.update(extra)
    return out


def _action(entry):
    if isinstance(entry, str):
        seat, action = entry.split(" ", 1)
        return [int(seat), action]
    return [entry[0], entry[1]]


def record(variant, hands, *, players=2, first_dealer=None, start_score=(0, 0), options=None):
    """A record whose first mão is seat 0 unless `first_dealer` says otherwise."""
    return {
        "format": FORMAT,
        "variant": variant,
        "options": dict(options or {}),
        "players": players,
        "first_dealer": players - 1 if first_dealer is None else first_dealer,
        "start_score": list(start_score),
        "hands": list(hands),
    }


def play(variant, hands, **kwargs):
    """Replay the hands and return the Replay (its .state and .hand_points)."""
    return replay(record(variant, hands, **kwargs))


def start(variant, deals, *, players=2, first_dealer=None, start_score=(0, 0), options=None):
    """A game state at the start of the first of `deals` ((cards, vira) pairs), to step through
    with `act`."""
    game = get_variant(variant)
    fixed = []
    for cards, vira in deals:
        fixed.append(
            Deal(tuple(tuple(c.split() if isinstance(c, str) else c) for c in cards), vira)
        )
    return game.new_game(
        players,
        options,
        deals=fixed,
        first_dealer=players - 1 if first_dealer is None else first_dealer,
        start_score=start_score,
    )


def act(state, *steps):
    """Apply "seat action" steps, checking that each seat is the one to act."""
    for step in steps:
        seat, action = _action(step)
        assert state.to_act == seat, (
            f"expected seat {seat} to act before {action!r}, but seat {state.to_act} is"
        )
        state = state.apply(action)
    return state
