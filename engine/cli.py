"""`python -m engine ...`: replay a record, play a match between bots, measure two bots' strength
(arena), start a bot of your own (new-bot) and check it as the server would (check-bot),
benchmark the variants and the jail, check that the jail holds here (jail-check).

A bot is a registered bot (random, heuristic, mcts, expert), a bundle folder or .zip (./mybot:
docs/bots.md), or a remote bot's URL. The same --seed plays the same games again, the bots'
own random seeds included (engine/botseed.py).

Exit codes: 0 success, 1 the jail check failed or check-bot rejected the bundle, 2 bad input or
untrusted bots refused (with a message; JSON for `replay`).
"""

from __future__ import annotations

import argparse
import sys

from .arena import add_arguments as add_arena_arguments
from .arena import (
    add_bots_argument,
    add_isolation_argument,
    add_logs_argument,
    add_time_control_argument,
)
from .cli_game import add_game_arguments, positive_int
from .errors import TrucoError
from .strength import add_arguments as add_strength_arguments


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    replay = sub.add_parser(
        "replay", help="replay a game record or a records file (docs/records.md)"
    )
    replay.add_argument(
        "file", help="a record file, a records file (match --records), or - for standard input"
    )
    replay.add_argument(
        "--game",
        type=positive_int,
        default=None,
        metavar="N",
        help="replay only game N (from 1) of a records file",
    )

    match = sub.add_parser(
        "match", help="play games between two bots (registered bots, bundles, remote bots)"
    )
    add_game_arguments(match)
    add_bots_argument(match)
    match.add_argument("--games", type=positive_int, default=100, help="at least 1")
    match.add_argument(
        "--records", default=None, help="write every game record to this JSON-lines file"
    )
    add_isolation_argument(match)
    match.add_argument(
        "--decision-seconds", type=float, default=None, help="time limit per decision"
    )
    add_time_control_argument(match)
    add_logs_argument(match)

    arena = sub.add_parser(
        "arena", help="duplicate pairs between two bots: win rate, Elo, SPRT (engine/arena.py)"
    )
    add_game_arguments(arena)
    add_arena_arguments(arena)

    sub.add_parser("variants", help="list the registered variants, their options and presets")

    strength = sub.add_parser(
        "strength",
        help="the table of strength of docs/bots.md: every built-in bot against every other, "
        "in every variant (engine/strength.py)",
    )
    add_strength_arguments(strength)

    new_bot = sub.add_parser(
        "new-bot",
        help="write a working bot bundle to start from (bot.toml, the code, a README)",
        description="Write a bundle that passes the server's checks and plays every variant "
        "legally, and say the next commands (docs/bots.md).",
    )
    new_bot.add_argument("folder", metavar="DIR", help="a new (or empty) folder")
    new_bot.add_argument("--language", required=True, choices=("python", "node", "java"))
    new_bot.add_argument("--name", default=None, help="its name (default: the folder's)")

    check = sub.add_parser(
        "check-bot",
        help="the server's checks and smoke match on a bundle: exit 0 ready, 1 rejected",
        description="What the server does with an upload, here: the archive's and manifest's "
        "checks, then the smoke match in the jail, with the server's messages. Exit codes: 0 "
        "ready, 1 rejected (the reason printed), 2 bad usage.",
    )
    check.add_argument(
        "bundle",
        metavar="BUNDLE",
        help="a bundle folder or .zip, optionally with values for its [params]: "
        "./mybot:bet_rate=0.3",
    )
    check.add_argument(
        "--zip", default=None, metavar="FILE", help="once ready, write the zip to upload here"
    )
    check.add_argument(
        "--logs", default=None, metavar="DIR", help="keep the smoke match's log in DIR"
    )

    bench = sub.add_parser("bench", help="hands and games per second of random play, per variant")
    bench.add_argument(
        "--seconds", type=float, default=2.0, help="time per variant and player count"
    )
    bench.add_argument("--variant", action="append", default=None, help="only these variants")
    bench.add_argument(
        "--jail-only", action="store_true", help="only the jail's figures (in-process vs jailed)"
    )

    sub.add_parser(
        "jail-check",
        help="build a jail here and try what a hostile bot would: prints what was verified",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    # Each command's module is imported when that command runs, not before: `replay` and
    # `variants` start without importing the jail, the kit or the arena.
    args = build_parser().parse_args(argv)
    if args.command == "replay":
        from .replay_cli import run_replay

        return run_replay(args.file, args.game)
    try:
        if args.command in ("match", "arena", "strength"):
            from .botseed import reproducible_from

            reproducible_from(args.seed)  # unless a server's secret is set
        if args.command == "match":
            from .match_cli import run_match

            return run_match(args)
        if args.command == "new-bot":
            from .kit.new_bot import run_new_bot

            return run_new_bot(args)
        if args.command == "check-bot":
            from .botseed import reproducible_from
            from .bundles.smoke import SMOKE_SEED
            from .kit.check_bot import run_check_bot

            reproducible_from(SMOKE_SEED)
            return run_check_bot(args)
        if args.command == "variants":
            from .variants_doc import run_variants

            return run_variants(args)
        if args.command == "arena":
            from .arena import run_arena

            return run_arena(args)
        if args.command == "strength":
            from .strength import run_strength

            return run_strength(args)
        if args.command == "bench":
            from .bench import run_bench

            return run_bench(args)
        if args.command == "jail-check":
            from .jail.check import run_jail_check

            return run_jail_check(args)
    except TrucoError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0
