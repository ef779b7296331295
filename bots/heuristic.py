"""A rule-based player (bot `heuristic`), following the advice of the source documents:

- judge the hand by the strength of its cards against this hand's manilhas;
- win the first trick when it can, with the cheapest card that does;
- keep the best card for the decisive trick;
- bet, accept and raise by thresholds on the chance to win the hand, weighed by what the points
  are worth at this score; bluff now and then with a weak hand;
- envido from 28 upward, real envido from 31, falta envido at 33 (seed 002); the `heuristic` bot
  (with its profile of the match) plays it by expected value instead (bots/envido_ev.py,
  `envido_ev`, on by default);
- flor whenever it has one; decide a hand of eleven (or ten) by the strength of the hand.

It works in any variant: strengths come from the rules object, unknown actions are chosen among
the legal ones. `HeuristicPolicy.decide` is also the search bot's rollout policy, so it is kept
cheap (a few microseconds per decision).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from engine.bot import Bot
from engine.hookspecs import hookimpl
from engine.observation import Observation
from engine.rules import TrucoRules

from . import envido_ev
from .envido_odds import beats_accepter
from .equity import win_chance, win_table
from .knowledge import (
    card_quality,
    hand_win_chance,
    own_dealt,
    rules_for,
    side_bet_points,
    trick_standing,
)
from .playouts import Playouts
from .profile import TRUCO_BANDS, OpponentProfile, habitual_truco, taken_then_raised

ENVIDO_CALLS = ("envido", "real_envido", "falta_envido")
# How much an envido below the usual call must add to the chance to win the game (a fifth of a
# point or so): the refusal rate it rests on is an estimate.
ENVIDO_MARGIN = 0.005
# Whether `heuristic` plays the envido by expected value (bots/envido_ev.py) by default: it
# measured better with two players and with four (docs/bots.md).
ENVIDO_EV = True
# Whether `heuristic` reads a bet of the other side over a truco of ours that it had accepted
# apart from its raises made at once (`later`).
LATER = True
# Whether `heuristic` judges a hand of eleven (or ten) with partners by playouts of both hands
# of the team it sees (`eleven_playouts`), on this many sampled deals.
ELEVEN_PLAYOUTS = True
ELEVEN_SAMPLES = 200
# How many opening trucos on cards of a band (bots/profile.py, TrucoOutcomes) before what they
# brought may stop one the rules would make.
TRUCO_EVIDENCE = 6
# `HeuristicPolicy.chance` by what it depends on (the rules, the vira, the team, the player
# count, the tricks' results, the trick on the table and the hand); cleared when full.
_CHANCES: dict[tuple, float] = {}
MAX_CHANCES = 50_000


@dataclass(frozen=True)
class Thresholds:
    call: float = 0.68  # call truco when the hand is this likely to be won
    raise_: float = 0.80  # raise a bet made against us
    bluff: float = 0.08  # chance to call with a weak hand
    bluff_below: float = 0.35  # what counts as weak
    doubt: float = 0.10  # a bet from the other side says their cards are good: trust ours less
    envido: int = 28  # seed 002: "from 28 it is generally worth betting"
    real_envido: int = 31
    falta_envido: int = 33
    accept_envido: int = 27
    accept_falta: int = 30


class HeuristicPolicy:
    """Decisions from an observation alone; stateless apart from its thresholds."""

    def __init__(
        self,
        thresholds: Thresholds | None = None,
        profile: OpponentProfile | None = None,
        envido_ev: bool = False,
    ):
        self.t = thresholds or Thresholds()
        # What this match taught about the other team (None: plays its fixed thresholds, as the
        # search's model of the table does).
        self.profile = profile
        # The kind of the last bet believed and the chance the model gave (see `believed`).
        self.last_belief: tuple[str, float] | None = None
        # The envido by expected value (bots/envido_ev.py), with a profile only.
        self.envido_ev = envido_ev and profile is not None
        self.last_bluff = False  # whether the last truco it decided to call was a bluff
        self.last_call: float | None = None  # the chance it last weighed a truco of its own on
        # Their bets over a truco of ours they had accepted read apart ("later"; the bot's
        # parameter `later`, off for the search's model of the table).
        self.later = False
        self.raised_back = False  # whether the last decision raised because this side runs

    def decide(self, obs: Observation, rng: random.Random, rules: TrucoRules | None = None) -> str:
        legal = obs.legal
        self.raised_back = False
        if len(legal) == 1:
            return legal[0]
        rules = rules or rules_for(obs)
        action = self._decide(obs, rng, rules, legal)
        if action in legal:
            return action
        return self.fallback(obs, rng, rules)

    # --- the decisions ---------------------------------------------------------------------
    def _decide(self, obs, rng, rules, legal) -> str | None:
        if "flor" in legal:
            return "flor"
        if obs.phase == "decide":
            return self.decide_hand_of_n(obs, rules, rng)
        envido = self.envido(obs, legal)
        if envido is not None:
            return envido
        if "accept" in legal:
            return self.answer(obs, rng, rules, legal)
        if any(a.startswith("pair ") for a in legal):
            return self.pair(obs, rules, legal)
        if "keep" in legal:  # Mineiro's lots: change a poor lot for the next one
            return "keep" if "burn" not in legal or self.chance(obs, rules) >= 0.45 else "burn"
        if "truco" in legal and self.should_call(obs, rng, rules):
            return "truco"
        return self.play(obs, rng, rules, legal)

    def chance(self, obs: Observation, rules: TrucoRules) -> float:
        """The chance to win the hand with the cards held (see knowledge.hand_win_chance)."""
        # The search's walks ask it again and again for the same hand at the same point of the
        # same trick (every candidate meets the same world): it is remembered by all it reads.
        key = (rules, obs.vira, obs.seat & 1, obs.players, obs.results, obs.trick, obs.hand)
        found = _CHANCES.get(key)
        if found is None:
            found = self._chance(obs, rules)
            if len(_CHANCES) >= MAX_CHANCES:
                _CHANCES.clear()
            _CHANCES[key] = found
        return found

    @staticmethod
    def _chance(obs: Observation, rules: TrucoRules) -> float:
        quality = card_quality(rules, obs.vira)
        strength = rules.strength_table(obs.vira)
        if obs.hand and obs.hand[0].startswith("#"):  # blind: the cards are unknown
            return hand_win_chance(obs, quality, strength, []) if obs.results else 0.5
        return hand_win_chance(obs, quality, strength, [c for c in obs.hand if c in quality])

    @staticmethod
    def scores(obs: Observation) -> tuple[int, int]:
        return obs.score[obs.team], obs.score[1 - obs.team]

    @staticmethod
    def giving(rules: TrucoRules, obs: Observation, points: int) -> float:
        """My team's chance to win the game once the other side scores `points`."""
        mine, theirs = HeuristicPolicy.scores(obs)
        return win_chance(win_table(rules), mine, theirs + points)

    @staticmethod
    def playing_for(rules: TrucoRules, obs: Observation, p: float, points: int) -> float:
        """My team's chance to win the game when the hand, won with chance p, is worth
        `points`."""
        mine, theirs = HeuristicPolicy.scores(obs)
        return played_for(win_table(rules), mine, theirs, p, points, points)

    def decide_hand_of_n(
        self, obs: Observation, rules: TrucoRules, rng: random.Random | None = None
    ) -> str:
        """Play the hand of eleven (or ten) when the chance to win it is worth the risk: playing
        stakes the decided value, running gives the opponents the base value."""
        p = self.eleven_chance(obs, rules, rng)
        play = self.playing_for(rules, obs, p, rules.decided_value)
        run = self.giving(rules, obs, rules.refused_value)
        return "accept" if play >= run else "refuse"

    def eleven_chance(self, obs: Observation, rules: TrucoRules, rng) -> float:
        """The chance to win the hand of eleven (or ten) the team decides, by the rules."""
        cards = [c for c in obs.hand if not c.startswith("#")]
        partner = [c for cards_ in obs.partner_cards.values() for c in cards_]
        quality = card_quality(rules, obs.vira)
        players = obs.players
        if partner:
            # Both hands of the team are known: its three best cards against two unknown hands.
            cards = sorted(cards + partner, key=lambda c: -quality[c])[:3]
            players = 2
        return hand_win_chance(obs, quality, rules.strength_table(obs.vira), cards, players)

    def should_call(self, obs: Observation, rng: random.Random, rules: TrucoRules) -> bool:
        if obs.kind != "normal":  # truco there is barred or loses the game
            return False
        p = self.chance(obs, rules)
        if obs.stake != rules.ladder[0]:
            p = self.after_betting(obs, rules, p)
        self.last_call = p
        level = rules.ladder.index(obs.stake) if obs.stake in rules.ladder else 0
        if level + 1 >= len(rules.ladder):
            return False
        accepted = self.playing_for(rules, obs, p, rules.ladder[level + 1])
        call, bluff = self.t.call, self.t.bluff
        if self.profile is not None and obs.stake == rules.ladder[0]:
            # A side that runs from most bets pays for every bluff; one that calls them all
            # pays only for good hands. Our bluffs are counted apart: when our cards are weak
            # theirs are strong more often, and a side that answers by its own cards runs
            # from our bluffs less often than from our trucos.
            folds = self.profile.refuse_rate.value
            call = min(0.85, max(0.5, call - 0.4 * (folds - 0.5)))
            # (until our bluffs are counted, as often as from our trucos: the prior)
            seen = self.profile.bluff_refuse
            bluff_folds = (seen.hits + folds * seen.weight) / (seen.total + seen.weight)
            bluff = min(0.6, max(0.0, bluff + 1.2 * (bluff_folds - 0.5)))
        if p >= call and accepted >= self.playing_for(rules, obs, p, obs.stake):
            return self.truco_pays(obs, rules, p, rules.ladder[level + 1])
        # A bluff: only early in the hand, where the other side cannot yet read it.
        weak = p < self.t.bluff_below and len(obs.results) <= 1
        self.last_bluff = weak and rng.random() < bluff
        if self.last_bluff and not self.truco_pays(obs, rules, p, rules.ladder[level + 1]):
            self.last_bluff = False
        return self.last_bluff

    def truco_pays(self, obs: Observation, rules: TrucoRules, p: float, value: int) -> bool:
        """Whether an opening truco on poor cards (chance `p`) is worth more than playing the
        hand quietly, by what this side did with our trucos on such cards (OpponentProfile's
        `trucos`): how often it ran, and how often we won those it took. A side that answers
        by its own cards takes bluffs and wins them (opp-eleven-rush, four players: 20 of 29
        taken, 16 of those won). Until a band has been tried `TRUCO_EVIDENCE` times, on fair
        cards and better, and for the search's model, the rules stand."""
        if self.profile is None or obs.stake != rules.ladder[0]:
            return True
        if p >= TRUCO_BANDS[1]:
            # A fair hand or better: against that same side, trucos on a 0.5-0.65 chance were
            # run from 77% of the time, worth about +0.4 points where quiet play was worth
            # +0.15; and a band is too wide to set against a strong hand's quiet point.
            return True
        band = self.profile.trucos.band(p)
        if band.opened < TRUCO_EVIDENCE:
            return True
        folds = (band.refused + 4 * self.profile.refuse_rate.value) / (band.opened + 4)
        model = self.after_betting(obs, rules, p)  # our chance once they take it
        won = (band.won + 3 * model) / (band.taken + 3)
        table = win_table(rules)
        mine, theirs = self.scores(obs)
        truco = folds * win_chance(table, mine + obs.stake, theirs) + (1 - folds) * played_for(
            table, mine, theirs, won, value, value
        )
        return truco >= self.playing_for(rules, obs, p, obs.stake)

    def answer(self, obs: Observation, rng: random.Random, rules: TrucoRules, legal) -> str:
        """Accept, refuse or raise a bet: compare what accepting is worth with what running
        gives away, at this score."""
        late = bet_facing_us(obs)
        p = self.believed(obs, rules, late)
        exploring = late and self.profile is not None and self.profile.final_win.total < 8
        if exploring and not obs.hand and rng.random() < 0.2:
            return "accept"  # to learn whether their final bets hold: costs a few points
        if obs.pending is None:  # a bet this bot does not know: take it when the hand is good
            return "accept" if p >= 0.5 else "refuse"
        first_bet = obs.stake == rules.ladder[0]
        if self.playing_for(rules, obs, p, obs.pending) < self.giving(rules, obs, obs.stake):
            if "truco" in legal and first_bet and self.raise_back(obs, rng):
                return "truco"
            return "refuse"
        if self.last_belief is not None and self.last_belief[0] == "later":
            # Their bet of a later turn is taken, not raised: a raise war over it is read by
            # the raise model, and the chance believed here says only that running costs more.
            return "accept"
        raise_at = self.t.raise_
        if self.profile is not None:
            # Against a side that bets most hands, a bet says little: raise it on less.
            raise_at = max(0.6, raise_at - 0.8 * max(0.0, self.profile.truco_rate.value - 0.25))
        if "truco" in legal and p >= raise_at + 0.08 * their_raises(obs):
            return "truco"
        if "truco" in legal and first_bet and self.raise_back(obs, rng):
            return "truco"
        return "accept"

    def raise_back(self, obs: Observation, rng: random.Random) -> bool:
        """Whether to raise their first truco of an early trick whatever our cards, because
        this side runs from our raises (`reraise_fold`): a side that does bets hands it cannot
        hold. Noted in `raised_back`, for `expert`, whose search models their answer to a
        raise by their cards."""
        if self.profile is None or len(obs.results) > 1:
            return False
        folds = self.profile.reraise_fold.value
        self.raised_back = rng.random() < min(0.9, max(0.0, 2.5 * (folds - 0.55)))
        return self.raised_back

    def believed(self, obs: Observation, rules: TrucoRules, late: bool) -> float:
        """The chance to win the hand once the other side has bet: our cards' chance, lowered
        by what the bet says. Without a profile a fixed doubt; with one, the odds of our cards
        are scaled by how often this side's bets of the same kind held against us (a side that
        bets only sure hands wins nearly every bet we take)."""
        q = self.chance(obs, rules)
        p = self.profile
        if p is None:
            return max(0.0, q - self.doubt(obs))
        if late and not obs.hand:
            # Their bet facing the last card we had: they know whether their card beats it, so
            # the bet is a sure win or a bluff, whatever our card's chance against the unseen
            # cards. Read from our card's chance, such bets were taken 127 times in 100 pairs
            # against a written bot that makes them mostly on a sure win (CTruco's Truccard),
            # and 29 were won: 351 points lost, against 169 for the ones run from.
            modelled = min(q, 1.0 - p.final_win.value)
            self.last_belief = ("final", modelled)
            return p.calibration("final").apply(modelled)
        if self.later and raised_after_taking(obs):
            # A bet of theirs at a later turn over a truco of ours they had taken: read by how
            # such bets of theirs held, apart from the raises made at once (a side that answers
            # our trucos by its own cards alone takes them on fair hands and bets again as the
            # tricks go its way, not knowing what our truco said).
            kind = "later"
            weight = min(1.0, max(0.0, (p.later_win.value - 0.4) / 0.35))
            modelled = scaled_odds(
                max(0.0, q - weight * self.t.doubt), p.later_win.value, typical=0.75
            )
            self.last_belief = (kind, modelled)
            return p.calibration(kind).apply(modelled)
        kind = "late" if late else "raise" if their_raises(obs) else "called"
        modelled = self.modelled(obs, q, late)
        self.last_belief = (kind, modelled)
        return p.calibration(kind).apply(modelled)

    def modelled(self, obs: Observation, q: float, late: bool) -> float:
        """`believed` before its calibration against the outcomes of our acceptances."""
        p = self.profile
        if late:
            # They bet having seen the card we left on the trick: our chance holds as often as
            # their bets there failed (twice that of a card that beats everything, at most the
            # card's chance).
            return min(q, 2.0 * q * (1.0 - p.late_win.value))
        raises = their_raises(obs)
        if raises:  # a raise war: each raise over our bet says more, as much as theirs held
            # (the discount fades out for a side whose raises mostly failed: there a raise says
            # nothing, and running from it hands over the stake of our own bet)
            weight = min(1.0, max(0.0, (p.raise_win.value - 0.4) / 0.35))
            q = max(0.0, q - weight * (self.t.doubt + 0.12 * raises))
            return scaled_odds(q, p.raise_win.value, typical=0.75)
        # A side that bets most hands says less with each bet.
        read = max(0.0, q - self.t.doubt + min(0.25, max(0.0, 0.6 * (p.truco_rate.value - 0.2))))
        read = scaled_odds(read, p.called_win.value, typical=0.65)
        # ... and a bet it makes nearly every time it takes the first trick, nothing.
        habit = habitual_truco(p, obs, 1 - obs.team)
        return habit * q + (1.0 - habit) * read

    def after_betting(self, obs: Observation, rules: TrucoRules, q: float) -> float:
        """The chance to win a hand whose bets the other side has taken (accepted or raised):
        taking a bet says their cards are good too. A side that bet or raised is read as for
        an answer; one that only accepted ours, by how often its acceptances won."""
        if self.profile is None:
            return max(0.0, q - self.t.doubt)
        if any(seat % 2 != obs.team and action == "truco" for seat, action in obs.history):
            return self.believed(obs, rules, late=False)
        return scaled_odds(q - self.t.doubt, self.profile.accepted_win.value, typical=0.45)

    def doubt(self, obs: Observation) -> float:
        """How much a bet of the other side says against our cards, when nothing is known of
        this side: a bet made facing the card we left on the trick says the most."""
        if bet_facing_us(obs):
            return 0.35
        return self.t.doubt

    def envido(self, obs: Observation, legal) -> str | None:
        """Envido calls and answers by the seat's envido points (seed 002's advice)."""
        pending = obs.extra.get("envido_status") == "pending"
        calls = [a for a in ENVIDO_CALLS if a in legal]
        if not calls and not pending:
            return None
        if self.envido_ev and obs.bet_values:
            return envido_ev.decide(obs, self.profile)
        points = side_bet_points(obs, own_dealt(obs))
        t = self.t
        if points >= t.falta_envido and "falta_envido" in legal:
            return "falta_envido"
        if points >= t.real_envido and "real_envido" in legal:
            return "real_envido"
        if points >= t.envido and "envido" in legal:
            return "envido"
        if not pending and "envido" in legal and self.envido_pays(obs, points):
            return "envido"
        if pending:
            if "accept" in obs.bet_values and "refuse" in obs.bet_values:
                return self.envido_answer(obs, points)
            needed = t.accept_envido
            if "falta_envido" in obs.extra.get("envido_calls", ()):
                needed = t.accept_falta  # the game may hang on it
            return "accept" if points >= needed else "refuse"
        return None

    def envido_pays(self, obs: Observation, points: int) -> bool:
        """Whether opening the envido with fewer points than the usual call is worth it at this
        score, against a side that refuses our envidos as often as the profile says (its
        refusal is a point; its acceptance shows a hand of its top share). Without a profile
        (the search's model of the table): never."""
        if self.profile is None or "envido" not in obs.bet_values:
            return False
        values = obs.bet_values["envido"]
        rules = rules_for(obs)
        refuse = self.profile.envido_refuse.value
        p = beats_accepter(
            points,
            obs.mano % 2 == obs.team,
            refuse,
            obs.variant,
            rules.deck_name,
            max(1, obs.players // 2),
        )
        table = win_table(rules)
        mine, theirs = self.scores(obs)
        accepted = played_for(table, mine, theirs, p, values.get("won", 2), values.get("lost", 2))
        called = (
            refuse * win_chance(table, mine + values.get("refused", 1), theirs)
            + (1 - refuse) * accepted
        )
        return called > win_chance(table, mine, theirs) + ENVIDO_MARGIN

    def envido_answer(self, obs: Observation, points: int) -> str:
        """Accept an envido chain when what it is worth if won and lost (the observation's
        `bet_values`: a falta envido may be the game), weighed by the chance our points beat a
        caller's, is worth more at this score than what refusing concedes."""
        calls = list(obs.extra.get("envido_calls", ())) or ["envido"]
        p = envido_win_chance(points, calls[-1], len(calls), obs.mano == obs.seat, self.profile)
        rules = rules_for(obs)
        table = win_table(rules)
        mine, theirs = self.scores(obs)
        values = obs.bet_values
        accept = values["accept"]
        take = played_for(table, mine, theirs, p, accept.get("won", 0), accept.get("lost", 0))
        run = win_chance(table, mine, theirs + values["refuse"].get("conceded", 0))
        return "accept" if take >= run else "refuse"

    def pair(self, obs: Observation, rules: TrucoRules, legal) -> str:
        """Mineiro's showdown: the best card face up, the other face down."""
        strength = rules.strength_table(obs.vira)

        def key(action):
            cards = action.split(" ")[1:]
            return tuple(strength.get(c, -1) for c in cards), action

        return max((a for a in legal if a.startswith("pair ")), key=key)

    def play(self, obs: Observation, rng: random.Random, rules: TrucoRules, legal) -> str:
        """Which card to play: the cheapest card that takes the trick when taking it matters,
        the weakest card otherwise, keeping the best for the decisive trick."""
        plays = [a for a in legal if a.startswith("play ")]
        if not plays:
            return self.fallback(obs, rng, rules)
        if plays[0][5] == "#":  # a blind hand: every slot is the same to us
            return rng.choice(plays)
        strength = rules.strength_table(obs.vira)
        quality = card_quality(rules, obs.vira)
        cards = sorted((a[5:] for a in plays), key=lambda c: strength[c])  # weakest first
        weakest, best = cards[0], cards[-1]
        mine = obs.team
        first_won = obs.results[0] == mine if obs.results else None
        if obs.trick:
            opp, own = trick_standing(obs, strength)
            last = len(obs.trick) == obs.players - 1
            if own > opp and (last or partner_quality(obs, quality) >= 0.7):
                return self.throw_away(weakest, legal)
            target = max(opp, own)
            beating = [c for c in cards if strength[c] > target]
            if beating:
                return "play " + beating[0]
            tying = [c for c in cards if strength[c] == opp]
            if tying and own < opp:
                # A tie after a won first trick wins the hand; in the first trick it hands the
                # hand to the next trick, which suits a strong card kept back.
                keeps_strong = len(cards) > 1 and quality[best] >= 0.75 and tying[0] != best
                if first_won or (not obs.results and keeps_strong):
                    return "play " + tying[0]
            return self.throw_away(weakest, legal)
        # Leading the trick.
        if not obs.results:
            if len(cards) >= 2:
                second = cards[-2]
                # Win the first trick while keeping the best; with a weak second card, lead
                # the best to take the first trick at least.
                return "play " + (second if quality[second] >= 0.5 else best)
            return "play " + best
        if obs.results[-1] == -1 or first_won is None:
            return "play " + best  # after a tie the next trick decides
        if first_won and len(cards) >= 2 and quality[best] >= 0.9:
            return self.throw_away(weakest, legal)  # make them spend a card; the best closes
        return "play " + best

    @staticmethod
    def throw_away(card: str, legal) -> str:
        """Play a card that cannot matter face down where the rules allow it: it hides a card."""
        covered = "cover " + card
        return covered if covered in legal else "play " + card

    def fallback(self, obs: Observation, rng: random.Random, rules: TrucoRules) -> str:
        """For actions this bot does not know: anything but betting or folding, at random."""
        quiet = [a for a in obs.legal if a not in ("truco", "fold", *ENVIDO_CALLS)]
        return rng.choice(quiet or list(obs.legal))


# Where a caller's envido points usually lie, by the last call of the chain (a caller bets good
# points; a longer chain, more so).
CALLER_POINTS = {"envido": 27.0, "real_envido": 28.5, "falta_envido": 29.5}


def envido_win_chance(points: int, last_call: str, chain: int, mano: bool, profile) -> float:
    """The chance that `points` beat the envido of the side that made this chain (the mano
    wins ties), from a logistic spread around what callers usually hold; a profile whose
    chains held more often than usual moves the spread up."""
    centre = CALLER_POINTS.get(last_call, 27.0) + 0.7 * (chain - 1)
    if profile is not None:
        centre += 6.0 * (profile.envido_win.value - 0.6)
    edge = points + (0.5 if mano else -0.5) - centre
    return 1.0 / (1.0 + math.exp(-edge / 1.8))


def played_for(table, mine: int, theirs: int, p: float, won: int, lost: int) -> float:
    """My team's chance to win the game from `mine` to `theirs` when a bet, won with chance
    `p`, brings us `won` points or them `lost`."""
    return p * win_chance(table, mine + won, theirs) + (1 - p) * win_chance(
        table, mine, theirs + lost
    )


def scaled_odds(p: float, held: float, typical: float) -> float:
    """`p` with its odds scaled by how much rarer their bets' failures were than `typical`
    (the share of such bets that hold against an ordinary bettor): the same chance when
    `held` is typical, far less against a side whose bets always held."""
    p = min(max(p, 0.0), 1.0)
    if p in (0.0, 1.0):
        return p
    ratio = ((1.0 - held) / held) / ((1.0 - typical) / typical)
    odds = p / (1.0 - p) * ratio
    return odds / (1.0 + odds)


def bet_facing_us(obs: Observation) -> bool:
    """Whether the bet we answer was made facing our team's cards on the current trick: every
    seat of ours has played to it, the bettor saw them and has not played yet. (With partners,
    a bet made seeing one of our two cards says far less: it counts as an ordinary bet.)"""
    if not obs.trick or len(obs.trick) >= obs.players:
        return False
    bettor = next((seat for seat, action in reversed(obs.history) if action == "truco"), None)
    seats = [seat for seat, _card, _covered in obs.trick]
    ours = sum(1 for seat in seats if seat % 2 == obs.team)
    return bettor not in seats and ours == obs.players // 2


def raised_after_taking(obs: Observation) -> bool:
    """Whether the bet we answer is the other team's truco over a truco of ours that it had
    accepted: a bet of a later turn, not a raise made at once."""
    history = obs.history
    if not history or history[-1][1] != "truco" or history[-1][0] % 2 == obs.team:
        return False
    return taken_then_raised(history, len(history) - 1)


def their_raises(obs: Observation) -> int:
    """The other team's trucos this hand made over a truco of ours."""
    ours = False
    count = 0
    for seat, action in obs.history:
        if action != "truco":
            continue
        if seat % 2 == obs.team:
            ours = True
        elif ours:
            count += 1
    return count


def partner_quality(obs: Observation, quality) -> float:
    """The quality of the best card my partners have on the current trick."""
    mine = obs.team
    return max(
        (quality[c] for s, c, covered in obs.trick if s & 1 == mine and not covered and c),
        default=0.0,
    )


class PlayoutPolicy(HeuristicPolicy):
    """The policy of the `heuristic` bot itself: the same rules, but its cards are chosen by
    sampled playouts (bots/playouts.py) rather than by the rules of `play`, which the search's
    walks keep because they must be cheap. (Judging its chance to win by the playouts too was
    measured and did worse: the thresholds are fitted to the cheap estimate.)"""

    def __init__(self, thresholds=None, profile=None, samples: int = 48, envido_ev=False):
        super().__init__(thresholds, profile, envido_ev)
        self.samples = samples
        self.eleven_playouts = ELEVEN_PLAYOUTS  # the bot's parameter `eleven_playouts`

    def eleven_chance(self, obs: Observation, rules: TrucoRules, rng) -> float:
        """With partners, by playouts of the hand with both hands of the team (shown to the
        deciding seat) against two sampled hands: the rules' estimate took the team's three
        best cards against one hand, as if one seat held them and the other side's best did
        not meet them (it played 101 of 105 hands of eleven against opp-eleven-rush with four
        players and won about half)."""
        if obs.players <= 2 or not obs.partner_cards or rng is None or not self.eleven_playouts:
            return super().eleven_chance(obs, rules, rng)
        outs = Playouts(obs, rules)
        outs.start = obs.mano  # the first card is the mão's, whoever decides
        return outs.chance(rng, ELEVEN_SAMPLES)

    def play(self, obs: Observation, rng: random.Random, rules: TrucoRules, legal) -> str:
        card = Playouts(obs, rules).best_card(rng, self.samples)
        if card is None:
            return super().play(obs, rng, rules, legal)
        return self.throw_away(card, legal) if card_is_lost(obs, rules, card) else "play " + card


def card_is_lost(obs: Observation, rules: TrucoRules, card: str) -> bool:
    """Whether the card cannot take the trick it goes to (it may then go face down)."""
    if not obs.trick:
        return False
    strength = rules.strength_table(obs.vira)
    opp, _own = trick_standing(obs, strength)
    return strength[card] <= opp


class HeuristicBot(Bot):
    """A rule-based player: judges its hand against this hand's trumps, wins tricks with the
    cheapest card that does, bets and answers bets by thresholds on its chance to win (the
    thresholds are its parameters), and bluffs now and then."""

    parameters = (
        *Thresholds.__dataclass_fields__,
        "adapt",
        "samples",
        "envido_ev",
        "later",
        "eleven_playouts",
    )
    match_memory = True  # its profile of the other team lasts the match

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        params = dict(self.params)
        adapt = params.pop("adapt", True)
        samples = int(params.pop("samples", 48))
        ev = params.pop("envido_ev", ENVIDO_EV)
        later = params.pop("later", LATER)
        eleven_playouts = params.pop("eleven_playouts", ELEVEN_PLAYOUTS)
        self.profile = OpponentProfile() if adapt else None
        if samples > 0:
            self.policy = PlayoutPolicy(Thresholds(**params), self.profile, samples, ev)
            self.policy.eleven_playouts = bool(eleven_playouts)
        else:
            self.policy = HeuristicPolicy(Thresholds(**params), self.profile, ev)
        self.policy.later = bool(later)
        self.game_no = 0

    def new_game(self, *, seat, rng) -> None:
        super().new_game(seat=seat, rng=rng)
        self.game_no += 1

    def act(self, observation: Observation) -> str:
        self.policy.last_belief = None
        self.policy.last_bluff = False
        self.policy.last_call = None
        action = self.policy.decide(observation, self.rng)
        hand = (self.game_no, observation.hand_no)
        if action == "truco" and self.policy.last_bluff and self.profile is not None:
            self.profile.note_bluff(hand)
        if action == "truco" and self.policy.last_call is not None and self.profile is not None:
            self.profile.trucos.note(hand, self.policy.last_call)
        belief = self.policy.last_belief
        answered = observation.phase != "decide" and observation.pending is not None
        if action == "accept" and answered and belief is not None and self.profile is not None:
            self.profile.note_accept((self.game_no, observation.hand_no), *belief)
        return action

    def on_hand_end(self, observation: Observation) -> None:
        learn(self.profile, observation, self.game_no)

    def on_game_end(self, observation: Observation) -> None:
        learn(self.profile, observation, self.game_no)


def learn(
    profile: OpponentProfile | None, observation: Observation, game_no: int, team: int | None = None
) -> None:
    """Count the hand that just ended (an observation's `previous_hand`) in the profile, as the
    observer's team saw it, or as `team` did (`expert`'s profile of its own play counts it
    from the other side)."""
    hand = observation.previous_hand
    if profile is not None and hand:
        seen_from = observation.team if team is None else team
        profile.learn(seen_from, hand, key=(game_no, hand.get("hand_no")))


@hookimpl
def truco_register_bots(register):
    register("heuristic", HeuristicBot)
