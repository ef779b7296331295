"""Sampled playouts of the rest of a hand: the unseen cards dealt at random to the seats that
hold them, every seat then playing its cards by a plain rule (lead the strongest card; follow
with the cheapest card that takes the trick, or throw the weakest). The share of playouts the
team wins is a far better chance to win the hand than `knowledge.hand_win_chance`, which takes
the tricks as independent; it costs a few milliseconds, so the `heuristic` bot uses it for its
own decisions while the search's walks keep the cheap estimate.

Only what the seat may know is used: its cards, the vira, the cards played face up, the
partner's cards it was shown and the burned cards it saw. Who wins a trick and a hand comes
from the rules object (`engine.rules.trick_winner`, `TrucoRules.hand_outcome`), so ties and
their variants' ends are the real ones.
"""

from __future__ import annotations

import random
from types import SimpleNamespace

from engine.cards import DECKS
from engine.observation import Observation
from engine.rules import ALL_TIED, TrucoRules, trick_winner
from engine.state import TIE

CARD_WORDS = ("play ", "cover ")
BET_WORDS = ("truco", "envido", "real_envido", "falta_envido", "fold", "flor")


def blind(obs: Observation) -> bool:
    return bool(obs.hand) and obs.hand[0].startswith("#")


def played(obs: Observation):
    """Every card of the hand so far (seat, card or None when covered, covered)."""
    return [play for trick in obs.tricks for play in trick] + list(obs.trick)


def unseen_cards(obs: Observation, rules: TrucoRules) -> list[str]:
    seen = {*obs.hand, *obs.covered}
    if obs.vira:
        seen.add(obs.vira)
    seen.update(card for _seat, card, _covered in played(obs) if card)
    for cards in obs.partner_cards.values():
        seen.update(cards)
    seen.update(obs.extra.get("burned", ()) or ())
    return [card for card in DECKS[rules.deck_name] if card not in seen]


def first_to_play(obs: Observation) -> int:
    """The seat whose card comes next: after the last card on the trick, else the seat to act
    (or the one that made the bets now being answered, on whose turn they were made)."""
    if obs.trick:
        return (obs.trick[-1][0] + 1) % obs.players
    seat = obs.to_act
    for who, action in reversed(obs.history):
        if action.startswith(CARD_WORDS):
            break
        if action in BET_WORDS:
            seat = who
    return seat


def rule_card(hand: list[str], trick: list, seat: int, strength) -> str:
    """The playouts' rule: lead the strongest card; follow with the cheapest card that takes
    the trick, or the weakest when the partner holds it or nothing takes it."""
    ordered = sorted(hand, key=strength.__getitem__)
    if not trick:
        return ordered[-1]
    top_seat, top = -1, -2
    for who, card, covered in trick:
        value = -1 if covered or card is None else strength[card]
        if value > top:
            top_seat, top = who, value
    if top_seat & 1 == seat & 1:
        return ordered[0]
    for card in ordered:
        if strength[card] > top:
            return card
    return ordered[0]


class Playouts:
    """The playouts of one observation: built once, asked for several first cards."""

    def __init__(self, obs: Observation, rules: TrucoRules):
        self.obs = obs
        self.rules = rules
        self.strength = rules.strength_table(obs.vira)
        self.pool = unseen_cards(obs, rules)
        left = {seat: 3 for seat in range(obs.players)}
        for seat, _card, _covered in played(obs):
            left[seat] -= 1
        self.left = left
        shown = {}
        for seat, cards in obs.partner_cards.items():
            gone = {card for who, card, _c in played(obs) if who == int(seat) and card}
            held = [card for card in cards if card not in gone]
            if len(held) == left[int(seat)]:
                shown[int(seat)] = held
        self.shown = shown
        # The cards dealt to the hidden hands in each playout: drawn, not the whole pool
        # shuffled (a shuffle drew a random number for every unseen card, and was most of the
        # time `heuristic` spends choosing a card).
        self.hidden = sum(
            left[seat] for seat in range(obs.players) if seat != obs.seat and seat not in shown
        )
        self.start = first_to_play(obs)
        self.mano_team = obs.mano & 1
        self.tied_goes_to_mano = getattr(rules, "all_tied", "") == "mano_team"

    def chance(self, rng: random.Random, samples: int, first: str | None = None) -> float:
        """The share of `samples` playouts the seat's team wins (a hand all tied: a half)."""
        obs = self.obs
        if blind(obs) or not obs.hand:
            return 0.5
        mine = obs.team
        total = 0.0
        for _ in range(samples):
            outcome = self.play_out(rng, first)
            if outcome == mine:
                total += 1.0
            elif outcome == ALL_TIED or outcome is None:
                total += 0.5
        return total / samples

    def play_out(self, rng: random.Random, first: str | None) -> int | None:
        obs, strength, rules = self.obs, self.strength, self.rules
        pool = rng.sample(self.pool, min(self.hidden, len(self.pool)))
        hands: dict[int, list[str]] = {}
        dealt = 0
        for seat in range(obs.players):
            if seat == obs.seat:
                hands[seat] = list(obs.hand)
            elif seat in self.shown:
                hands[seat] = list(self.shown[seat])
            else:
                hands[seat] = pool[dealt : dealt + self.left[seat]]
                dealt += self.left[seat]
        results = list(obs.results)
        trick = list(obs.trick)
        seat = self.start
        state = SimpleNamespace(results=results)
        outcome = rules.hand_outcome(state)
        while outcome is None:
            while len(trick) < obs.players and hands[seat]:
                if seat == obs.seat and first is not None:
                    card, first = first, None
                else:
                    card = rule_card(hands[seat], trick, seat, strength)
                hands[seat].remove(card)
                trick.append((seat, card, False))
                seat = (seat + 1) % obs.players
            if len(trick) < obs.players:
                return None  # cards ran out: nothing more to learn
            winner, result = trick_winner(trick, strength)
            results.append(result)
            seat = trick[0][0] if result == TIE else winner
            trick = []
            outcome = rules.hand_outcome(state)
        if outcome == ALL_TIED and self.tied_goes_to_mano:
            return self.mano_team
        return outcome

    def best_card(self, rng: random.Random, samples: int) -> str | None:
        """The card (face up) whose playouts win most often; the weakest of equals, keeping
        strength for later. None when there is nothing to choose."""
        plays = [a[5:] for a in self.obs.legal if a.startswith("play ")]
        if len(plays) < 2 or blind(self.obs):
            return None
        # The same deals for every card (common random numbers): the cards are compared on
        # equal luck, so far fewer samples tell them apart.
        seed = rng.getrandbits(32)
        scored = [(self.chance(random.Random(seed), samples, first=card), card) for card in plays]
        best = max(score for score, _card in scored)
        return min(
            (card for score, card in scored if score >= best - 1e-9),
            key=self.strength.__getitem__,
        )
