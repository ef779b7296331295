"""The strongest built-in bot (bot `expert`): the search of `mcts` steered by what this match
taught about the other team.

- Its own default move, the one the search must clearly beat, is the adaptive heuristic's
  (`HeuristicPolicy` with an `OpponentProfile` kept across the games of the match): bets,
  answers and bluffs follow how often this opponent bets, runs and holds.
- The envido (Argentino) is not searched: its answers are the heuristic's arithmetic on the
  observation's bet values and the score, and an envido call is made only when the heuristic
  makes it. (A search that models the other side by the plain heuristic misjudges the chain,
  and a falta envido is the game.)
- Answers to a truco are searched only when `search_answers` is on: against a side that raises
  hands the model would fold, the search's estimate of an answer is the model's, not the
  opponent's, and the profile's answer does better (measured: docs/bots.md).

Everything else (which card, whether to call truco) is the information-set search of
`bots.mcts` over sampled worlds at `time_ms` per decision (default 100 ms).
"""

from __future__ import annotations

from engine.hookspecs import hookimpl
from engine.observation import Observation

from .heuristic import ENVIDO_CALLS, HeuristicPolicy, learn
from .mcts import MctsBot
from .profile import OpponentProfile

ANSWERS = ("accept", "refuse")


class ExpertBot(MctsBot):
    parameters = (*MctsBot.parameters, "search_answers")
    match_memory = True

    def __init__(self, *, search_answers: bool = False, **kwargs):
        super().__init__(**kwargs)
        self.search_answers = search_answers
        self.profile = OpponentProfile()
        self.adaptive = HeuristicPolicy(profile=self.profile)
        self.game_no = 0

    def new_game(self, *, seat, rng) -> None:
        super().new_game(seat=seat, rng=rng)
        self.game_no += 1
        self.hand_start = None

    def on_hand_end(self, observation: Observation) -> None:
        super().on_hand_end(observation)
        learn(self.profile, observation, self.game_no)

    def on_game_end(self, observation: Observation) -> None:
        learn(self.profile, observation, self.game_no)

    def act(self, observation: Observation) -> str:
        legal = observation.legal
        hand_start = self.start_score(observation)  # at every decision: it notes a hand's start
        if len(legal) == 1:
            return legal[0]
        base = self.adaptive.decide(observation, self.rng)
        if observation.phase in ("envido", "decide"):
            return base
        if not self.search_answers and any(a in legal for a in ANSWERS):
            return base
        if base in ENVIDO_CALLS or base == "flor":
            return base
        return self.search(observation, base, exclude=ENVIDO_CALLS, hand_start=hand_start)


@hookimpl
def truco_register_bots(register):
    register("expert", ExpertBot)
