"""The immutable game state. All rule logic lives in the variant's rules object (`state.rules`);
the state only holds facts, and `apply` returns a new state."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .frozen import Frozen

if TYPE_CHECKING:
    from .observation import Observation
    from .rules import TrucoRules

# Phases of a game. Variants may add their own.
DECIDE = "decide"  # hand of eleven / ten: the team on it plays the hand or runs
PLAY = "play"  # the seat to act plays a card or bets
ANSWER = "answer"  # a bet waits for accept, refuse or a raise
SHOWDOWN = "showdown"  # Mineiro: after a tied first trick each seat plays a pair
DEAL = "deal"  # the deal source has no cards for the next hand (a record ended between hands)
OVER = "over"

# Kinds of hand.
NORMAL = "normal"
ELEVEN = "eleven"  # exactly one team on the hand-of-eleven (or ten) threshold
IRON = "iron"  # both teams on it

TIE = -1  # a tied trick (empate, parda)


class GameState(Frozen):
    __slots__ = (
        "rules",  # the variant's rules, configured with this game's options
        "deals",  # where hand k's cards come from
        "players",
        "first_dealer",
        "score",  # (team 0, team 1)
        "hand_no",
        "hand_points",  # what each team scored in every finished hand
        "previous_hand",  # the public summary of the hand that ended last (see hand_summary)
        "points",  # what each team has scored so far in the current hand
        "winner",  # winning team once over, else None
        "phase",
        "to_act",  # the seat to act, -1 when over
        "dealer",
        "mano",
        "kind",
        "blind",  # iron hand played without seeing one's own cards
        "deciding_team",  # the team on the hand of eleven/ten, if any
        "hands",  # per seat, a 3-tuple of slots: the card, or None once played
        "dealt",  # per seat, the three cards as dealt (for the record and partner views)
        "vira",
        "extra_cards",  # further cards of the deal, for variants that use the stock
        "strength",  # card -> strength in this hand
        "trick_no",
        "leader",  # the seat that led the current trick
        "trick",  # current trick: ((seat, card, covered), ...); a covered card shows as None
        "tricks",  # completed tricks
        "results",  # per completed trick: winning team or TIE
        "stake",  # what the hand is worth now
        "level",  # index of the stake in the ladder
        "pending",  # index in the ladder that a pending bet proposes, else None
        "bettor",  # the seat that made the pending bet
        "turn_seat",  # whose turn it was when the bet was made: they go on after the answer
        "resume_phase",  # the phase to go back to once the bet is answered
        "raise_holder",  # the team that may raise next (None: either team)
        "log",  # this hand's actions as (seat, action), as everyone saw them ("cover" hides the card)
        "covered",  # (seat, card) of the cards played face down this hand
        "_legal",  # cached legal actions
    )

    rules: TrucoRules

    # --- the public interface -------------------------------------------------------------
    def legal_actions(self) -> tuple[str, ...]:
        """The legal actions of the seat to act, sorted; empty once the game is over."""
        legal = self._legal
        if legal is None:
            legal = self.rules.legal_actions(self)
            object.__setattr__(self, "_legal", legal)  # a cache, not a change of state
        return legal

    def apply(self, action: str) -> GameState:
        """The state after `action` by the seat to act; raises IllegalAction naming the legal ones."""
        return self.rules.apply(self, action)

    def observation(self, seat: int) -> Observation:
        return self.rules.observation(self, seat)

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def variant(self) -> str:
        return self.rules.variant_name

    @property
    def options(self):
        return self.rules.options

    def snapshot(self) -> dict[str, Any]:
        """Every fact of the state as plain data: two states with equal snapshots are equal."""
        return {
            name: getattr(self, name)
            for name in self._slot_names
            if name not in ("rules", "deals", "_legal", "strength")
        } | {"variant": self.variant, "options": dict(self.options)}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self.snapshot() == other.snapshot()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<GameState {self.variant} hand {self.hand_no} score {self.score} "
            f"phase {self.phase} to_act {self.to_act}>"
        )
