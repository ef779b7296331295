"""Game records (RECORDS.md, format truco-record/1): writing them as games are played, reading and
validating them, and replaying them."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .deals import FixedDeals
from .errors import IllegalAction, OptionError, PluginError, RecordError
from .plugins import registry as default_registry
from .state import DEAL, GameState

FORMAT = "truco-record/1"


class RecordKeeper:
    """Collects the actions of a game hand by hand and writes its record."""

    def __init__(self, state: GameState):
        self.start_score = state.score
        self.hands: list[list[list]] = [[]]

    def open_hand(self, hand_no: int) -> list[list]:
        """The action list of hand `hand_no`, for the runner to append `[seat, action]` to."""
        hands = self.hands
        while len(hands) <= hand_no:
            hands.append([])
        return hands[hand_no]

    def record(self, state: GameState, result: Mapping[str, Any] | None = None) -> dict[str, Any]:
        rules = state.rules
        dealt = state.hand_no + (0 if state.phase == DEAL else 1)
        hands = []
        for k in range(dealt):
            hand = rules.deal_to_record(state.deals.deal(k))
            hand["actions"] = self.hands[k] if k < len(self.hands) else []
            hands.append(hand)
        return {
            "format": FORMAT,
            "variant": rules.variant_name,
            "options": rules.schema.overrides(rules.options),
            "players": state.players,
            "first_dealer": state.first_dealer,
            "start_score": list(self.start_score),
            "hands": hands,
            "result": dict(result)
            if result
            else {"score": list(state.score), "winner": state.winner},
        }


@dataclass
class Replay:
    state: GameState
    hand_points: list[tuple[int, int]]

    def summary(self) -> dict[str, Any]:
        """The output of `python -m engine replay` (RECORDS.md)."""
        s = self.state
        out: dict[str, Any] = {
            "score": list(s.score),
            "winner": s.winner,
            "finished": s.is_over,
            "hands": [{"points": list(p)} for p in self.hand_points],
        }
        if not s.is_over:
            out["to_act"] = s.to_act
            out["legal"] = list(s.legal_actions())
        return out


def _require(condition: bool, message: str, **where) -> None:
    if not condition:
        raise RecordError(message, **where)


def load(text: str) -> Any:
    try:
        return json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise RecordError(f"malformed record: not JSON ({exc})") from None


def replay(data: Any, registry=None) -> Replay:
    """Replay a record; RecordError (with hand and action indices where they apply) for anything
    malformed, unknown or illegal."""
    if registry is None:
        registry = default_registry()
    _require(isinstance(data, dict), "malformed record: the top level must be a JSON object")
    _require(
        data.get("format") == FORMAT,
        f"malformed record: 'format' must be {FORMAT!r}, not {data.get('format')!r}",
    )
    name = data.get("variant")
    _require(isinstance(name, str), "malformed record: 'variant' must be a variant name")
    try:
        variant = registry.variant(name)
    except PluginError as exc:
        raise RecordError(str(exc)) from None
    options = data.get("options", {})
    try:
        rules = variant.rules(options)
        players = variant.check_players(data.get("players"))
    except OptionError as exc:
        raise RecordError(str(exc)) from None
    first_dealer = data.get("first_dealer")
    _require(
        type(first_dealer) is int and 0 <= first_dealer < players,
        f"malformed record: 'first_dealer' must be a seat from 0 to {players - 1}",
    )
    start = data.get("start_score", [0, 0])
    _require(
        isinstance(start, list)
        and len(start) == 2
        and all(type(v) is int and 0 <= v < rules.target for v in start),
        f"malformed record: 'start_score' must be two integers from 0 to {rules.target - 1}",
    )
    hands = data.get("hands")
    _require(isinstance(hands, list), "malformed record: 'hands' must be a list")
    deals = []
    plans = []
    for k, hand in enumerate(hands):
        _require(isinstance(hand, dict), f"hand {k} must be an object", hand=k)
        deals.append(rules.deal_from_record(hand, players, k))
        actions = hand.get("actions", [])
        _require(isinstance(actions, list), f"hand {k}: 'actions' must be a list", hand=k)
        for j, entry in enumerate(actions):
            _require(
                isinstance(entry, list)
                and len(entry) == 2
                and type(entry[0]) is int
                and isinstance(entry[1], str),
                f'hand {k}, action {j}: an action must be [seat, "action"], not {entry!r}',
                hand=k,
                action=j,
            )
        plans.append(actions)

    state = variant.new_game(
        players, options, deals=FixedDeals(deals), first_dealer=first_dealer, start_score=start
    )
    for k, actions in enumerate(plans):
        if state.is_over:
            raise RecordError(f"hand {k} comes after the end of the game", hand=k)
        if state.hand_no != k:
            raise RecordError(f"hand {k - 1} is not finished but hand {k} follows", hand=k - 1)
        for j, (seat, action) in enumerate(actions):
            if state.hand_no != k or state.is_over:
                raise RecordError(
                    f"hand {k}, action {j}: the hand is already over", hand=k, action=j
                )
            if seat != state.to_act:
                raise RecordError(
                    f"hand {k}, action {j}: seat {seat} acted but seat {state.to_act} is to act",
                    hand=k,
                    action=j,
                )
            try:
                state = state.apply(action)
            except IllegalAction as exc:
                raise RecordError(f"hand {k}, action {j}: {exc}", hand=k, action=j) from None
    points = list(state.hand_points)
    if len(points) < len(hands):
        points.append(state.points)
    return Replay(state, points)
