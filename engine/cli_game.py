"""The game arguments every command shares (`--variant`, `--players`, `--preset`, `--option`,
`--seed`), read and checked before any game is played."""

from __future__ import annotations

import argparse
import json

from .plugins import registry


def parse_option(text: str) -> tuple[str, object]:
    """`name=value`; the value is read as JSON when it parses (true, 15, [1,3]), else a string."""
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"option {text!r} must look like name=value")
    name, raw = text.split("=", 1)
    try:
        value = json.loads(raw)
    except (json.JSONDecodeError, RecursionError):
        value = raw
    return name, value


def whole_number(minimum: int):
    """An argparse type: a whole number of at least `minimum` (a count of games, a game
    number), refused with a message before anything runs."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{text!r} must be {minimum} or more")
        return value

    return parse


positive_int = whole_number(1)


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", default="paulista")
    parser.add_argument("--players", type=int, default=2, help="2 or 4 (where the variant allows)")
    parser.add_argument("--preset", default=None)
    parser.add_argument(
        "--option", type=parse_option, action="append", default=[], metavar="NAME=VALUE"
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=0,
        help="fixes the deals and the bots' own seeds: the same command plays the same games",
    )


def checked_game(args):
    """(registry, variant, options) of the game arguments, refused before any game is played
    when the variant, an option or the player count is wrong."""
    reg = registry()
    variant = reg.variant(args.variant)
    options = dict(args.option)
    variant.rules(options, args.preset)
    variant.check_players(args.players)
    return reg, variant, options
