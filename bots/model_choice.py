"""Which model of the other team explains its play in this match best (`expert`'s choice of the
model its search plans against).

`expert` can model the other side three ways (bots/expert.py): as a player who has watched us
(the mirror model: the adaptive heuristic holding a profile of our own play), as the heuristic
with thresholds fitted to the rates this side showed, or as that heuristic answering our trucos
by its cards alone in the shares it was seen to (`WarModel`). None is right for every opponent:
the mirror model is the better one against a side that adapts to us (`heuristic`), and far
worse against a written bot that answers a truco by its cards alone whatever we did (CTruco's
Truccard, docs/bots.md). So each finished hand is scored under each: the likelihood each model
gives the other side's betting decisions of the hand (each bet, answer, and card played where a
bet was legal, weighed by `belief_weight`), averaged over worlds consistent with everything the
hand showed (its cards are only partly seen). The log-likelihoods add up over the match, and
with `expert:choose=true` the search plans against the model ahead by a margin.

Off by default, as measured (docs/bots.md, "Against bots that students wrote"): against
Truccard the fitted models predicted its play far better and planning against them won more
pairs (51.2% where the mirror model won 41.2%), but against opp-eleven-rush they predicted its
play better too and planning against them lost (45.0% where the mirror model won 60.0%): the
model that foresees the other side's decisions best is not always the one that is best to plan
against.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence

from engine.errors import TrucoError
from engine.observation import Observation
from engine.state import GameState

from .worlds import BETTING, WorldSampler

# Worlds drawn to score a hand (each costs one replay of the hand and one decision of each
# model per decision of theirs).
WORLDS = 10
# The lead, in nats of log-likelihood, a model needs over the default before it is used: against
# Truccard the fitted models gained about half a nat a hand on the mirror model (eight hands),
# against `heuristic` the mirror model kept a lead that wandered by a nat or two.
MARGIN = 4.0


def keep_every_world(_state, _seat, _action, _rng) -> float:
    """A judge that keeps every world: the sampler then notes the other side's decisions."""
    return 1.0


def their_decisions(
    sampler: WorldSampler, world: GameState, rest: Sequence, team: int, rng: random.Random
) -> list[tuple[GameState, int, str]] | None:
    """The other team's betting decisions of the whole hand in `world` (drawn at the last
    decision we saw): the ones before it, noted by the sampler, then those of the actions that
    ended the hand (`rest`), replayed on it; None when the world cannot have played them (their
    later cards were not in it)."""
    decisions = list(sampler.judged)
    state = world
    hand_no = state.hand_no
    for seat, action in rest:
        if state.is_over or state.hand_no != hand_no:
            break
        if state.to_act != seat:
            return None
        legal = state.legal_actions()
        if action not in legal:
            if action != "cover":
                return None
            covers = [a for a in legal if a.startswith("cover ")]
            if not covers:
                return None
            action = rng.choice(covers)
        if seat & 1 != team and (action in BETTING or not BETTING.isdisjoint(legal)):
            decisions.append((state, seat, action))
        try:
            state = state.apply(action)
        except TrucoError:
            return None
    return decisions


class ModelEvidence:
    """The running log-likelihood of the other team's decisions under each named model."""

    def __init__(self, names: Sequence[str]):
        self.log = dict.fromkeys(names, 0.0)
        self.hands = 0

    def best(self, default: str, margin: float = MARGIN) -> str:
        """The model ahead of `default` by `margin`, else `default`."""
        leader = max(self.log, key=self.log.get)
        if self.log[leader] > self.log[default] + margin:
            return leader
        return default

    def score_hand(
        self,
        last_seen: Observation,
        history: Sequence,
        hand_start: tuple[int, int] | None,
        models: Mapping[str, Callable],
        weight: Callable[[str, str], float],
        rng: random.Random,
    ) -> bool:
        """Add one finished hand: `last_seen` is our last observation in it, `history` the
        hand's whole public history (its `previous_hand`), `models` name -> decide(obs, rng,
        rules). False when no world fitted (nothing is added)."""
        rest = list(history)[len(last_seen.history) :]
        sampler = WorldSampler(last_seen, hand_start, judge=keep_every_world)
        team = last_seen.team
        totals = dict.fromkeys(models, 0.0)
        worlds = 0
        for _ in range(3 * WORLDS):
            if worlds >= WORLDS:
                break
            world = sampler.sample(rng, tries=4)
            if world is None:
                continue
            decisions = their_decisions(sampler, world, rest, team, rng)
            if decisions is None:
                continue
            if not decisions:
                return False  # they decided nothing that tells a model from another
            worlds += 1
            for name, decide in models.items():
                likelihood = 1.0
                for state, seat, action in decisions:
                    predicted = decide(state.observation(seat), rng, state.rules)
                    likelihood *= weight(predicted, action)
                totals[name] += likelihood
        if not worlds:
            return False
        for name, total in totals.items():
            self.log[name] += math.log(max(total / worlds, 1e-6))
        self.hands += 1
        return True
