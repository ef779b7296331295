"""The jail's figures for `python -m engine bench`: random-vs-random hands per second in
process and jailed (one jailed process per seat for the whole match, as tournaments play),
the overhead per decision (median and p99 of a jailed decision's time less an in-process one's)
and the start-up time of one jailed bot (to its first answer). Wall-clock rates depend on what
else the machine runs (a jailed decision is two wake-ups of two processes, each waiting for a
core on a busy machine); the runner's CPU time per decision, start-ups included, much less."""

from __future__ import annotations

import contextlib
import os
import resource
import statistics
import time

from ..botseed import bot_seed
from ..match import MatchSpec, iter_match
from ..plugins import registry
from ..runner import BotSpec
from ..seats import MatchContext, register_isolation
from .actor import jailed_actor

BENCH_ISOLATION = "jail-timed"  # the jail, with every decision timed


class TimedActor:
    """A jailed seat whose decisions are timed; everything else passes through."""

    enforces_deadline = True

    def __init__(self, inner, times: list[float]):
        self.inner, self.times = inner, times

    def act(self, observation):
        started = time.perf_counter()
        try:
            return self.inner.act(observation)
        finally:
            self.times.append(time.perf_counter() - started)

    def begin_game(self, **game):
        self.inner.begin_game(**game)

    def on_hand_end(self, observation):
        self.inner.on_hand_end(observation)

    def end_game(self, observation, result):
        self.inner.end_game(observation, result)

    def log_since_last(self):
        return self.inner.log_since_last()

    def close(self):
        self.inner.close()


def cpu_seconds() -> float:
    """CPU time of this process (the runner: the bots' own is not counted)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


def play_for(
    seconds: float, isolation: str, variant: str = "paulista"
) -> tuple[int, int, float, float]:
    """(hands, decisions, elapsed, the runner's CPU seconds) of one random-vs-random match
    played for about `seconds`."""
    spec = MatchSpec(
        variant,
        BotSpec("random", isolation=isolation),
        BotSpec("random", isolation=isolation),
        games=50_000,  # more than it can play in the time: the loop stops it
        seed=20_261_201,
    )
    hands = decisions = 0
    cpu = cpu_seconds()
    started = time.perf_counter()
    games = iter_match(spec)
    try:
        for game in games:
            hands += game.result.hands
            decisions += game.result.actions
            if time.perf_counter() - started >= seconds:
                break
    finally:
        games.close()  # the match's end: its jails stop
    return hands, decisions, time.perf_counter() - started, cpu_seconds() - cpu


def in_process_decision_seconds(samples: int = 20_000) -> float:
    """The median time of one in-process random decision (what the jail adds to)."""
    variant = registry().variant("paulista")
    state = variant.new_game(2, seed=1)
    bot = registry().bot("random")(
        variant="paulista",
        options=state.options,
        seat=0,
        players=2,
        rng=__import__("random").Random(1),
    )
    observation = state.observation(state.to_act)
    times = []
    for _ in range(samples):
        started = time.perf_counter()
        bot.act(observation)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def startup_seconds(runs: int = 10) -> list[float]:
    """Seconds from starting a jailed random bot to its first answer."""
    variant = registry().variant("paulista")
    state = variant.new_game(2, seed=7)
    context = MatchContext("paulista", state.options, 2)
    observation = state.observation(state.to_act)
    out = []
    for run in range(runs):
        started = time.perf_counter()
        actor = jailed_actor(BotSpec("random", isolation="jail"), context)
        actor.begin_game(game=0, seat=state.to_act, seed=bot_seed(run, 0))
        actor.act(observation)
        out.append(time.perf_counter() - started)
        actor.close()
    return out


@contextlib.contextmanager
def one_core():
    """This process, and the jails it starts meanwhile (they inherit it), on one CPU: the
    figure the target is set for. On a free multi-core machine the two processes of a decision
    wake each other across cores, which costs more than handing one core back and forth."""
    previous = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(previous)})
    try:
        yield
    finally:
        os.sched_setaffinity(0, previous)


def run_jail_bench(seconds: float) -> None:
    times: list[float] = []
    register_isolation(
        BENCH_ISOLATION, lambda spec, ctx: TimedActor(jailed_actor(spec, ctx), times)
    )
    print(
        f"jail: random vs random, paulista, 2 players, {seconds:g} s each, one process per seat per match"
    )
    print(f"  {'':<14} {'hands/s':>10} {'decisions/s':>12} {'runner CPU us/decision':>23}")
    runs = (
        ("in-process", "inprocess", contextlib.nullcontext),
        ("jailed", BENCH_ISOLATION, contextlib.nullcontext),
        ("jailed, 1 core", BENCH_ISOLATION, one_core),
    )
    for label, isolation, where in runs:
        with where():
            hands, decisions, elapsed, cpu = play_for(seconds, isolation)
        print(
            f"  {label:<14} {hands / elapsed:>10,.0f} {decisions / elapsed:>12,.0f} "
            f"{cpu / decisions * 1e6:>23,.1f}",
            flush=True,
        )
    base = in_process_decision_seconds()
    overhead = sorted(t - base for t in times)
    p99 = overhead[min(len(overhead) - 1, int(len(overhead) * 0.99))]
    print(
        f"  overhead per decision (jailed less in-process, {len(overhead):,} decisions): "
        f"median {statistics.median(overhead) * 1000:.3f} ms, p99 {p99 * 1000:.3f} ms"
    )
    starts = startup_seconds()
    print(
        f"  start-up of one jailed bot (to its first answer, {len(starts)} runs): "
        f"median {statistics.median(starts) * 1000:.0f} ms, max {max(starts) * 1000:.0f} ms"
    )
