"""`python -m bots.bench`: how fast the built-in bots think, per variant and player count.

Prints the heuristic policy's decisions per second (the search's model of the table), the
`heuristic` bot's milliseconds per decision (its cards chosen by playouts), the search bot's world sampling cost and
acceptance rate, and how many walks the search fits in one decision of its default budget, on
positions reached by random play (a benchmark that prints numbers, not a timed test).
"""

from __future__ import annotations

import argparse
import random
import time

from engine.plugins import registry

from .heuristic import HeuristicPolicy, PlayoutPolicy
from .mcts import MctsBot
from .worlds import WorldSampler


def positions(variant, players: int, count: int, rng: random.Random):
    """Decisions with a real choice, a few random actions into random games."""
    found = []
    seed = 0
    while len(found) < count:
        state = variant.new_game(players, seed=seed)
        seed += 1
        for _ in range(rng.randrange(0, 8)):
            if state.is_over:
                break
            state = state.apply(rng.choice(state.legal_actions()))
        if not state.is_over and len(state.legal_actions()) > 1:
            found.append(state.observation(state.to_act))
    return found


def measure(variant, players: int, count: int, time_ms: float) -> str:
    rng = random.Random(1)
    observations = positions(variant, players, count, rng)
    policy = HeuristicPolicy()
    started = time.perf_counter()
    for _ in range(20):
        for obs in observations:
            policy.decide(obs, rng)
    heuristic = 20 * len(observations) / (time.perf_counter() - started)

    # The `heuristic` bot itself chooses its cards by playouts: what a decision costs it.
    bot_policy = PlayoutPolicy()
    started = time.perf_counter()
    for obs in observations:
        bot_policy.decide(obs, rng)
    bot_ms = 1e3 * (time.perf_counter() - started) / len(observations)

    sampled = accepted = attempts = 0
    started = time.perf_counter()
    for obs in observations:
        sampler = WorldSampler(obs)
        for _ in range(20):
            sampler.sample(rng)
        sampled += 20
        accepted += sampler.accepted
        attempts += sampler.attempts
    per_world = (time.perf_counter() - started) / sampled

    walks = 0
    for obs in observations:
        bot = MctsBot(
            variant=obs.variant,
            options=obs.options,
            seat=obs.seat,
            players=obs.players,
            rng=random.Random(0),
            time_ms=time_ms,
        )
        bot.act(obs)
        walks += bot.last_iterations
    return (
        f"{variant.name:<12} {players:>7} {heuristic:>14,.0f} {bot_ms:>8.2f} "
        f"{1e6 * per_world:>9.0f} "
        f"{100 * accepted / max(1, attempts):>9.0f}% {walks / len(observations):>12,.0f}"
    )


def searched_positions(variant, players: int, count: int, seed: int = 1):
    """Decisions the search meets in play: every fifth decision with a choice (not an envido
    nor a hand of eleven) of games the heuristic policy plays against itself."""
    policy = HeuristicPolicy()
    rng = random.Random(seed)
    found = []
    seen = 0
    game = 0
    while len(found) < count:
        state = variant.new_game(players, seed=game)
        game += 1
        while not state.is_over and state.phase != "deal" and len(found) < count:
            obs = state.observation(state.to_act)
            if len(obs.legal) > 1 and obs.phase not in ("envido", "decide"):
                seen += 1
                if seen % 5 == 0:
                    found.append(obs)
            state = state.apply(policy.decide(obs, rng))
    return found


def expert_rate(variant, players: int, count: int, iterations: int) -> str:
    """`expert`'s walks per 100 ms of processor time at a fixed budget of walks (the same walks
    whatever the load of the machine: compare code, not machines), and a digest of its choices
    and walk counts, which an optimisation that must not change the search keeps."""
    import hashlib

    from .expert import ExpertBot

    digest = hashlib.sha256()
    walks = 0
    cpu = 0.0
    for i, obs in enumerate(searched_positions(variant, players, count)):
        bot = ExpertBot(
            variant=obs.variant,
            options=obs.options,
            seat=obs.seat,
            players=obs.players,
            rng=random.Random(i),
            iterations=iterations,
            time_ms=None,
        )
        started = time.process_time()
        action = bot.act(obs)
        cpu += time.process_time() - started
        walks += bot.last_iterations
        digest.update(f"{i} {action} {bot.last_iterations};".encode())
    return (
        f"{variant.name:<12} {players:>7} {walks:>8} {cpu:>8.2f} "
        f"{walks / max(cpu, 1e-9) / 10:>14,.0f}  {digest.hexdigest()[:12]}"
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bots.bench", description=__doc__)
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--time-ms", type=float, default=100.0)
    parser.add_argument("--variant", action="append", default=None)
    parser.add_argument(
        "--expert-iterations",
        type=int,
        default=None,
        help="instead: expert's walks per 100 ms of processor time at this many walks a "
        "decision, on positions of heuristic self-play",
    )
    args = parser.parse_args(argv)
    reg = registry()
    if args.expert_iterations:
        print(
            f"{'variant':<12} {'players':>7} {'walks':>8} {'cpu s':>8} {'walks/100ms':>14}  digest"
        )
        for name in args.variant or sorted(reg.variants):
            variant = reg.variant(name)
            for players in variant.players:
                line = expert_rate(variant, players, args.positions, args.expert_iterations)
                print(line, flush=True)
        return 0
    print(
        f"{'variant':<12} {'players':>7} {'policy/s':>14} {'bot ms':>8} {'µs/world':>9} "
        f"{'accepted':>10} "
        f"{'walks/' + format(args.time_ms, 'g') + 'ms':>12}"
    )
    for name in args.variant or sorted(reg.variants):
        variant = reg.variant(name)
        for players in variant.players:
            print(measure(variant, players, args.positions, args.time_ms), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
