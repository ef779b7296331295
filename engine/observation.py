"""What one seat may know: the only view of a game that bots and humans ever get."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

NOTHING: Mapping[str, Any] = MappingProxyType({})


class Observation(NamedTuple):
    variant: str
    options: Mapping[str, Any]  # the resolved rule options
    players: int
    seat: int
    score: tuple[int, int]  # team 0, team 1
    target: int
    hand_no: int
    dealer: int
    mano: int  # leads the first trick
    phase: str  # "decide", "play", "answer", "showdown", "deal", "over" (variants may add)
    to_act: int  # -1 when the game is over
    legal: tuple[str, ...]  # this seat's legal actions, sorted; empty when it is not its turn
    hand: tuple[str, ...]  # own cards still held; "#0".."#2" slots in a blind hand
    covered: tuple[str, ...]  # own cards played face down this hand (others see only "cover")
    vira: str | None
    kind: str  # "normal", "eleven" (one team on the hand of eleven/ten) or "iron"
    stake: int  # what the hand is worth now
    pending: int | None  # the value a pending bet proposes
    bettor: int | None  # the seat that made the pending bet
    raise_holder: int | None  # the team that may raise next (None: either)
    tricks: tuple  # completed tricks: ((seat, card or None if hidden, covered), ...)
    results: tuple[int, ...]  # per completed trick: winning team, or -1 for a tie
    trick: tuple  # the current trick's plays so far
    partner_cards: Mapping[int, tuple[str, ...]]  # cards of partners this seat has been shown
    history: tuple  # this hand's actions as (seat, action), as everyone saw them
    extra: Mapping[str, Any]  # variant-specific public facts (envido calls, showdown, ...)
    winner: int | None = None  # the winning team once the game is over
    previous_hand: Mapping[str, Any] = NOTHING  # what everyone saw of the last finished hand
    # Added in protocol 1 without breaking it (new keys only; docs/bot-protocol.md):
    leader: int = -1  # the seat that leads the current trick (plays, or played, its first card)
    trick_winners: tuple[int, ...] = ()  # per completed trick: the winning seat, -1 for a tie
    # What each legal bet and answer of this seat is worth, by action (engine/bet_values.py):
    # {"truco": {"won": 3, "lost": 3, "refused": 1}, "refuse": {"conceded": 1}, ...}
    bet_values: Mapping[str, Mapping[str, int]] = NOTHING

    @property
    def team(self) -> int:
        return self.seat & 1

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready copy, for child-process bots and the REST API."""
        out = self._asdict()
        out["options"] = {
            k: list(v) if isinstance(v, tuple) else v for k, v in self.options.items()
        }
        out["partner_cards"] = {str(k): list(v) for k, v in self.partner_cards.items()}
        out["extra"] = plain(dict(self.extra))
        out["previous_hand"] = plain(dict(self.previous_hand))
        out["bet_values"] = plain(dict(self.bet_values))
        for key in ("score", "legal", "hand", "covered", "results", "trick_winners"):
            out[key] = list(out[key])
        out["tricks"] = plain(self.tricks)
        out["trick"] = plain(self.trick)
        out["history"] = plain(self.history)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Observation:
        values = dict(data)
        values["options"] = MappingProxyType(
            {k: tuple(v) if isinstance(v, list) else v for k, v in data["options"].items()}
        )
        values["partner_cards"] = MappingProxyType(
            {int(k): tuple(v) for k, v in data["partner_cards"].items()}
        )
        values["extra"] = MappingProxyType(_frozen(data["extra"]))
        values["previous_hand"] = MappingProxyType(_frozen(data.get("previous_hand", {})))
        values["bet_values"] = MappingProxyType(
            {k: MappingProxyType(dict(v)) for k, v in data.get("bet_values", {}).items()}
        )
        for key in ("score", "legal", "hand", "covered", "results"):
            values[key] = tuple(values[key])
        values["trick_winners"] = tuple(data.get("trick_winners", ()))
        values = {k: v for k, v in values.items() if k in cls._fields}  # keys of later versions
        for key in ("tricks", "trick", "history"):
            values[key] = _frozen(values[key])
        return cls(**values)


def plain(value: Any) -> Any:
    """JSON-ready: tuples become lists, mapping keys strings."""
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    return value


def _frozen(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return {k: _frozen(v) for k, v in value.items()}
    return value
