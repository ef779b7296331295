"""A search bot (bot `mcts`): information-set Monte Carlo tree search over sampled worlds.

Each iteration draws a world consistent with the bot's observation (`worlds.WorldSampler`: the
hidden cards sampled, this hand's history replayed, rejected unless the bot would have seen
exactly what it saw). Every candidate action is then tried in that same world with the same
random future (common random numbers: the luck of the draw cancels out of their comparison),
and below each one the search walks a tree of the bot's own later decisions with UCB1,
counting how often each action was available (worlds may differ in what is legal). The other
seats, partners included, act by the heuristic policy on their own observations of the world:
the search plans against that model of the table. A walk ends with the hand; its leaf is worth
the bot's team's chance to win the game from the score reached (`equity.win_table`), so a point
near the target counts for more than a point at 0 to 0.

The move is the candidate with the best mean; it replaces the heuristic's own move only when it
is better by more than `confidence` standard errors of the paired differences, so the noise of a
short budget does not overrule it.

Parameters (bot params): `time_ms` (default 100) per decision and/or `iterations` (walks; a
fixed count is reproducible from the seed, a time budget is not), `exploration` (UCB constant
below the root), `confidence`, `noise` (the share of the other seats' modelled decisions taken
at random instead of by the heuristic: less trust in the model, fewer bluffs that only work
against the heuristic's thresholds; 0 by default). When no world can be sampled (a variant
fact the sampler cannot place), the bot plays the heuristic's move.
"""

from __future__ import annotations

import math
import random
import time

from engine.bot import Bot
from engine.hookspecs import hookimpl
from engine.observation import Observation
from engine.state import GameState

from .equity import win_chance, win_table
from .heuristic import HeuristicPolicy
from .knowledge import rules_for
from .worlds import WorldSampler

DEFAULT_TIME_MS = 100.0
# Time kept back from the budget for the final choice and the runner's own work.
MARGIN_S = 0.004


class Node:
    """An edge of the tree: the statistics of taking one action at one of my decision points,
    and the decision points that follow it."""

    __slots__ = ("visits", "value", "available", "children")

    def __init__(self):
        self.visits = 0
        self.value = 0.0
        self.available = 0
        # My actions by their string; other seats' actions by (seat, what I saw of it).
        self.children: dict = {}


MAX_TIME_MS = 60_000
MAX_ITERATIONS = 1_000_000


def _check_number(name: str, value, low: float, high: float, integer: bool = False) -> None:
    if value is None:
        return
    kinds = (int,) if integer else (int, float)
    if isinstance(value, bool) or not isinstance(value, kinds) or not low <= value <= high:
        kind = "an integer" if integer else "a number"
        raise ValueError(f"{name} must be {kind} from {low} to {high}, not {value!r}")


class MctsBot(Bot):
    # Walks per second on a slow machine (`python -m bots.bench` prints this one's): what
    # bounds `iterations` by a table's time per decision (submitted_bots/budgets.py).
    iterations_per_second = 2_000
    parameters = ("time_ms", "iterations", "exploration", "confidence", "noise")

    def __init__(
        self,
        *,
        time_ms: float | None = DEFAULT_TIME_MS,
        iterations: int | None = None,
        exploration: float = 0.2,
        confidence: float = 1.0,
        noise: float = 0.0,
        **kwargs,
    ):
        super().__init__(**kwargs)  # refuses any parameter left over after the ones above
        if iterations is None and time_ms is None:
            time_ms = DEFAULT_TIME_MS
        # Bounded, because an owner sets these and the bot runs inside the worker: a budget of
        # hours would hold a worker (and its tournament) for hours.
        _check_number("time_ms", time_ms, 1, MAX_TIME_MS)
        _check_number("iterations", iterations, 1, MAX_ITERATIONS, integer=True)
        _check_number("exploration", exploration, 0, 10)
        _check_number("confidence", confidence, 0, 10)
        self.time_ms = time_ms
        self.iterations = iterations
        self.exploration = exploration
        self.confidence = confidence
        self.noise = noise
        self.policy = HeuristicPolicy()
        self.last_iterations = 0  # for benchmarks and tests: the walks of the last decision
        self.hand_start: tuple[int, tuple[int, int]] | None = None  # (hand_no, score then)

    def on_hand_end(self, observation: Observation) -> None:
        # The notice shows the next hand before anyone acted: its score is where it starts,
        # which tells the world sampler what was scored in the hand (envido) and what before.
        self.hand_start = (observation.hand_no, observation.score)

    def start_score(self, observation: Observation) -> tuple[int, int] | None:
        if not observation.history and not observation.tricks:
            self.hand_start = (observation.hand_no, observation.score)
        if self.hand_start is not None and self.hand_start[0] == observation.hand_no:
            return self.hand_start[1]
        return None

    def act(self, observation: Observation) -> str:
        legal = observation.legal
        hand_start = self.start_score(observation)
        if len(legal) == 1:
            return legal[0]
        base = self.policy.decide(observation, self.rng, rules_for(observation))
        return self.search(observation, base, hand_start=hand_start)

    def search(
        self,
        observation: Observation,
        base: str,
        exclude: tuple[str, ...] = (),
        hand_start: tuple[int, int] | None = None,
    ) -> str:
        """The searched move, or `base` unless the search is sure enough of a better one;
        actions in `exclude` are not searched (a subclass decides them otherwise)."""
        if hand_start is None:
            hand_start = self.start_score(observation)
        legal = observation.legal
        started = time.perf_counter()
        rules = rules_for(observation)
        # Folding is never better than playing on and refusing the next bet, so it is not
        # searched (it stays for a seat that has nothing else).
        candidates = [a for a in legal if a != "fold" and a not in exclude] or list(legal)
        if len(candidates) == 1:
            return candidates[0]
        self.stopped = False
        deadline = None
        if self.time_ms is not None:
            deadline = started + max(0.0, self.time_ms / 1000.0 - MARGIN_S)
        sampler = WorldSampler(observation, hand_start, judge=self.belief())
        table = win_table(rules)
        me, team = observation.seat, observation.team
        roots = {a: Node() for a in candidates}
        values: dict[str, list[float]] = {a: [] for a in candidates}
        walks = 0
        failures = 0
        limit = self.iterations if self.iterations is not None else 10**9
        # The model of the other team does not change during a search (the profile it is fitted
        # to learns between hands): built once here, not at every walk.
        opponents = self.opponent_policy()
        while walks < limit:
            if deadline is not None and walks and time.perf_counter() >= deadline:
                self.stopped = True
                break
            world = sampler.sample(self.rng)
            if world is None:
                failures += 1
                if failures >= 3 and not walks:
                    break
                continue
            # Common random numbers: every candidate meets the same world and the same
            # future, so their differences are not drowned in the luck of the draw.
            seed = self.rng.getrandbits(64)
            for action in candidates:
                walk_rng = random.Random(seed)
                value = self._walk(
                    roots[action], world.apply(action), me, team, table, rules, walk_rng, opponents
                )
                values[action].append(value)
            walks += len(candidates)
        self.last_iterations = walks
        if not walks:
            return base
        best = max(candidates, key=lambda a: sum(values[a]))
        if (
            base in values
            and best != base
            and not _clearly_better(values[best], values[base], self.confidence)
        ):
            return base  # the search is not sure enough to overrule the heuristic
        return best

    def belief(self):
        """How worlds are weighed by the other team's bets (`WorldSampler`'s judge): None, every
        world the history allows is as likely (a subclass may weigh them)."""
        return None

    def opponent_policy(self) -> HeuristicPolicy:
        """The model of the other team's seats in the walks (the heuristic; a subclass may fit
        it to what it saw of them)."""
        return self.policy

    def _walk(
        self, root: Node, state: GameState, me: int, team: int, table, rules, rng, opponents=None
    ) -> float:
        """One walk below a root action: UCB on my own decision points (one new node per walk),
        every other seat by the heuristic (`opponents`, the model of the other team: by default
        `opponent_policy()`), to the end of the hand; returns its value."""
        policy = self.policy
        if opponents is None:
            opponents = self.opponent_policy()
        c = self.exploration
        noise = self.noise
        node = root
        path: list[Node] = [root]
        expanding = True
        while state.winner is None and state.hand_no == 0 and state.phase != "deal":
            seat = state.to_act
            if seat == me and expanding:
                legal = state.legal_actions()
                children = node.children
                untried = []
                for a in legal:
                    child = children.get(a)
                    if child is None:
                        untried.append(a)
                    else:
                        child.available += 1
                if untried:
                    action = untried[0] if len(untried) == 1 else rng.choice(untried)
                    child = children[action] = Node()
                    child.available = 1
                    expanding = False  # one new node per walk; the rest is a rollout
                else:
                    action, child = _ucb(children, legal, c)
                path.append(child)
                node = child
                state = state.apply(action)
                continue
            if noise and rng.random() < noise:
                action = rng.choice(state.legal_actions())
            else:
                legal = state.legal_actions()
                if len(legal) == 1:
                    # What the policy would answer, without building the seat's observation
                    # (`HeuristicPolicy.decide` takes a lone legal action as it is).
                    action = legal[0]
                else:
                    model = policy if seat % 2 == team else opponents
                    action = model.decide(state.observation(seat), rng, rules)
            state = state.apply(action)
            if expanding:
                # What I saw of another seat's action leads to my next decision point.
                # (Keyed with the seat: which seat acts next can differ between worlds.)
                seen = (seat, state.log[-1][1] if state.hand_no == 0 and state.log else action)
                child = node.children.get(seen)
                if child is None:
                    child = node.children[seen] = Node()
                node = child
        if state.winner is not None:
            value = 1.0 if state.winner == team else 0.0
        else:
            value = win_chance(table, state.score[team], state.score[1 - team])
        for child in path:
            child.visits += 1
            child.value += value
        return value


def _clearly_better(better: list[float], base: list[float], z: float) -> bool:
    """Whether `better` beats `base` on the same worlds by more than z standard errors of the
    paired differences."""
    n = len(better)
    if n < 2:
        return False
    diffs = [b - a for b, a in zip(better, base, strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > z * math.sqrt(var / n)


def _ucb(children: dict[str, Node], legal, c: float) -> tuple[str, Node]:
    best_action = None
    best_child = None
    best_score = -1.0
    for a in legal:
        child = children[a]
        score = child.value / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
        if score > best_score:
            best_action, best_child, best_score = a, child, score
    return best_action, best_child


@hookimpl
def truco_register_bots(register):
    register("mcts", MctsBot)
