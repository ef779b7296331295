"""Determinization: game states consistent with what one seat has observed.

A world is built generically, for any variant: a new game of the same variant and options whose
first hand is the current one (`first_dealer = obs.dealer`, the score before this hand), dealt
with every card the seat knows in its place (its own cards, the cards it saw played by each
seat, partner cards it was shown, the vira) and the unknown cards drawn from those it has not
seen; then this hand's public history is replayed on it (hidden actions such as `cover` get a
card of the sampled hand). The world is kept only if the seat's observation of it equals the
real one, which rejects every deal the history rules out (a flor not declared, an envido that
would have been won by the other seat, ...). After the current hand there are no more cards:
the world stops at the end of the hand, where the search evaluates the score.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from engine.deals import Deal, FixedDeals
from engine.errors import TrucoError
from engine.observation import Observation
from engine.plugins import get_variant
from engine.state import GameState

from .knowledge import card_tokens, deck_set, rules_for

BLIND_PREFIX = "#"


class WorldSampler:
    """Draws worlds consistent with `obs`; `sample(rng)` returns a state or None."""

    def __init__(self, obs: Observation):
        self.obs = obs
        self.variant = get_variant(obs.variant)
        self.rules = rules_for(obs)
        self.deck = deck_set(self.rules.deck_name)
        self.seat = obs.seat
        self.players = obs.players
        self.blind = bool(obs.hand) and obs.hand[0].startswith(BLIND_PREFIX)
        self.extra_count = self.variant.extra_cards(self.rules, obs.players)
        self.expected = obs._replace(hand_no=0)
        self.start = obs.score
        self._known_slots = self._fixed_cards()
        seen = card_tokens(obs._asdict(), self.deck)
        fixed = {c for slots in self._known_slots for c in slots if c is not None}
        self.pool = sorted(self.deck - seen - fixed)
        self.attempts = 0
        self.accepted = 0

    # --- what the seat knows ---------------------------------------------------------------
    def _fixed_cards(self) -> list[list[str | None]]:
        """Per seat, three slots: the card known to have been dealt there, or None."""
        obs = self.obs
        n = self.players
        slots: list[list[str | None]] = [[None, None, None] for _ in range(n)]
        played: dict[int, list[str]] = {}
        for trick in (*obs.tricks, obs.trick):
            for seat, card, _covered in trick:
                if card is not None:
                    played.setdefault(seat, []).append(card)
        for seat, cards in obs.partner_cards.items():
            slots[seat] = list(cards)
        for seat, cards in _shown_by_seat(obs.extra, self.deck).items():
            if 0 <= seat < n:
                _place(slots[seat], [c for c in cards if c not in slots[seat]])
        me = self.seat
        if self.blind:
            # Slots are named in the history ("play #1"); the trick shows the card.
            for seat in range(n):
                names = [a[6:] for s, a in obs.history if s == seat and a.startswith("play #")]
                for name, card in zip(names, played.get(seat, []), strict=False):
                    slots[seat][int(name)] = card
            return slots
        for seat, cards in played.items():
            if seat != me:
                _place(slots[seat], [c for c in cards if c not in slots[seat]])
        # My own cards: the ones I played or covered first, then the held ones in their order,
        # so that my observed hand keeps the dealt order.
        mine = [*played.get(me, []), *obs.covered]
        mine = [c for c in mine if c not in obs.hand]
        slots[me] = (mine + list(obs.hand) + [None, None, None])[:3]
        return slots

    # --- sampling --------------------------------------------------------------------------
    def deal(self, rng: random.Random) -> Deal:
        pool = self.pool[:]
        rng.shuffle(pool)
        hands = []
        for known in self._known_slots:
            hand = []
            for card in known:
                hand.append(card if card is not None else pool.pop())
            hands.append(tuple(hand))
        extra = tuple(pool.pop() for _ in range(self.extra_count)) if self.extra_count else ()
        return Deal(tuple(hands), self.obs.vira, extra)

    def sample(self, rng: random.Random, tries: int = 40) -> GameState | None:
        for _ in range(tries):
            self.attempts += 1
            state = self._try(self.deal(rng), rng)
            if state is not None:
                self.accepted += 1
                return state
        return None

    def _try(self, deal: Deal, rng: random.Random) -> GameState | None:
        start = self.start
        for _ in range(2):
            state = self._replay(deal, start, rng)
            if state is None:
                return None
            # Points already scored in this hand (an envido, a flor) are in the observed score:
            # start the world that much lower so that the replay scores them again.
            gained = (state.score[0] - start[0], state.score[1] - start[1])
            if gained == (0, 0) or start != self.start:
                break
            start = (self.start[0] - gained[0], self.start[1] - gained[1])
            if min(start) < 0:
                return None
        if state.score != self.obs.score:
            return None
        seen = state.observation(self.seat)
        if seen._replace(hand_no=0) != self.expected:
            return None
        return state

    def _replay(self, deal: Deal, start, rng: random.Random) -> GameState | None:
        obs = self.obs
        try:
            state = self.variant.new_game(
                self.players,
                obs.options,
                deals=FixedDeals([deal]),
                first_dealer=obs.dealer,
                start_score=start,
            )
            covered = list(obs.covered)
            for seat, action in obs.history:
                if state.to_act != seat:
                    return None
                legal = state.legal_actions()
                if action not in legal:
                    action = _hidden(action, legal, seat == self.seat, covered, rng)
                    if action is None:
                        return None
                state = state.apply(action)
        except TrucoError:
            return None
        return state


def _hidden(action: str, legal, mine: bool, covered: list[str], rng) -> str | None:
    """The full action behind one the history shows only in part ("cover" for "cover 7h",
    "pair 3c" for "pair 3c 5d"): the hidden part is a card of the sampled hand (or, for the
    seat itself, the card it covered)."""
    prefix = action + " "
    options = [a for a in legal if a.startswith(prefix)]
    if not options:
        return None
    if mine:
        for a in options:
            hidden = a[len(prefix) :].split(" ")
            if hidden and hidden[0] in covered:
                covered.remove(hidden[0])
                return a
        return None
    return rng.choice(options)


def _place(slots: list[str | None], cards: list[str]) -> None:
    for card in cards:
        if card in slots:
            continue
        for i, held in enumerate(slots):
            if held is None:
                slots[i] = card
                break


def _shown_by_seat(extra: Mapping, deck: frozenset[str]) -> dict[int, list[str]]:
    """Cards a variant's public facts tie to a seat: any mapping in `extra` keyed by a seat number
    whose value names cards (e.g. cards shown at a showdown)."""
    out: dict[int, list[str]] = {}

    def walk(value):
        if isinstance(value, Mapping):
            for k, v in value.items():
                seat = (
                    k
                    if isinstance(k, int)
                    else int(k)
                    if isinstance(k, str) and k.isdigit()
                    else None
                )
                if seat is not None:
                    cards = sorted(card_tokens(v, deck))
                    if cards:
                        out.setdefault(seat, []).extend(cards)
                        continue
                walk(v)
        elif isinstance(value, (tuple, list)):
            for v in value:
                walk(v)

    walk(extra)
    return out
