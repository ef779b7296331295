"""`python -m engine arena`: two bots play duplicate pairs (the same deals twice, seats swapped)
and the strength difference is reported as testers of game engines do: wins and points, the
score with its 95% interval on pair scores, the Elo difference with error bars, terminations by
type and, with `--sprt elo0=0 elo1=20`, a sequential test that stops the run once it decides.
"""

from __future__ import annotations

import argparse
import json
import random
from dataclasses import dataclass, field, replace

from .cli_bots import (
    CliBot,
    check_game,
    distinct_labels,
    parse_cli_bot,
    runs_out_of_process,
)
from .cli_game import checked_game
from .cli_logs import LogFiles
from .errors import TrucoError
from .jail.check import first_decision_error
from .match import MATCH_PAIRS, MatchGame, MatchSpec, iter_match
from .progress import progress_bar
from .remote_policy import check_url
from .runner import IN_PROCESS, JAIL, PROCESS, REMOTE, BotSpec
from .stats import Interval, elo_interval, mean_interval, pentanomial, sprt
from .time_control import TimeControl, TimeControlError


class ArenaError(TrucoError):
    """Bad arena input (a malformed bot parameter or SPRT bound)."""


def parse_bot(text: str) -> BotSpec:
    """`name` or `name:key=value,key=value` (values read as JSON when they parse), a bundle
    folder or .zip (`./mybot`, `./mybot:key=value`: docs/bots.md), which always runs in the
    jail, or the URL of a remote bot (`https://...`, docs/remote-bots.md). engine/cli_bots.py."""
    return parse_cli_bot(text).spec


def parse_sprt(items: list[str]) -> dict[str, float]:
    values = {"alpha": 0.05, "beta": 0.05}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or key not in ("elo0", "elo1", "alpha", "beta"):
            raise ArenaError(f"--sprt takes elo0=, elo1=, alpha= and beta=, not {item!r}")
        try:
            values[key] = float(value)
        except ValueError:
            raise ArenaError(f"--sprt {key} must be a number, not {value!r}") from None
    if "elo0" not in values or "elo1" not in values:
        raise ArenaError("--sprt needs both elo0= and elo1=")
    if values["elo1"] <= values["elo0"]:
        raise ArenaError("--sprt needs elo1 greater than elo0")
    if not (0 < values["alpha"] < 0.5 and 0 < values["beta"] < 0.5):
        raise ArenaError("--sprt alpha and beta must be between 0 and 0.5")
    return values


def check_bot(reg, variant, side: BotSpec, options, args) -> None:
    """Try the bot once, so that a wrong name or parameter is an error now, not a forfeit in
    every game: built here when it runs in-process, else in the jail (its code never runs in
    this process), where it must answer one decision. A remote bot's URL is checked against
    the policy instead (nothing of it runs here)."""
    if side.isolation == REMOTE:
        check_url(side.url)
        return
    factory = reg.bot(side.name) if side.registered else None
    state = variant.new_game(args.players, options, preset=args.preset, seed=args.seed)
    isolation = args.isolation or side.isolation if side.registered else side.isolation
    if isolation != IN_PROCESS:
        error = first_decision_error(replace(side, isolation=isolation), variant.name, state)
        if error:
            raise ArenaError(f"bot {side.name!r} failed its first decision in the jail: {error}")
        return
    try:
        factory(
            variant=variant.name,
            options=state.options,
            seat=0,
            players=args.players,
            rng=random.Random(0),
            **side.params,
        )
    except Exception as exc:
        raise ArenaError(f"bot {side.name!r} rejected its parameters: {exc}") from None


BOTS_HELP = (
    "two bots, each one of: a registered bot (random, heuristic, mcts, expert), optionally with "
    "parameters: mcts:time_ms=50,iterations=200; a bundle folder or .zip (./mybot, mybot.zip: "
    "docs/bots.md), run in the jail, optionally with values for its [params]: "
    "./mybot:bet_rate=0.3; or the URL of a remote bot (https://..., needs TRUCO_REMOTE_BOTS=1: "
    "docs/remote-bots.md)"
)


def add_bots_argument(parser: argparse.ArgumentParser) -> None:
    """`--bots A B`, the same for `match` and `arena` (read by engine/cli_bots.py)."""
    parser.add_argument(
        "--bots", nargs=2, required=True, metavar=("BOT_A", "BOT_B"), help=BOTS_HELP
    )


def add_logs_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--logs",
        default=None,
        metavar="DIR",
        help="keep what each bundle (or jailed or remote bot) writes to standard error: a file "
        "per bot in DIR, game by game",
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_bots_argument(parser)
    parser.add_argument("--pairs", type=int, default=100, help="duplicate pairs (two games each)")
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="processes that play the matches of pairs in parallel (a run of one match, "
        "--pairs up to --match-pairs, plays in one)",
    )
    parser.add_argument(
        "--match-pairs",
        type=int,
        default=MATCH_PAIRS,
        metavar="N",
        help="the pairs are played as matches of N pairs each (default %(default)s): bots "
        "remember their opponent across a match's games and jailed bots start once a match, "
        "whatever --jobs is",
    )
    parser.add_argument(
        "--sprt",
        nargs="+",
        default=None,
        metavar="KEY=VALUE",
        help="stop when an SPRT on the pairs decides: elo0=0 elo1=20 [alpha=0.05 beta=0.05]",
    )
    add_isolation_argument(parser)
    parser.add_argument(
        "--decision-seconds", type=float, default=None, help="time limit per decision"
    )
    add_time_control_argument(parser)
    parser.add_argument(
        "--records", default=None, help="write every game record to this JSON-lines file"
    )
    add_logs_argument(parser)


def cli_bots(args) -> list[CliBot]:
    """The two bots of `--bots`, refused now when a bundle does not play this game."""
    bots = [parse_cli_bot(text) for text in args.bots]
    check_game(bots, args.variant, args.players)
    return bots


def log_files(args, bots: list[CliBot]) -> LogFiles | None:
    if not args.logs:
        return None
    logged = [runs_out_of_process(bot, args.isolation) for bot in bots]
    return LogFiles(args.logs, distinct_labels(bots), logged, args.players)


def time_control_type(text: str) -> TimeControl:
    try:
        return TimeControl.parse(text)
    except TimeControlError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_time_control_argument(parser: argparse.ArgumentParser) -> None:
    """`--time-control BANK+INC`, the same for `match` and `arena`."""
    parser.add_argument(
        "--time-control",
        type=time_control_type,
        default=None,
        metavar="BANK+INC",
        help="a bank of seconds per bot per game plus seconds added per decision, as chess "
        "engine testers have it (60+0.5); an empty bank loses the game by timeout. Default: "
        "none (only the time per decision)",
    )


def add_isolation_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--isolation",
        choices=(IN_PROCESS, JAIL, PROCESS),
        default=None,
        help="jail (or process): run both bots in the jail, one process per seat per match, "
        "with a hard deadline per decision (docs/bot-protocol.md)",
    )


@dataclass
class Tally:
    """The running totals of an arena run, from side A's view."""

    games: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    points: list[int] = field(default_factory=lambda: [0, 0])
    terminations: dict[str, int] = field(default_factory=dict)
    open_pairs: dict[int, list[MatchGame]] = field(default_factory=dict)
    pair_scores: list[float] = field(default_factory=list)

    def add(self, game: MatchGame) -> bool:
        """Count a game; True when it completes its pair."""
        self.games += 1
        side = game.winner_side
        if side is not None:
            self.wins[0 if side == "a" else 1] += 1
        a, b = game.points
        self.points[0] += a
        self.points[1] += b
        kind = game.result.termination
        self.terminations[kind] = self.terminations.get(kind, 0) + 1
        games = self.open_pairs.setdefault(game.pair, [])
        games.append(game)
        if len(games) < 2:
            return False
        del self.open_pairs[game.pair]
        self.pair_scores.append(sum(1.0 for g in games if g.winner_side == "a") / 2)
        return True

    def score(self) -> Interval:
        return mean_interval(self.pair_scores)


def run_arena(args) -> int:
    reg, variant, options = checked_game(args)
    bots = cli_bots(args)
    side_a, side_b = (bot.spec for bot in bots)
    for side in (side_a, side_b):
        check_bot(reg, variant, side, options, args)
    if args.pairs < 1:
        raise ArenaError("--pairs must be at least 1")
    if args.jobs < 1:
        raise ArenaError("--jobs must be at least 1")
    if args.match_pairs < 1:
        raise ArenaError("--match-pairs must be at least 1")
    if args.decision_seconds is not None and not args.decision_seconds > 0:
        raise ArenaError("--decision-seconds must be a positive number of seconds")
    test = parse_sprt(args.sprt) if args.sprt else None
    spec = MatchSpec(
        args.variant,
        side_a,
        side_b,
        players=args.players,
        options=options,
        preset=args.preset,
        pairs=args.pairs,
        seed=args.seed,
        decision_seconds=args.decision_seconds,
        isolation=args.isolation,
        time_control=args.time_control,
    )
    name_a, name_b = distinct_labels(bots)
    logs = log_files(args, bots)
    tally = Tally()
    decided = None
    try:
        records = open(args.records, "w", encoding="utf-8") if args.records else None
    except OSError as exc:
        raise ArenaError(f"cannot write the records to {args.records!r}: {exc.strerror}") from None
    games = iter_match(spec, args.jobs, block_pairs=args.match_pairs)
    try:
        with progress_bar(2 * args.pairs, f"{name_a} vs {name_b}") as advance:
            for game in games:
                paired = tally.add(game)
                if logs:
                    logs.add(game)
                if records:
                    records.write(json.dumps(game.result.record) + "\n")
                    records.flush()
                score = tally.score()
                advance(f"{100 * score.estimate:5.1f}%  pairs {len(tally.pair_scores)}")
                if test and paired:
                    decided = sprt(
                        tally.pair_scores, test["elo0"], test["elo1"], test["alpha"], test["beta"]
                    )
                    if decided.decision:
                        break
    finally:
        games.close()
        if records:
            records.close()
    report(args, variant, spec, tally, name_a, name_b, test, decided)
    if logs:
        print("\n".join(logs.summary()))
    return 0


def report(args, variant, spec, tally: Tally, name_a, name_b, test, decided) -> None:
    pairs = len(tally.pair_scores)
    table = f" ({args.preset})" if args.preset else ""
    if args.option:
        table += " " + " ".join(f"{k}={json.dumps(v)}" for k, v in args.option)
    print(
        f"{variant.title}{table}, {args.players} players, {pairs} duplicate pairs "
        f"({tally.games} games), seed {args.seed}"
    )
    width = max(len(name_a), len(name_b), 4)
    print(f"  {'bot':<{width}} {'wins':>7} {'points':>8}")
    for name, w, p in (
        (name_a, tally.wins[0], tally.points[0]),
        (name_b, tally.wins[1], tally.points[1]),
    ):
        print(f"  {name:<{width}} {w:>7} {p:>8}")
    score = tally.score()
    elo = elo_interval(score)
    print(
        f"  {name_a} score {100 * score.estimate:.1f}% "
        f"[{100 * score.low:.1f}%, {100 * score.high:.1f}%] (95% interval over pair scores)"
    )
    print(f"  Elo difference {fmt_elo(elo.estimate)} [{fmt_elo(elo.low)}, {fmt_elo(elo.high)}]")
    ll, _, split, _, ww = pentanomial(tally.pair_scores)
    print(f"  pairs: {name_a} won both {ww}, split {split}, lost both {ll}")
    print("  terminations: " + ", ".join(f"{k} {v}" for k, v in sorted(tally.terminations.items())))
    if test:
        result = decided or sprt(
            tally.pair_scores, test["elo0"], test["elo1"], test["alpha"], test["beta"]
        )
        verdict = {
            "H1": f"H1 accepted: {name_a} is stronger by about {test['elo1']:g} Elo or more",
            "H0": f"H0 accepted: {name_a} is not stronger by {test['elo1']:g} Elo",
            None: "undecided",
        }[result.decision]
        print(
            f"  SPRT elo0={test['elo0']:g} elo1={test['elo1']:g} alpha={test['alpha']:g} "
            f"beta={test['beta']:g}: LLR {result.llr:.2f} [{result.lower:.2f}, {result.upper:.2f}] "
            f"{verdict} after {pairs} pairs"
        )


def fmt_elo(value: float) -> str:
    if value == float("inf"):
        return "+inf"
    if value == float("-inf"):
        return "-inf"
    rounded = round(value)
    # A difference that rounds to nothing has no sign ("-0" reads as a finding).
    return f"{rounded:+d}" if rounded else "0"
