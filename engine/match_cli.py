"""`python -m engine match`: two registered bots play N games, sides swapped every other game."""

from __future__ import annotations

import json

from .match import game_seed
from .plugins import registry
from .progress import progress_bar
from .runner import play_game


def seat_bots(bot_a: str, bot_b: str, players: int, swapped: bool) -> list[str]:
    """Partners sit opposite: bot A on team 0 (seats 0, 2) unless the sides are swapped."""
    first, second = (bot_b, bot_a) if swapped else (bot_a, bot_b)
    return [first if seat % 2 == 0 else second for seat in range(players)]


def run_match(args) -> int:
    reg = registry()
    variant = reg.variant(args.variant)
    options = dict(args.option)
    variant.rules(options, args.preset)  # reject bad options before the first game
    variant.check_players(args.players)
    for name in args.bots:
        reg.bot(name)
    bot_a, bot_b = args.bots
    wins = [0, 0]
    points = [0, 0]
    terminations: dict[str, int] = {}
    records = open(args.records, "w", encoding="utf-8") if args.records else None
    try:
        with progress_bar(args.games, f"{bot_a} vs {bot_b}") as advance:
            for i in range(args.games):
                swapped = i % 2 == 1
                result = play_game(
                    variant,
                    seat_bots(bot_a, bot_b, args.players, swapped),
                    options=options,
                    preset=args.preset,
                    seed=game_seed(args.seed, i),
                )
                a_team = 1 if swapped else 0
                if result.winner is not None:
                    wins[0 if result.winner == a_team else 1] += 1
                points[0] += result.score[a_team]
                points[1] += result.score[1 - a_team]
                terminations[result.termination] = terminations.get(result.termination, 0) + 1
                if records:
                    records.write(json.dumps(result.record) + "\n")
                advance(f"{wins[0]}-{wins[1]}")
    finally:
        if records:
            records.close()
    games = args.games
    print(f"{variant.title}, {args.players} players, {games} games, seed {args.seed}")
    for name, w, p in ((bot_a, wins[0], points[0]), (bot_b, wins[1], points[1])):
        rate = 100.0 * w / games if games else 0.0
        print(f"  {name:<12} wins {w:>6} ({rate:5.1f}%)  points {p:>8}")
    print("  terminations: " + ", ".join(f"{k} {v}" for k, v in sorted(terminations.items())))
    return 0
