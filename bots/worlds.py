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

Beliefs (optional `judge`): every deal the history allows is not equally likely. A caller may
pass a `judge(state, seat, action, rng)` that says how likely the other team's seat was to take
the betting decision it took in that world (a truco, an answer, an envido, a card played where
it could have bet); a world is then kept with that probability, so that worlds in which the
other side's bets make sense are drawn more often (a truco called says its cards are good).
A world the judge turns down is never the only one: after `tries` draws the last consistent
world is taken as it is.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from operator import itemgetter

from engine.deals import Deal, FixedDeals
from engine.errors import TrucoError
from engine.observation import Observation
from engine.plugins import get_variant
from engine.state import GameState

from .knowledge import card_tokens, deck_set, played_by, rules_for

BLIND_PREFIX = "#"
# Observation fields about earlier hands: a world starts at the current hand, so it cannot
# reproduce them, and the cards they name are back in the deck.
PAST_FIELDS = frozenset({"hand_no", "previous_hand"})
# The decisions that say something about a seat's cards beyond the card it plays: bets and
# answers (a card played where a bet was legal counts too: it did not bet).
BETTING = frozenset({"truco", "accept", "refuse", "envido", "real_envido", "falta_envido", "flor"})
# Deals for which the start of the hand's score is searched before assuming nothing was scored
# in this hand yet (each search replays the hand once per candidate score).
MAX_START_SEARCHES = 8


# The fields of an observation that `present` keeps, picked by one C call (it runs for every
# world drawn).
_present = itemgetter(*(i for i, k in enumerate(Observation._fields) if k not in PAST_FIELDS))


def present(obs: Observation) -> tuple:
    """The observation without what it says about earlier hands."""
    return _present(obs)


class WorldSampler:
    """Draws worlds consistent with `obs`; `sample(rng)` returns a state or None.

    `hand_start_score`, when the caller knows it (a bot remembers the score its hand-end
    notice showed), is the score when this hand began; without it the sampler works it out."""

    def __init__(
        self,
        obs: Observation,
        hand_start_score: tuple[int, int] | None = None,
        judge: Callable | None = None,
    ):
        self.obs = obs
        # How likely the other team's betting decisions of this hand are in a world (beliefs).
        self.judge = judge
        self._judged: list[tuple[GameState, int, str]] = []
        self.disbelieved = 0
        self.variant = get_variant(obs.variant)
        self.rules = rules_for(obs)
        self.deck = deck_set(self.rules.deck_name)
        self.seat = obs.seat
        self.players = obs.players
        self.blind = bool(obs.hand) and obs.hand[0].startswith(BLIND_PREFIX)
        self.extra_count = self.variant.extra_cards(self.rules, obs.players)
        self.expected = present(obs)
        # The score when this hand began, once known.
        self.start: tuple[int, int] | None = hand_start_score
        self.searches = 0
        self._known_slots = self._fixed_cards()
        now = {k: v for k, v in obs._asdict().items() if k not in PAST_FIELDS}
        seen = card_tokens(now, self.deck)
        fixed = {c for slots in self._known_slots for c in slots if c is not None}
        self.pool = sorted(self.deck - seen - fixed)
        self.constraints = revealed_constraints(obs, self.players)
        self._checks: dict[int, list[Callable]] = {}
        for seat, check in self.constraints:
            self._checks.setdefault(seat, []).append(check)
        self.attempts = 0
        self.accepted = 0

    # --- what the seat knows ---------------------------------------------------------------
    def _fixed_cards(self) -> list[list[str | None]]:
        """Per seat, three slots: the card known to have been dealt there, or None."""
        obs = self.obs
        n = self.players
        slots: list[list[str | None]] = [[None, None, None] for _ in range(n)]
        played = played_by(obs)
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
        checks = self._checks
        for _ in range(200):
            pool = self.pool[:]
            rng.shuffle(pool)
            hands = []
            passed = True
            for seat, known in enumerate(self._known_slots):
                seat_checks = checks.get(seat)
                if seat_checks:
                    hand, ok = self._hand_for(known, pool, seat_checks, rng)
                    passed = passed and ok
                else:  # the shuffled pool's last cards, slot by slot
                    hand = tuple(card if card is not None else pool.pop() for card in known)
                hands.append(hand)
            if passed:
                break
        extra = tuple(pool.pop() for _ in range(self.extra_count)) if self.extra_count else ()
        return Deal(tuple(hands), self.obs.vira, extra)

    @staticmethod
    def _hand_for(known, pool: list, checks, rng: random.Random, tries: int = 60):
        """A hand for a seat with checks of its own (Argentino's revealed envido), and whether
        it passes them: its known cards, the rest from `pool` (which loses them), up to `tries`
        draws. One seat's rare hand (an envido of exactly 7) is looked for on its own, instead
        of the whole deal being drawn again until every seat's rare hand comes at once."""
        slots = [i for i, card in enumerate(known) if card is None]
        population = range(len(pool))
        hand = list(known)
        ok = False
        # This loop is most of the time a world costs in Argentino once an envido was shown:
        # it is kept lean (no generator per draw, each check called once per hand).
        for _ in range(tries):
            picked = rng.sample(population, len(slots))
            for slot, i in zip(slots, picked, strict=True):
                hand[slot] = pool[i]
            ok = True
            for check in checks:
                if not check(hand):
                    ok = False
                    break
            if ok:
                break
        for i in sorted(picked, reverse=True):
            pool.pop(i)
        return tuple(hand), ok

    @property
    def judged(self) -> list[tuple[GameState, int, str]]:
        """The other team's betting decisions of the hand in the world drawn last, each with
        the state it was taken in (noted when a `judge` is given)."""
        return self._judged

    def sample(self, rng: random.Random, tries: int = 40) -> GameState | None:
        fallback = None
        for _ in range(tries):
            self.attempts += 1
            state = self._try(self.deal(rng), rng)
            if state is not None:
                if self._judged and not self._believed(rng):
                    self.disbelieved += 1
                    fallback = state
                    continue
                self.accepted += 1
                return state
        return fallback

    def _believed(self, rng: random.Random) -> bool:
        """Whether to keep a consistent world, with the probability that the other team would
        have made its betting decisions of this hand in it."""
        keep = 1.0
        for state, seat, action in self._judged:
            keep *= self.judge(state, seat, action, rng)
        return rng.random() < keep

    def _try(self, deal: Deal, rng: random.Random) -> GameState | None:
        if self.start is not None:
            return self._check(self._replay(deal, self.start, rng))
        observed = self.obs.score
        state = self._replay(deal, observed, rng)
        gained = None
        if state is not None:
            gained = (state.score[0] - observed[0], state.score[1] - observed[1])
            if gained == (0, 0):
                return self._remember(observed, self._check(state))
            # The points this deal scores in the hand were scored before the observed score:
            # the hand most likely started that much lower. One replay, outside the budget of
            # searches, which deals that fit no start at all (most of them, where the hand's
            # bets say much about the other hands) would otherwise spend for good.
            guess = (observed[0] - gained[0], observed[1] - gained[1])
            if min(guess) >= 0:
                found = self._replay(deal, guess, rng)
                if found is not None and found.score == observed:
                    return self._remember(guess, self._check(found))
        if self.searches >= MAX_START_SEARCHES:
            return None
        # Points may have been scored earlier in this hand (an envido, a flor): they are in the
        # observed score, so the hand started lower. What they were worth may depend on the
        # score (a falta envido, or points that would have ended the game), so look for the
        # start from which the replay reaches the observed score.
        self.searches += 1
        for start in self._starts(gained):
            state = self._replay(deal, start, rng)
            if state is not None and state.score == observed:
                return self._remember(start, self._check(state))
        return None

    def _starts(self, gained: tuple[int, int] | None):
        observed = self.obs.score
        guess = None
        if gained is not None:
            guess = (observed[0] - gained[0], observed[1] - gained[1])
            if min(guess) >= 0:
                yield guess
        teams = [t for t in (0, 1) if gained and gained[t] > 0] or [0, 1]
        for team in teams:
            for lower in range(1, observed[team] + 1):
                start = list(observed)
                start[team] -= lower
                if tuple(start) != guess:
                    yield tuple(start)

    def _remember(self, start, state: GameState | None) -> GameState | None:
        """The start score is a fact of the real game, the same in every world: once a world
        confirms it, the next worlds start there at once."""
        if state is not None:
            self.start = start
        return state

    def _check(self, state: GameState | None) -> GameState | None:
        if state is None or state.score != self.obs.score:
            return None
        if present(state.observation(self.seat)) != self.expected:
            return None
        return state

    def _replay(self, deal: Deal, start, rng: random.Random) -> GameState | None:
        obs = self.obs
        judged = self._judged = []
        judge = self.judge is not None
        team = obs.seat & 1
        try:
            state = self.rules.new_state(self.players, FixedDeals([deal]), obs.dealer, start)
            covered = list(obs.covered)
            for seat, action in obs.history:
                if state.to_act != seat:
                    return None
                legal = state.legal_actions()
                if action not in legal:
                    action = _hidden(action, legal, seat == self.seat, covered, rng)
                    if action is None:
                        return None
                if (
                    judge
                    and seat & 1 != team
                    and (action in BETTING or not BETTING.isdisjoint(legal))
                ):
                    judged.append((state, seat, action))
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
        # The seat's covered cards are listed in the order it covered them: this action hid
        # the first one not yet replayed (any other order changes what the seat observes).
        for a in options:
            hidden = a[len(prefix) :].split(" ")
            if covered and hidden and hidden[0] == covered[0]:
                covered.pop(0)
                return a
        return None
    return rng.choice(options)


def revealed_constraints(obs: Observation, players: int) -> list[tuple[int, Callable]]:
    """Cheap checks on a sampled hand from facts a variant reveals (Argentino's `revealed`: the
    envido winner's points, the seats that declared a flor), so that deals the replay would
    reject are mostly skipped before it. The replay's check stays the judge."""
    revealed = obs.extra.get("revealed")
    if not isinstance(revealed, Mapping):
        return []
    checks: list[tuple[int, Callable]] = []
    envido = revealed.get("envido")
    if isinstance(envido, Mapping) and envido.get("seat") in range(players):
        winner, points = envido["seat"], envido.get("points")
        # The variant's arithmetic, looked up once: these checks run for every hand drawn.
        side_bets = get_variant(obs.variant).side_bets
        worth = side_bets.points if side_bets is not None else (lambda _hand: 0)
        checks.append((winner, lambda hand, p=points: worth(hand) == p))
        for seat in range(players):
            if (seat & 1) != (winner & 1):  # the other team's envidos lost (ties aside)
                checks.append((seat, lambda hand, p=points: worth(hand) <= p))
    for seat in revealed.get("flor", ()) or ():
        if seat in range(players):
            checks.append((seat, lambda hand: len({c[-1] for c in hand}) == 1))
    return checks


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
