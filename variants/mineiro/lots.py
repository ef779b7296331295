"""Mineiro's lots (seed 002, option `deal_lots`): before play the mão may change its cards.

The mão first holds its own three dealt cards (its first lot). On its turn, before anything else
in the hand, it may:
- `keep`: keep the lot it holds; the hand goes on (to the hand-of-ten decision, or play);
- `burn`: lay that lot face up on the table (out of play, seen by everyone) and take the next lot;
- `pass` (4 players, once a hand): give that lot to its partner, whose own three cards are set
  aside unseen, and take the next lot.
The mão sees at most four lots: its own and three more from the stock, after which it must keep.
No lots are offered in a blind iron hand, where the mão could not see what it chooses.

The three further lots are part of the deal (`Deal.extra`, nine cards) and of the record (the hand
object's `lots`, see docs/records-extensions.md), so a replay rebuilds them.
"""

from __future__ import annotations

from types import MappingProxyType

from engine.deals import Deal
from engine.errors import RecordError
from engine.rules import TrucoRules
from engine.state import DEAL, PLAY

LOTS = "lots"  # phase: the mão keeps, burns or passes the lot it holds
LOT_SIZE = 3
STOCK_LOTS = 3  # lots beyond the mão's own: it sees at most four


class LotsRules(TrucoRules):
    def __init__(self, variant_name, options):
        super().__init__(variant_name, options)
        self.deal_lots: bool = options.get("deal_lots", False)
        self.handlers.update({"keep": self.on_keep, "burn": self.on_burn, "pass": self.on_pass})

    def start_hand(self, s) -> None:
        s.burned = s.passed = ()
        super().start_hand(s)
        if self.deal_lots and s.extra_cards and s.phase != DEAL and not s.blind:
            s.phase = LOTS
            s.to_act = s.mano

    @staticmethod
    def lots_taken(s) -> int:
        """How many lots of the stock the mão has taken so far."""
        return len(s.burned) // LOT_SIZE + (1 if s.passed else 0)

    def legal_other(self, s) -> list[str]:
        if s.phase != LOTS:
            return super().legal_other(s)
        actions = ["keep"]
        if self.lots_taken(s) * LOT_SIZE < len(s.extra_cards):
            actions.append("burn")
            if s.players == 4 and not s.passed:
                actions.append("pass")
        return actions

    def _take_next_lot(self, s, seat: int, partner: int | None = None) -> tuple[str, ...]:
        """The mão gives up the lot it holds (to `partner`, if any) and takes the next one."""
        start = self.lots_taken(s) * LOT_SIZE
        hands = list(s.hands)
        given_up = hands[seat]
        hands[seat] = s.extra_cards[start : start + LOT_SIZE]
        if partner is not None:
            hands[partner] = given_up
        # No card is played yet: the hands held are the hands dealt for play (what the showdown
        # and a hand of ten's partner view read).
        s.hands = s.dealt = tuple(hands)
        return given_up

    def on_burn(self, s, seat: int, action: str) -> None:
        s.burned = s.burned + self._take_next_lot(s, seat)

    def on_pass(self, s, seat: int, action: str) -> None:
        s.passed = self._take_next_lot(s, seat, partner=(seat + 2) % 4)

    def on_keep(self, s, seat: int, action: str) -> None:
        s.phase = PLAY
        s.to_act = s.mano
        self.start_hand_of_n(s)

    def default_action(self, s) -> str:
        """Auto-play keeps the lot in hand: it never gives away cards it was not asked about."""
        if s.phase == LOTS:
            return "keep"
        return super().default_action(s)

    def extra_observation(self, s, seat: int):
        extra = super().extra_observation(s, seat)
        if not s.burned:
            return extra
        # Face up on the table: everyone sees them. (A passed lot is not repeated here: only the
        # partner holds it, and the mão's history says it passed.)
        return MappingProxyType({**extra, "burned": s.burned})

    def public_cards(self, s) -> set[str]:
        return super().public_cards(s) | set(s.burned)

    # --- records --------------------------------------------------------------------------
    def deal_to_record(self, deal: Deal) -> dict:
        out = super().deal_to_record(deal)
        if deal.extra:
            extra = deal.extra
            out["lots"] = [list(extra[i : i + LOT_SIZE]) for i in range(0, len(extra), LOT_SIZE)]
        return out

    def deal_from_record(self, hand, players: int, k: int) -> Deal:
        deal = super().deal_from_record(hand, players, k)
        lots = hand.get("lots")
        if lots is None:
            return deal
        if not self.deal_lots:
            raise RecordError(f"hand {k}: 'lots' are dealt only with the deal_lots option", hand=k)
        if (
            not isinstance(lots, list)
            or len(lots) > STOCK_LOTS
            or not all(isinstance(lot, list) and len(lot) == LOT_SIZE for lot in lots)
        ):
            raise RecordError(
                f"hand {k}: 'lots' must list up to {STOCK_LOTS} lots of {LOT_SIZE} cards", hand=k
            )
        seen = {card for cards in deal.hands for card in cards}
        extra = tuple(self.record_card(card, seen, k) for lot in lots for card in lot)
        return deal._replace(extra=extra)
