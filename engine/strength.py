"""`python -m engine strength`: the table of strength of docs/bots.md, regenerated.

Every built-in bot against every other and against the example bots (the greedy example and the
example opponents of examples/opponents/, each where its manifest lets it play), in every
variant and player count, as `python -m engine arena` duplicate pairs (the same deals twice,
seats swapped) at each bot's default time per decision. Prints a Markdown table (bot, opponent,
setting, pairs, score of the first with its 95% interval over pair scores); `--write FILE` puts
it in FILE between the lines `<!-- strength:begin -->` and `<!-- strength:end -->`, so the docs
hold exactly what the command printed. A part of the table (`--variant`, `--players`, `--bot`)
replaces the same lines of the table in FILE and keeps the others: the searching bots' lines
take hours, the others minutes, and each can be measured again on its own.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .arena import Tally
from .cli_bots import check_game, parse_cli_bot
from .errors import TrucoError
from .match import MATCH_PAIRS, MatchSpec, iter_match
from .plugins import registry

BEGIN = "<!-- strength:begin -->"
END = "<!-- strength:end -->"
# Strongest first; each plays every one after it.
BUILT_IN = ("expert", "mcts", "heuristic", "random")
# Bundles written apart from the built-ins, played as uploads are (in the jail).
EXAMPLES = (
    "examples/bots/python-greedy",
    "examples/opponents/bluffer",
    "examples/opponents/counter",
    "examples/opponents/eleven_rush",
    "examples/opponents/envido_shark",
    "examples/opponents/polarised",
)
FLOR_PRESET = "argentino-flor"  # Argentino is measured with flor off (its default) and on


class StrengthError(TrucoError):
    pass


@dataclass(frozen=True)
class Setting:
    variant: str
    players: int
    preset: str | None = None

    @property
    def label(self) -> str:
        preset = f" ({self.preset})" if self.preset else ""
        return f"{self.variant}{preset}, {self.players} players"


def settings(only: list[str] | None, only_players: list[int] | None = None) -> list[Setting]:
    """Every registered variant at each player count it allows (Argentino with flor too)."""
    reg = registry()
    out = []
    for name in sorted(reg.variants):
        if only and name not in only:
            continue
        variant = reg.variant(name)
        for players in variant.players:
            if only_players and players not in only_players:
                continue
            out.append(Setting(name, players))
            if FLOR_PRESET in variant.presets:
                out.append(Setting(name, players, FLOR_PRESET))
    return out


def matchups(examples: list[str]) -> list[tuple[str, str]]:
    pairs = [(a, b) for i, a in enumerate(BUILT_IN) for b in BUILT_IN[i + 1 :]]
    pairs += [(a, example) for example in examples for a in BUILT_IN if a != "random"]
    return pairs


def plays(bot: str, setting: Setting) -> bool:
    """Whether a bundle's manifest lets it play this setting (registered bots play all)."""
    try:
        check_game([parse_cli_bot(bot)], setting.variant, setting.players)
    except TrucoError:
        return False
    return True


def measure(a: str, b: str, setting: Setting, pairs: int, seed: int) -> Tally:
    spec = MatchSpec(
        setting.variant,
        parse_cli_bot(a).spec,
        parse_cli_bot(b).spec,
        players=setting.players,
        preset=setting.preset,
        pairs=pairs,
        seed=seed,
    )
    tally = Tally()
    games = iter_match(spec, 1, block_pairs=MATCH_PAIRS)  # as `arena` plays them
    try:
        for game in games:
            tally.add(game)
    finally:
        games.close()
    return tally


def rows(args) -> Iterator[str]:
    examples = [] if args.no_example else [e for e in EXAMPLES if Path(e).is_dir()]
    for setting in settings(args.variant, args.players):
        for a, b in matchups(examples):
            if args.bot and not (a in args.bot and b in args.bot):
                continue
            if not plays(b, setting):
                continue
            started = time.perf_counter()
            tally = measure(a, b, setting, args.pairs, args.seed)
            score = tally.score()
            name_b = parse_cli_bot(b).label
            spent = time.perf_counter() - started
            yield (
                f"| {a} | {name_b} | {setting.label} | {len(tally.pair_scores)} | "
                f"{100 * score.estimate:.1f}% [{100 * score.low:.1f}, {100 * score.high:.1f}] |"
                f" {spent / max(1, tally.games):.1f} s |"
            )


HEADER = (
    "| bot | against | game | pairs | bot's score [95% interval] | per game |",
    "|---|---|---|---|---|---|",
)


def row_key(row: str) -> tuple[str, ...]:
    """A line of the table by what it measured: bot, opponent and game."""
    return tuple(cell.strip() for cell in row.strip().strip("|").split("|")[:3])


def merged(old: list[str], new: list[str]) -> list[str]:
    """The table's lines with those of this run in place of the same measurements: a line
    measured again stays where it was, a new one goes after the last line of its game."""
    fresh = {row_key(row): row for row in new}
    rows = [fresh.pop(row_key(row), row) for row in old]
    for key, row in fresh.items():
        same_game = [i for i, r in enumerate(rows) if row_key(r)[2:] == key[2:]]
        rows.insert(same_game[-1] + 1 if same_game else len(rows), row)
    return rows


def write_between_markers(path: Path, table: list[str]) -> None:
    text = path.read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        raise StrengthError(f"{path} has no {BEGIN} ... {END} lines to write the table between")
    head, rest = text.split(BEGIN, 1)
    inside, tail = rest.split(END, 1)
    old = [line for line in inside.splitlines() if line.startswith("| ") and line not in HEADER]
    rows = merged(old, table[len(HEADER) :])
    body = "\n".join([*HEADER, *rows])
    path.write_text(head + BEGIN + "\n" + body + "\n" + END + tail, encoding="utf-8")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pairs", type=int, default=100, help="duplicate pairs per line")
    parser.add_argument(
        "--seed",
        type=int,
        default=0,
        help="fixes the deals and the bots' own seeds: the same command prints the same table",
    )
    parser.add_argument("--variant", action="append", help="only these variants")
    parser.add_argument("--players", type=int, action="append", help="only these player counts")
    parser.add_argument(
        "--bot", action="append", help="only the matchups between these bots (give two or more)"
    )
    parser.add_argument("--no-example", action="store_true", help="leave out the example bots")
    parser.add_argument("--write", metavar="FILE", help="put the table in FILE between markers")


def run_strength(args) -> int:
    if args.pairs < 1:
        raise StrengthError("--pairs must be at least 1")
    if args.write:
        if not Path(args.write).is_file():
            raise StrengthError(f"no such file: {args.write}")
        text = Path(args.write).read_text(encoding="utf-8")
        if BEGIN not in text or END not in text:  # said before hours of games, not after
            raise StrengthError(
                f"{args.write} has no {BEGIN} ... {END} lines to write the table between"
            )
    table = list(HEADER)
    print("\n".join(HEADER), flush=True)
    for row in rows(args):
        table.append(row)
        print(row, flush=True)
    if args.write:
        write_between_markers(Path(args.write), table)
        print(f"written to {args.write}")
    return 0
