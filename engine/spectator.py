"""What a spectator may see of a game, and the frames of a game replay.

A spectator's view is built from the seats' own observations: a fact belongs to it only when every
seat sees the same value, so no seat's private knowledge (its cards, its partner's cards in a hand
of eleven, variant-specific private facts) can reach a spectator, whatever the variant adds. A
finished game may be shown with every card (`reveal=True`), as a replay does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .deals import FixedDeals
from .observation import Observation, plain
from .plugins import registry
from .records import replay
from .state import GameState

# Per-seat by definition: never part of a spectator's view.
PRIVATE_FIELDS = frozenset({"seat", "legal", "hand", "covered", "partner_cards", "extra"})


def public_view(state: GameState, *, reveal: bool = False) -> dict[str, Any]:
    """A JSON-ready view of `state` for someone who holds no seat."""
    observations: list[Observation] = [state.observation(s) for s in range(state.players)]
    first = observations[0]
    view: dict[str, Any] = {}
    for name in Observation._fields:
        if name in PRIVATE_FIELDS:
            continue
        value = getattr(first, name)
        if all(getattr(o, name) == value for o in observations[1:]):
            view[name] = plain(value)
    view["extra"] = _common_extra([o.extra for o in observations])
    view["deck"] = state.rules.deck_name  # how to draw the cards: French or Spanish suits
    # How many cards each seat still holds is on the table for everyone to count.
    view["hand_sizes"] = [len(o.hand) for o in observations]
    if reveal:
        view["hands"] = [[c for c in held if c is not None] for held in (state.hands or ())]
        view["covered_cards"] = [[seat, card] for seat, card in (state.covered or ())]
    return view


def _common_extra(extras: list[Mapping[str, Any]]) -> dict[str, Any]:
    first = extras[0]
    return {
        str(key): plain(value)
        for key, value in first.items()
        if all(key in other and other[key] == value for other in extras[1:])
    }


def replay_frames(record: Mapping[str, Any], *, reveal: bool = True) -> dict[str, Any]:
    """Every step of a recorded game: the view before the first action, then after each action.

    Raises engine.errors.RecordError for a record that does not replay."""
    final = replay(record)  # validates the whole record first, with precise error positions
    state = _initial_state(record)
    frames = [{"hand": 0, "seat": None, "action": None, "view": public_view(state, reveal=reveal)}]
    for k, hand in enumerate(record["hands"]):
        for seat, action in hand.get("actions", []):
            state = state.apply(action)
            frames.append(
                {
                    "hand": k,
                    "seat": seat,
                    "action": action,
                    "view": public_view(state, reveal=reveal),
                }
            )
    return {"frames": frames, "summary": final.summary()}


def _initial_state(record: Mapping[str, Any]) -> GameState:
    variant = registry().variant(record["variant"])
    options = record.get("options", {})
    rules = variant.rules(options)
    players = record["players"]
    deals = [rules.deal_from_record(h, players, k) for k, h in enumerate(record["hands"])]
    return variant.new_game(
        players,
        options,
        deals=FixedDeals(deals),
        first_dealer=record["first_dealer"],
        start_score=record.get("start_score", [0, 0]),
    )
