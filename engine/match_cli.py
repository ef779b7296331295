"""`python -m engine match`: two bots (registered, bundles, remote) play N games, sides swapped
every other game."""

from __future__ import annotations

import json

from .arena import check_bot, cli_bots, log_files
from .cli_bots import distinct_labels
from .cli_game import checked_game
from .errors import TrucoError
from .jail.probe import availability, unsafe_unjailed
from .match import MatchSpec, iter_match
from .progress import progress_bar
from .remote_policy import check_url
from .runner import IN_PROCESS


def run_match(args) -> int:
    reg, variant, options = checked_game(args)
    if args.decision_seconds is not None and not args.decision_seconds > 0:
        raise TrucoError("--decision-seconds must be a positive number of seconds")
    if args.isolation not in (None, "inprocess") and not unsafe_unjailed():
        availability().require()  # refused now, not after the first game
    # The same `name:key=value` syntax as `arena`. A bot built in this process is checked now
    # (a misspelt parameter is an error before any game); a bot in a child process or the jail
    # proves itself in its games, where one that cannot start forfeits each game, saying why.
    # A bundle folder or zip always runs in the jail.
    bots = cli_bots(args)
    side_a, side_b = (bot.spec for bot in bots)
    for side in (side_a, side_b):
        if (args.isolation or side.isolation) == IN_PROCESS:
            check_bot(reg, variant, side, options, args)
        elif side.url is not None:
            check_url(side.url)  # a remote bot (docs/remote-bots.md): its URL must be allowed
        elif side.program is None:
            reg.bot(side.name)  # a bundle (side.program) has no registered name
    # A bundle's parameters were checked against its bot.toml when it was read (cli_bots).
    bot_a, bot_b = distinct_labels(bots)
    logs = log_files(args, bots)
    spec = MatchSpec(
        args.variant,
        side_a,
        side_b,
        players=args.players,
        options=options,
        preset=args.preset,
        games=args.games,
        seed=args.seed,
        decision_seconds=args.decision_seconds,
        isolation=args.isolation,
        time_control=args.time_control,
    )
    wins = [0, 0]
    points = [0, 0]
    terminations: dict[str, int] = {}
    try:
        records = open(args.records, "w", encoding="utf-8") if args.records else None
    except OSError as exc:
        raise TrucoError(f"cannot write the records to {args.records!r}: {exc.strerror}") from None
    games = iter_match(spec, 1)
    try:
        with progress_bar(args.games, f"{bot_a} vs {bot_b}") as advance:
            for game in games:
                side = game.winner_side
                if side is not None:
                    wins[0 if side == "a" else 1] += 1
                points[0] += game.points[0]
                points[1] += game.points[1]
                termination = game.result.termination
                terminations[termination] = terminations.get(termination, 0) + 1
                if logs:
                    logs.add(game)
                if records:
                    records.write(json.dumps(game.result.record) + "\n")
                advance(f"{wins[0]}-{wins[1]}")
    finally:
        games.close()
        if records:
            records.close()
    total = args.games
    print(f"{variant.title}, {args.players} players, {total} games, seed {args.seed}")
    for name, won, scored in ((bot_a, wins[0], points[0]), (bot_b, wins[1], points[1])):
        rate = 100.0 * won / total if total else 0.0
        print(f"  {name:<12} wins {won:>6} ({rate:5.1f}%)  points {scored:>8}")
    print("  terminations: " + ", ".join(f"{k} {v}" for k, v in sorted(terminations.items())))
    if logs:
        print("\n".join(logs.summary()))
    return 0
