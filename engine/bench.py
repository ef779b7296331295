"""`python -m engine bench`: hands and games per second of random play for every registered
variant with 2 and 4 players, through the same runner that plays real matches (observations,
bots and records included), on one core; then the peak memory; then the jail's figures
(engine/jail/bench.py: in-process and jailed side by side, overhead per decision, start-up)."""

from __future__ import annotations

import resource
import time
import tracemalloc

from .jail.bench import run_jail_bench
from .jail.probe import availability
from .plugins import registry
from .runner import play_game


def measure(variant, players: int, seconds: float) -> tuple[int, int, float]:
    bots = ["random"] * players
    games = hands = 0
    started = time.perf_counter()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        for _ in range(20):
            result = play_game(variant, bots, seed=games, notify=False)
            games += 1
            hands += result.hands
    return games, hands, time.perf_counter() - started


def peak_game_memory(variant, players: int) -> int:
    """Peak bytes allocated while playing one game (tracemalloc; measured apart from the timing,
    since tracing slows everything down)."""
    tracemalloc.start()
    play_game(variant, ["random"] * players, seed=1, notify=False)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def run_bench(args) -> int:
    if not getattr(args, "jail_only", False):
        run_variant_bench(args)
    jail = availability()
    if jail.ok:
        run_jail_bench(args.seconds)
    else:
        print(f"jail: not measured, the jail cannot be built here ({jail.reason})")
    return 0


def run_variant_bench(args) -> None:
    reg = registry()
    names = args.variant or sorted(reg.variants)
    print(
        f"{'variant':<12} {'players':>7} {'hands/s':>10} {'games/s':>9} {'hands/game':>10} {'peak KiB/game':>14}"
    )
    for name in names:
        variant = reg.variant(name)
        for players in variant.players:
            play_game(variant, ["random"] * players, seed=0, notify=False)  # warm the caches
            games, hands, elapsed = measure(variant, players, args.seconds)
            peak = peak_game_memory(variant, players)
            print(
                f"{name:<12} {players:>7} {hands / elapsed:>10,.0f} {games / elapsed:>9,.0f} "
                f"{hands / games:>10.2f} {peak / 1024:>14.1f}",
                flush=True,
            )
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"peak resident memory of the whole run: {rss / 1024:.1f} MiB")
