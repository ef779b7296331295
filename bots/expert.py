"""The strongest built-in bot (bot `expert`): the search of `mcts` steered by what this match
taught about the other team.

- Its own default move, the one the search must clearly beat, is the adaptive heuristic's
  (`HeuristicPolicy` with an `OpponentProfile` kept across the games of the match): bets,
  answers and bluffs follow how often this opponent bets, runs and holds.
- The envido (Argentino) is not searched (a search that models the other side by the plain
  heuristic misjudges the chain, and a falta envido is the game): it is played by expected
  value, as the `heuristic` bot plays it (bots/envido_ev.py: the other side's points
  conditioned on what this seat sees and on its envido moves of the hand, every call and
  answer weighed by the chance to win the game). `envido_ev=false`: the heuristic's thresholds
  and arithmetic on the observation's bet values instead, which lost most pairs to `heuristic`
  once that played it by expected value (docs/bots.md).
- Answers to a truco (and the rest: which card, whether to call truco) are the
  information-set search of `bots.mcts` over sampled worlds at `time_ms` per decision (default
  100 ms), with the other team modelled in the walks as an adaptive player across the table
  (`mirror`, on by default): the heuristic holding a profile of *our* play in this match,
  counted from the public hands as the other side would count it (`seen_by_them`), so the
  model runs from, takes and raises our bets as a player who has watched us bet does (a side
  that has seen us bet every hand takes our trucos on less). That measured far better than
  the model before it against `heuristic` (Paulista 1 vs 1, 100 pairs: 81.0% of pairs, where
  the old model scored 59.0%) and no worse against a side that does not adapt
  (opp-eleven-rush: 52.5% and 53.0%): docs/bots.md. `mirror=false`: the heuristic with
  thresholds fitted to the rates this match showed of the other side (`opponent_policy`).
  `search_answers=false` leaves the answers to the adaptive heuristic (measured with
  `python -m engine arena`, Paulista 1 vs 1: 59% of pairs against `heuristic` instead of 65%,
  50 to 130 pairs).
- Raise wars against a side whose raises held more often than a typical raiser's
  (`raises_hold`): a raise of theirs is answered by the adaptive heuristic, calibrated by how
  this side's raises ended (the answers are noted for that, as `heuristic` notes its own), and
  once they have bet in the hand the search leaves our raise out unless the heuristic would
  raise: in the walks the other side answers a raise as the heuristic does, and runs, where a
  side that raises on its own cards takes it. `search_raises=true`: searched as before.
- Beliefs: the worlds the search draws are weighed by the other team's bets of this hand
  (`belief`, `beliefs=false` turns it off): a world is kept with the probability that the
  fitted model of the other team would have called, answered and run as it did holding the
  cards that world gives it (`belief_weight`), so a truco called makes its strong hands likelier
  instead of every deal the history allows being equally likely; from a side whose bets of a
  kind held more often than a typical bettor's, a world in which the model would not have made
  that bet weighs less still (`sound_weight`; `sound=false`: 0.45 or 0.3 whatever the side).
- A truco of theirs that the search would run from is taken now and then (`explore`, on by
  default): one in four until six of their trucos were taken and played out, so that a side
  whose trucos are believed is tested once in a while (`exploring`). And a raise back that
  the adaptive heuristic makes because this side runs from our raises (`raised_back`) is
  played, not searched (`trust_raise`, on by default): the walks answer a raise by the cards,
  where such a side bets on nothing and runs. Against a bot that bets on nothing or on the
  best cards (opp-polarised, after CTruco's Truccard) the search ran from 189 of its 213
  bluffs; with both, `expert` went from 58.8% to 75.0% of the pairs against it, and from
  46.2% to 61.2% against Truccard (1,000 walks a decision, 40 pairs): docs/bots.md.
- Two options, off by default because they measured no better (docs/bots.md), and 1 vs 1 only
  (with 4 players they measured worse): `bold=true` weighs a decision bolder than the model's
  (a truco where it would play a card, a call or raise where it would run) by how often this
  opponent's bets of that kind held in the match (`bold_weight`) instead of trusting it fully;
  `war=true` models the other side in the walks by `WarModel`, which answers a truco as the
  profile saw it answer (runs, calls, raises back: `RaiseWar` in bots/profile.py).
- `choose=true` (off by default, measured worse against opp-eleven-rush: docs/bots.md) scores
  each finished hand under three models of the other side (the mirror model, the fitted one,
  `WarModel`) by the likelihood each gave its decisions of the hand (bots/model_choice.py) and
  plans against the one clearly ahead.

"""

from __future__ import annotations

from engine.hookspecs import hookimpl
from engine.observation import Observation

from .heuristic import ENVIDO_CALLS, HeuristicPolicy, Thresholds, learn, their_raises
from .mcts import MctsBot
from .model_choice import ModelEvidence
from .profile import OpponentProfile, habitual_truco
from .worlds import BETTING

ANSWERS = ("accept", "refuse")
# The models of the other team that `choose` weighs (bots/model_choice.py).
MODELS = ("mirror", "fitted", "war")
# Until their opening trucos were seen played out this many times, one in `EXPLORE_SHARE` that the
# search would run from is taken, to learn how they hold (`ExpertBot.exploring`).
EXPLORE_UNTIL = 6
EXPLORE_SHARE = 0.25
# An answer's place on the scale of strength it shows: running, calling, raising.
ANSWER_RANK = {"refuse": 0, "accept": 1}


def belief_weight(predicted: str, actual: str) -> float:
    """How likely a seat that the model says would take `predicted` took `actual` instead, in
    the betting sense: the same kind of decision 1; a card played where the model bets (slow
    play is common) 0.5; a bet where the model plays a card (a bluff, or a bolder bettor) 0.3;
    an answer one step away on the scale run, call, raise 0.45, two steps 0.2."""
    p = predicted if predicted in BETTING else "play"
    a = actual if actual in BETTING else "play"
    if p == a:
        return 1.0
    if a == "play":
        return 0.5
    if p == "play":
        return 0.3
    gap = abs(ANSWER_RANK.get(p, 2) - ANSWER_RANK.get(a, 2))
    return 0.45 if gap == 1 else 0.2 if gap == 2 else 0.5


# A decision's place on the scale of boldness: a card played where a truco was legal, running,
# calling, raising.
BOLDNESS = {"play": 0, "refuse": 0, "accept": 1, "truco": 2}


def bolder(predicted: str, actual: str) -> bool:
    """Whether `actual` is a bolder truco decision than the model's `predicted` one (a truco
    where it would have played a card, calling or raising where it would have run, raising
    where it would have called)."""
    p = predicted if predicted in BETTING else "play"
    a = actual if actual in BETTING else "play"
    if p not in BOLDNESS or a not in BOLDNESS:
        return False
    if p == "play" and a != "truco":
        return False
    return BOLDNESS[a] > BOLDNESS[p]


def bold_weight(weight: float, held: float, typical: float) -> float:
    """The belief weight of a decision bolder than the model expects (`weight`, from
    `belief_weight`), trusted as far as this opponent's bets of the kind held up in the match
    (`held`) against an ordinary bettor's (`typical`): fully (the weight as it is) for a side
    whose bets held as often or more; for one whose bets failed, nearer 1 (its bold bets say
    little of its cards)."""
    trust = min(1.0, max(0.0, held / typical))
    return 1.0 - (1.0 - weight) * trust


def sound_weight(weight: float, held: float, typical: float) -> float:
    """The belief weight of a decision bolder than the model expects (`weight`, from
    `belief_weight`) from a side whose bets of that kind held more often than a typical
    bettor's (`held` over `typical`): such a side bets on the cards the model would bet on, so
    a world that gives it cards the model would not have bet on shrinks with its failures
    (the share of its bets that failed over a typical bettor's share). A raise from a side
    whose raises always held says it holds the cards for it."""
    if held <= typical:
        return weight
    return weight * max(0.05, (1.0 - held) / (1.0 - typical))


def held_rate(profile: OpponentProfile, obs: Observation, seat: int, actual: str):
    """How often this opponent's bets of the kind of `actual` held in the match, and the
    typical rate (the profile's prior): a truco over one of ours, a truco opened, an answer
    that took our truco."""
    if actual == "truco":
        ours = any(a == "truco" and s % 2 != seat % 2 for s, a in obs.history)
        rate = profile.raise_win if ours else profile.called_win
    else:
        rate = profile.accepted_win
    return rate.value, rate.prior


class WarModel(HeuristicPolicy):
    """The opponent model of the search's walks (1 vs 1): the fitted heuristic, except that it
    answers a truco as this opponent was seen to: it runs from as large a share of our trucos
    as it did (from a raise over its own truco, as it did from those), raises back as often,
    and calls the rest, the weakest hands running and the strongest raising (its chance to win
    the hand taken as spread evenly)."""

    def __init__(self, thresholds: Thresholds, profile: OpponentProfile):
        super().__init__(thresholds)  # no profile of its own: the fitted heuristic otherwise
        self.seen = profile

    def answer(self, obs: Observation, rng, rules, legal) -> str:
        p = self.seen
        if p is None or obs.pending is None or obs.kind != "normal":
            return super().answer(obs, rng, rules, legal)
        own_truco = any(a == "truco" and s % 2 == obs.team for s, a in obs.history)
        if own_truco:  # we raised its truco
            fold, raise_ = p.reraise_fold.value, p.war.raise_back.value
        else:
            fold, raise_ = p.refuse_rate.value, p.raise_rate.value
        chance = self.chance(obs, rules)
        if chance < fold:
            return "refuse"
        if "truco" in legal and chance > 1.0 - raise_:
            return "truco"
        return "accept"


class ExpertBot(MctsBot):
    parameters = (
        *MctsBot.parameters,
        "search_answers",
        "beliefs",
        "bold",
        "war",
        "envido_ev",
        "sound",
        "search_raises",
        "mirror",
        "choose",
        "explore",
        "trust_raise",
    )
    match_memory = True

    def __init__(
        self,
        *,
        search_answers: bool = True,
        beliefs: bool = True,
        bold: bool = False,
        war: bool = False,
        envido_ev: bool = True,  # measured better against heuristic (docs/bots.md)
        sound: bool = True,
        search_raises: bool = False,
        mirror: bool = True,
        choose: bool = False,  # measured worse against opp-eleven-rush (docs/bots.md)
        explore: bool = True,
        trust_raise: bool = True,
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.search_answers = search_answers
        self.beliefs = beliefs
        # Off by default (measured no better, docs/bots.md), and 1 vs 1 only (with 4 players
        # both measured worse): `bold_weight` in the beliefs and the `WarModel` of the other
        # side in the walks.
        self.bold = bold and self.players == 2
        self.war = war and self.players == 2
        self.sound = sound
        self.search_raises = search_raises
        self.explore = explore
        self.trust_raise = trust_raise
        self.profile = OpponentProfile()
        # Ourselves as the other side sees us: what an adaptive player across the table has
        # learnt of our play this match (public hands only), for the model of them in the
        # walks. Its own acceptances' calibration and its bluffs are private to it: they stay
        # at the prior (a heuristic that has not yet learnt from them).
        self.mirror = mirror
        self.seen_by_them = OpponentProfile()
        self.mirrored = HeuristicPolicy(profile=self.seen_by_them)
        self.mirrored.later = True  # as the `heuristic` bot reads a bet of a later turn
        # `choose`: which model explains the other side's play best, hand by hand
        # (bots/model_choice.py): the search plans against the mirror model until another one
        # has clearly predicted their bets and answers better. Off by default: the better
        # predictor was not the better model to plan against (docs/bots.md).
        self.choose = choose and mirror and not self.war
        self.evidence = ModelEvidence(MODELS)
        self.last_seen: Observation | None = None  # our last observation of the hand in play
        self.last_seen_key = None  # (game, hand) it belongs to
        self.last_start = None  # the score when that hand began, when known
        self.adaptive = HeuristicPolicy(profile=self.profile, envido_ev=envido_ev)
        self.game_no = 0
        # The fitted models, built by `fitted_policy` when the rates they follow move.
        self._fitted_key = None
        self._fitted: HeuristicPolicy | None = None
        self._war_model: WarModel | None = None

    def new_game(self, *, seat, rng) -> None:
        super().new_game(seat=seat, rng=rng)
        self.game_no += 1
        self.hand_start = None

    def on_hand_end(self, observation: Observation) -> None:
        super().on_hand_end(observation)
        self.learn(observation)

    def on_game_end(self, observation: Observation) -> None:
        self.learn(observation)

    def learn(self, observation: Observation) -> None:
        """Count the hand that ended twice: what the other team did, and what we did as the
        other team saw it (the mirror profile: its `my_team` is theirs); first, score both
        models of the other team by how well they predicted its decisions of the hand."""
        if self.choose:
            self.weigh_models(observation)
        learn(self.profile, observation, self.game_no)
        learn(self.seen_by_them, observation, self.game_no, team=1 - observation.team)

    def weigh_models(self, observation: Observation) -> None:
        """Add the hand that just ended to each model's evidence (`ModelEvidence`), from our
        last observation of it and its public history; once per hand."""
        hand = observation.previous_hand
        seen = self.last_seen
        if not hand or seen is None:
            return
        if self.last_seen_key != (self.game_no, hand.get("hand_no")):
            return  # we saw nothing of that hand (or it was counted already)
        self.last_seen = None
        history = hand.get("history") or ()
        if [tuple(x) for x in history[: len(seen.history)]] != [tuple(x) for x in seen.history]:
            return
        models = {
            "mirror": self.mirrored.decide,
            "fitted": self.fitted_policy(war=False).decide,
            "war": self.fitted_policy(war=True).decide,
        }
        self.evidence.score_hand(seen, history, self.last_start, models, belief_weight, self.rng)

    def opponent_policy(self) -> HeuristicPolicy:
        """The model of the other team in the walks and the beliefs. By default (`mirror`) the
        adaptive heuristic holding the profile of our own play (`seen_by_them`): it answers
        and bets as a player who has watched us this match would. Otherwise the heuristic with
        thresholds moved towards what the other team was seen to do: a side that runs from
        most bets runs from more of them in the walks, one that bets most hands bets on less,
        one that raises often raises on less."""
        if self.mirror and not self.war:  # `war=true` asks for its own model instead
            chosen = self.evidence.best("mirror") if self.choose else "mirror"
            if chosen != "mirror":
                return self.fitted_policy(war=chosen == "war")
            return self.mirrored
        return self.fitted_policy()

    def fitted_policy(self, war: bool | None = None) -> HeuristicPolicy:
        """The heuristic with thresholds fitted to the other team's rates (`opponent_policy`);
        with `war` (default: the `war` parameter), the `WarModel` of those thresholds, which
        answers our trucos by its cards alone in the shares this side was seen to."""
        war = self.war if war is None else war
        p = self.profile
        refuse = p.refuse_rate.value
        bets = p.truco_rate.value
        raises = p.raise_rate.value
        fitted = Thresholds(
            call=min(0.9, max(0.4, 0.68 - 1.2 * (bets - 0.2))),
            bluff=min(0.5, max(0.0, 0.08 + 0.8 * (bets - 0.2))),
            doubt=min(0.4, max(-0.2, 0.1 + 0.6 * (refuse - 0.5))),
            raise_=min(0.95, max(0.5, 0.8 - 1.0 * (raises - 0.1))),
        )
        key = (fitted.call, fitted.bluff, fitted.doubt, fitted.raise_)
        if key != self._fitted_key:
            self._fitted_key = key
            self._fitted = HeuristicPolicy(fitted)
            self._war_model = WarModel(fitted, self.profile)
        return self._war_model if war else self._fitted

    def belief(self):
        """Worlds weighed by the other team's bets this hand: by how likely the model of it
        (`opponent_policy`, fitted to this match) was to bet, answer and run as it did with the
        cards that world gives it."""
        if not self.beliefs:
            return None
        model = self.opponent_policy()

        profile, bold, sound = self.profile, self.bold, self.sound

        def judge(state, seat, action, rng) -> float:
            obs = state.observation(seat)
            predicted = model.decide(obs, rng, state.rules)
            weight = belief_weight(predicted, action)
            if (bold or sound) and weight < 1.0 and bolder(predicted, action):
                held, typical = held_rate(profile, obs, seat, action)
                if bold:
                    weight = bold_weight(weight, held, typical)
                if sound:
                    weight = sound_weight(weight, held, typical)
            if action == "truco" and weight < 1.0:
                # A truco this side calls nearly every time it takes the first trick says
                # nothing of its cards: every world keeps its weight.
                weight += (1.0 - weight) * habitual_truco(profile, obs, seat % 2)
            return weight

        return judge

    def act(self, observation: Observation) -> str:
        legal = observation.legal
        hand_start = self.start_score(observation)  # at every decision: it notes a hand's start
        self.last_seen = observation
        self.last_seen_key = (self.game_no, observation.hand_no)
        self.last_start = hand_start
        if len(legal) == 1:
            return legal[0]
        self.adaptive.last_belief = None
        base = self.adaptive.decide(observation, self.rng)
        if observation.phase in ("envido", "decide"):
            return base
        if not self.search_answers and any(a in legal for a in ANSWERS):
            return self.answered(observation, base)
        if base in ENVIDO_CALLS or base == "flor":
            return base
        exclude = ENVIDO_CALLS
        if not self.search_raises and self.raises_hold():
            # Raise wars are left to the adaptive heuristic. In the walks the other side
            # answers our raise by the heuristic, which reads a raise as strength and runs, and
            # the worlds in which it bet are weighed by that model: against a side that bets on
            # its own cards alone (as written bots do) the search raised into sure hands and
            # took raises it lost nineteen times in twenty, where the heuristic's answers are
            # calibrated by how this side's bets ended (docs/bots.md). The search still
            # chooses whether to take or run from a first truco of theirs, and whether to
            # call one.
            team = observation.team
            they_bet = any(a == "truco" and s % 2 != team for s, a in observation.history)
            if "accept" in legal and their_raises(observation):
                return self.answered(observation, base)
            if (they_bet or "accept" in legal) and base != "truco":
                exclude = (*ENVIDO_CALLS, "truco")
        if self.trust_raise and base == "truco" and self.adaptive.raised_back:
            return base
        choice = self.search(observation, base, exclude=exclude, hand_start=hand_start)
        if choice == "refuse" and self.exploring(observation):
            return self.answered(observation, "accept")
        return choice

    def exploring(self, observation: Observation) -> bool:
        """Whether to take a truco of theirs that the search would run from, to learn how such
        trucos hold (`called_win`): one in `EXPLORE_SHARE` until `EXPLORE_UNTIL` of their
        trucos were taken and played out. A side that is always believed is never tested:
        against a bot that bets either on nothing or on the best cards, the search ran from
        189 of its 213 bluffs (examples/opponents/polarised, 25 pairs) and `called_win` stayed
        at its prior."""
        if not self.explore or their_raises(observation) or observation.kind != "normal":
            return False
        if self.profile.called_win.total >= EXPLORE_UNTIL:
            return False
        return self.rng.random() < EXPLORE_SHARE

    def raises_hold(self) -> bool:
        """Whether this side's raises (at once over our truco, or later over one it had taken)
        held more often than a typical raiser's: a side that raises on sure cards, whose raise
        wars the fitted model misreads. Against one whose raises held no more than that (the
        heuristic's own), the search keeps them: it measured better there."""
        p = self.profile
        return any(rate.value > rate.prior + 0.05 for rate in (p.raise_win, p.later_win))

    def answered(self, observation: Observation, answer: str) -> str:
        """The adaptive heuristic's answer to a bet, noted as `heuristic` notes it: the chance
        it believed when it accepted, which the profile sets against how the hand ended to
        calibrate the next answer of the kind (a side whose raises always hold is soon run
        from)."""
        belief = self.adaptive.last_belief
        if answer == "accept" and observation.pending is not None and belief is not None:
            self.profile.note_accept((self.game_no, observation.hand_no), *belief)
        return answer


@hookimpl
def truco_register_bots(register):
    register("expert", ExpertBot)
