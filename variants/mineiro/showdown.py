"""Mineiro's first-trick-tie showdown (RULES.md section 2, option `first_tie_showdown`).

When the first trick ties, each seat in turn, from the one that led the tied trick, plays both of
its remaining cards at once: `pair <up> <down>` (`pair #i #j` by slot in a blind iron hand). A seat
may still call truco on its turn before pairing. The up cards are compared like a trick; if they
tie too, the down cards are shown and compared; if those tie, the hand is all tied.

In a hand of ten an up card that is not stronger than its own down card is worth nothing; since
that can only be checked with the down cards in view, they are all shown in a hand of ten.

The showdown fills the hand's second and third tricks: the up cards are trick 2 and the shown down
cards trick 3, so the usual tie rule (after a tied first trick, the first trick won decides) reads
the result. A worthless up card stays visible and is marked `covered` (worth nothing) in its trick.
Until shown, a down card is known to its owner only: it is in the owner's `covered` observation,
and the public history records the pair as `pair <up>`.
"""

from __future__ import annotations

from engine.rules import ALL_TIED, SLOT_NAMES, TrucoRules, trick_winner
from engine.state import ELEVEN, SHOWDOWN, TIE

_NO_CARDS = (None, None, None)


class ShowdownRules(TrucoRules):
    def __init__(self, variant_name, options):
        super().__init__(variant_name, options)
        self.first_tie_showdown: bool = options.get("first_tie_showdown", False)
        self.handlers["pair"] = self.on_pair

    def start_showdown(self, s) -> None:
        """After a tied first trick: whoever led it pairs first (s.leader is still that seat)."""
        s.phase = SHOWDOWN
        s.trick_no = 1
        s.to_act = s.leader

    def legal_other(self, s) -> list[str]:
        if s.phase != SHOWDOWN:
            return super().legal_other(s)
        seat = s.to_act
        hand = s.hands[seat]
        if s.blind:
            first, second = (SLOT_NAMES[i] for i in range(3) if hand[i] is not None)
        else:
            first, second = (card for card in hand if card is not None)
        actions = [f"pair {first} {second}", f"pair {second} {first}"]
        if self.may_call_truco(s, seat):
            actions.append("truco")
        return actions

    def on_pair(self, s, seat: int, action: str) -> None:
        _, up, down = action.split(" ")
        if s.blind:
            up = s.hands[seat][int(up[1:])]
        else:
            s.covered = s.covered + ((seat, down),)
            s.log = s.log[:-1] + ((seat, "pair " + up),)
        hands = s.hands
        s.hands = hands[:seat] + (_NO_CARDS,) + hands[seat + 1 :]
        trick = s.trick + ((seat, up, False),)
        if len(trick) < s.players:
            s.trick = trick
            s.to_act = (seat + 1) % s.players
        else:
            s.trick = ()
            self.resolve_showdown(s, trick)

    def resolve_showdown(self, s, ups: tuple) -> None:
        strength = s.strength
        first_cards = {seat: card for seat, card, _ in s.tricks[0]}
        # A seat's down card is the one dealt card that is neither its first-trick card nor its
        # up card: this holds in a blind hand too, where the seat never saw it.
        down_of = {
            seat: next(c for c in s.dealt[seat] if c != up and c != first_cards[seat])
            for seat, up, _ in ups
        }
        hand_of_ten = s.kind == ELEVEN
        if hand_of_ten:
            ups = tuple((seat, up, strength[up] <= strength[down_of[seat]]) for seat, up, _ in ups)
        _, result = trick_winner(ups, strength)
        tricks = (ups,)
        results = (result,)
        if result == TIE or hand_of_ten:
            downs = tuple((seat, down_of[seat], False) for seat, _, _ in ups)
            tricks += (downs,)
            results += (trick_winner(downs, strength)[1],)
        s.tricks = s.tricks + tricks
        s.results = s.results + results
        outcome = self.hand_outcome(s)
        if outcome == ALL_TIED:
            self.end_all_tied(s)
        else:
            self.end_hand(s, outcome, s.stake)

    def public_cards(self, s) -> set[str]:
        # A worthless up card of a hand of ten is marked covered yet lies face up: any card
        # named in a trick is in view (a covered card is recorded without its name).
        cards = super().public_cards(s)
        cards.update(card for trick in s.tricks for _, card, _ in trick if card is not None)
        return cards

    def default_action(self, s) -> str:
        """Auto-play pairs the stronger card face up: it is the one that can win the up cards, and
        in a hand of ten a weaker up card would be worth nothing."""
        if s.phase != SHOWDOWN or s.blind:
            return super().default_action(s)
        strength = s.strength
        first, second = sorted(
            (c for c in s.hands[s.to_act] if c is not None), key=lambda c: (-strength[c], c)
        )
        return f"pair {first} {second}"
