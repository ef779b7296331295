"""Envido decisions by expected value (Truco Argentino): every call, raise, acceptance and refusal
weighed by the chance to win the game it leads to (bots/equity.py), with the chance that our
points beat the other side's taken from their points' distribution given what this seat sees.

The other side's points are those of the hands it may hold: every three cards of the deck that
are not ours nor shown to us, holding the cards it played this hand, and no flor when the flor
is played (a flor puts the envido off). Each hand is weighed by how likely a seat holding it was
to make the envido moves it made this hand (open a chain, raise ours, accept ours, or let the
envido pass when it could have called it), each move a soft threshold on its points placed where
the profile of the match says this side makes it: a side that opened the envido in three hands
in ten opens with its best three hands in ten, a side that refuses half our envidos accepts with
its best half.

What the other side answers to a call of ours is modelled the same way: it accepts with its hands
above its acceptance threshold (a larger bet: a little higher), and its raises are counted as
acceptances; a raise of ours over their call is taken by their best hands, as large a share as
they took of our raises in the match. Only the variant's own side-bet arithmetic
(engine/side_bets.py) and the observation's `bet_values` are used, never a card this seat may
not see.
"""

from __future__ import annotations

import math
from collections import Counter
from functools import lru_cache
from itertools import combinations

from engine.cards import DECKS
from engine.observation import Observation
from engine.plugins import get_variant

from .equity import win_chance, win_table
from .knowledge import own_dealt, rules_for

CALLS = ("envido", "real_envido", "falta_envido")
# How soft a seat's threshold on its points is (points for a factor e in the odds).
SOFT = 1.2
# How often a seat calls or raises the envido with points it would not bet on (a bluff).
BLUFF = 0.04
# A larger call needs more points to be opened or raised with (points above the threshold of an
# envido).
STEP = {"envido": 0.0, "real_envido": 1.0, "falta_envido": 2.0}
# ... and to be accepted: points above the envido's acceptance threshold for each doubling of
# what the chain is worth over an envido's 2 (a real envido's 3: 1.5 more; a falta envido for
# the game at 0 to 0: the most, STAKE_CAP more), as people and bots alike answer a falta
# envido for the game with 30 points or so.
STAKE = 2.5
STAKE_CAP = 7.0
# How many of our calls the stake's threshold counts for, against those the profile saw refused
# or accepted (a side that takes a real envido as readily as an envido shows it soon).
PRIOR_CALLS = 4.0
# Whatever the profile says, a seat takes any chain with more points than this (so that a bluff
# is never taken for free).
ACCEPT_CAP = 30.0
# A raise over a call shows more than an acceptance of it.
RAISE_OVER_ACCEPT = 2.0
# What a call of ours must add to the chance to win the game, in points at this score (a tenth
# of what one more point is worth): the rates it rests on are estimates.
MARGIN = 0.1


@lru_cache(maxsize=4)
def _all_hands(variant: str, deck_name: str):
    """Every three cards of the deck: (bit mask, envido points, flor)."""
    side = get_variant(variant).side_bets
    deck = DECKS[deck_name]
    bit = {c: 1 << i for i, c in enumerate(deck)}
    out = []
    for hand in combinations(deck, 3):
        mask = bit[hand[0]] | bit[hand[1]] | bit[hand[2]]
        out.append((mask, side.points(hand), side.has_flor(hand)))
    return bit, tuple(out)


@lru_cache(maxsize=512)
def hand_points(
    variant: str, deck_name: str, unseen_mask: int, held_mask: int, no_flor: bool
) -> tuple[tuple[int, int], ...]:
    """(points, how many hands) of the hands made of unseen cards holding `held_mask`."""
    _bit, hands = _all_hands(variant, deck_name)
    counts: Counter = Counter()
    for mask, points, flor in hands:
        if mask & unseen_mask == mask and mask & held_mask == held_mask:
            if no_flor and flor:
                continue
            counts[points] += 1
    return tuple(sorted(counts.items()))


@lru_cache(maxsize=8)
def prior_threshold(variant: str, deck_name: str, share: float) -> float:
    """The points above which a random hand is among the best `share` of hands (interpolated)."""
    _bit, hands = _all_hands(variant, deck_name)
    counts = Counter(points for _m, points, _f in hands)
    total = sum(counts.values())
    share = min(max(share, 0.01), 0.99)
    above = 0.0
    for points in sorted(counts, reverse=True):
        mass = counts[points] / total
        if above + mass >= share:
            # a share of this value's hands: place the threshold within its step
            inside = (share - above) / mass
            return points + 0.5 - inside
        above += mass
    return 0.0


@lru_cache(maxsize=8)
def _prior_counts(variant: str, deck_name: str) -> tuple[tuple[int, float], ...]:
    _bit, hands = _all_hands(variant, deck_name)
    counts = Counter(points for _m, points, _f in hands)
    total = sum(counts.values())
    return tuple(sorted((p, n / total) for p, n in counts.items()))


def share_below(variant: str, deck_name: str, threshold: float) -> float:
    """The share of random hands a soft `threshold` on the points turns down."""
    return sum(m * (1.0 - above(p, threshold)) for p, m in _prior_counts(variant, deck_name))


def sigmoid(x: float) -> float:
    if x < -30:
        return 0.0
    if x > 30:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


def above(points: float, threshold: float) -> float:
    return sigmoid((points - threshold) / SOFT)


class Model:
    """Where the other side opens, raises and accepts the envido, from the profile."""

    def __init__(self, variant: str, deck_name: str, profile):
        self.variant, self.deck_name = variant, deck_name
        self.profile = profile
        opens = profile.envido_rate.value if profile is not None else 0.3
        refuses = profile.envido_refuse.value if profile is not None else 0.5
        self.open_at = prior_threshold(variant, deck_name, opens)
        self.accept_at = prior_threshold(variant, deck_name, 1.0 - refuses)

    def opens(self, points: float, call: str) -> float:
        return BLUFF + (1 - BLUFF) * above(points, self.open_at + STEP.get(call, 0.0))

    def accepts(self, points: float, worth: int, call: str = "envido") -> float:
        """The chance a seat holding `points` accepts our chain opened with `call`, worth
        `worth` if accepted: above the envido's threshold moved up by the stake, unless the
        profile saw how often it refused that call (then that share of its hands, the stake's
        threshold counting as PRIOR_CALLS of them)."""
        return above(points, self.accept_threshold(worth, call))

    @lru_cache(maxsize=64)  # noqa: B019 (a Model lives for one decision)
    def accept_threshold(self, worth: int, call: str) -> float:
        threshold = min(ACCEPT_CAP, self.accept_at + stake_step(worth))
        seen = getattr(self.profile, "envido_refuse_by", {}).get(call)
        if seen is None or seen.total <= 0:
            return threshold
        prior = share_below(self.variant, self.deck_name, threshold)
        refused = (seen.hits + prior * PRIOR_CALLS) / (seen.total + PRIOR_CALLS)
        return min(ACCEPT_CAP, prior_threshold(self.variant, self.deck_name, 1.0 - refused))

    def raises(self, points: float, call: str) -> float:
        """The chance a seat holding `points` raises our envido chain with `call`."""
        return BLUFF + (1 - BLUFF) * above(
            points, self.accept_at + RAISE_OVER_ACCEPT + STEP.get(call, 0.0)
        )


def top_share(spread: list[tuple[int, float]], share: float) -> dict[int, float]:
    """Each point value's chance to be among the best `share` of `spread` (a seat that takes
    that share of our raises takes them with its best hands)."""
    left = min(max(share, 0.0), 1.0)
    out: dict[int, float] = {}
    for points, w in sorted(spread, reverse=True):
        if w <= 0:
            out[points] = 0.0
            continue
        taken = min(w, left)
        out[points] = taken / w
        left -= taken
    return out


def stake_step(worth: int) -> float:
    return min(STAKE_CAP, max(0.0, STAKE * math.log2(max(worth, 1) / 2)))


def their_moves(obs: Observation, seat: int) -> list[tuple[str, str]]:
    """What `seat` did about the envido this hand: ("open" | "raise" | "accept" | "pass", call);
    a pass is its first move of the hand made without an envido where one could be called."""
    moves: list[tuple[str, str]] = []
    chain: list[str] = []
    pending = truco_accepted = acted = False
    for who, action in obs.history:
        if action in CALLS:
            if who == seat:
                moves.append(("raise" if chain else "open", action))
            chain.append(action)
            pending = True
        elif action in ("accept", "refuse") and pending:
            pending = False
            if who == seat and action == "accept":
                moves.append(("accept", chain[-1]))
        elif action == "accept":
            truco_accepted = True
        elif (
            who == seat
            and not (acted or chain or truco_accepted)
            and action.startswith(("play", "cover", "truco"))
        ):
            moves.append(("pass", ""))
        if who == seat:
            acted = True
    return moves


def chain_worth(obs: Observation) -> int:
    """What the envido chain they accepted this hand is worth (for the seats' acceptance): the
    pending or accepted calls' sum, a falta envido counted as the rest of the game."""
    calls = list(obs.extra.get("envido_calls", ()))
    if "falta_envido" in calls:
        return obs.target - max(obs.score)
    return sum(2 if c == "envido" else 3 for c in calls) or 2


def their_spread(obs: Observation, profile) -> list[tuple[int, float]]:
    """(points, probability) of the other side's best envido, given what this seat sees."""
    rules = rules_for(obs)
    deck_name = rules.deck_name
    bit, _hands = _all_hands(obs.variant, deck_name)
    seen = set(own_dealt(obs))
    for cards in obs.partner_cards.values():
        seen.update(cards)
    played: dict[int, list[str]] = {}
    for trick in (*obs.tricks, obs.trick):
        for seat, card, _covered in trick:
            if card is not None:
                seen.add(card)
                played.setdefault(seat, []).append(card)
    unseen = 0
    for card, b in bit.items():
        if card not in seen:
            unseen |= b
    no_flor = bool(obs.options.get("flor"))
    model = Model(obs.variant, deck_name, profile)
    side = None
    for seat in range(obs.players):
        if seat % 2 == obs.team:
            continue
        held = 0
        for card in played.get(seat, ()):
            held |= bit.get(card, 0)
        counts = hand_points(obs.variant, deck_name, unseen | held, held, no_flor)
        moves = their_moves(obs, seat)
        worth = chain_worth(obs)
        weights: dict[int, float] = {}
        for points, n in counts:
            w = float(n)
            for kind, call in moves:
                if kind == "open":
                    w *= model.opens(points, call)
                elif kind == "raise":
                    w *= model.raises(points, call)
                elif kind == "accept":
                    w *= model.accepts(points, worth)
                else:  # let the envido pass where it could have opened it
                    w *= 1.0 - 0.8 * model.opens(points, "envido")
            weights[points] = weights.get(points, 0.0) + w
        total = sum(weights.values()) or 1.0
        spread = {p: w / total for p, w in weights.items()}
        side = spread if side is None else best_of(side, spread)
    return sorted((side or {}).items())


def best_of(a: dict[int, float], b: dict[int, float]) -> dict[int, float]:
    """The spread of the better of two independent seats' points."""
    out: dict[int, float] = {}
    for pa, wa in a.items():
        for pb, wb in b.items():
            key = max(pa, pb)
            out[key] = out.get(key, 0.0) + wa * wb
    return out


def beats(points: int, theirs: int, mano: bool) -> bool:
    return points > theirs or (points == theirs and mano)


def we_win_ties(obs: Observation) -> bool:
    """Ties go to the seat earliest from the mano: taken as ours when the mano is of our team
    (exact with two players; with partners, the seat that ties may be either)."""
    return obs.mano % 2 == obs.team


class EnvidoEV:
    """Envido calls and answers of one seat, by the chance to win the game each leads to."""

    def __init__(self, obs: Observation, profile):
        self.obs = obs
        self.profile = profile
        rules = rules_for(obs)
        self.table = win_table(rules)
        self.mine, self.theirs = obs.score[obs.team], obs.score[1 - obs.team]
        self.points = get_variant(obs.variant).side_bets.points(own_dealt(obs))
        self.mano = we_win_ties(obs)
        self.spread = their_spread(obs, profile)
        self.model = Model(obs.variant, rules.deck_name, profile)

    def game(self, mine: int = 0, theirs: int = 0) -> float:
        return win_chance(self.table, self.mine + mine, self.theirs + theirs)

    def win(self) -> float:
        """The chance our points beat theirs, as they stand."""
        return sum(w for p, w in self.spread if beats(self.points, p, self.mano))

    def played(self, p: float, won: int, lost: int) -> float:
        return p * self.game(mine=won) + (1 - p) * self.game(theirs=lost)

    def accept(self) -> float:
        values = self.obs.bet_values["accept"]
        return self.played(self.win(), values.get("won", 0), values.get("lost", 0))

    def refuse(self) -> float:
        return self.game(theirs=self.obs.bet_values["refuse"].get("conceded", 0))

    def call(self, call: str) -> float:
        """A call or raise of ours: refused, they concede its `refused`; accepted (or raised:
        counted as accepted), our points against their accepting hands."""
        values = self.obs.bet_values[call]
        worth = max(values.get("won", 2), values.get("lost", 2))
        raising = self.obs.extra.get("envido_status") == "pending"
        if raising:  # they called: they take our raise as often as they took our raises
            rate = self.profile.envido_raise_taken.value if self.profile is not None else 0.8
            takes = top_share(self.spread, rate)
        taken = beaten = 0.0
        for p, w in self.spread:
            a = w * (takes[p] if raising else self.model.accepts(p, worth, call))
            taken += a
            if beats(self.points, p, self.mano):
                beaten += a
        refused = self.game(mine=values.get("refused", 1))
        if taken <= 1e-9:
            return refused
        accepted = self.played(beaten / taken, values.get("won", 0), values.get("lost", 0))
        return (1 - taken) * refused + taken * accepted

    def options(self) -> dict[str, float]:
        legal = self.obs.legal
        values = self.obs.bet_values
        out = {c: self.call(c) for c in CALLS if c in legal and c in values}
        if self.obs.extra.get("envido_status") == "pending" and "accept" in values:
            out["accept"] = self.accept()
            out["refuse"] = self.refuse()
        return out


def decide(obs: Observation, profile) -> str | None:
    """The envido action worth most at this score, or None to leave the envido be (play on)."""
    ev = EnvidoEV(obs, profile)
    options = ev.options()
    if not options:
        return None
    if "accept" not in options:
        point = max(ev.game(mine=1) - ev.game(), 0.0)
        options[""] = ev.game() + MARGIN * point  # no call: the game as it stands
    best = max(options, key=options.get)
    return best or None
