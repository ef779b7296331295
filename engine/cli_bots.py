"""The bots of the command line (`--bots A B` of match and arena, check-bot's argument), read
into BotSpecs with the names reports give them.

- `random`, `mcts:time_ms=50,iterations=200`: a registered bot, with its parameters (values read
  as JSON when they parse);
- `./mybot`, `mybot.zip`, `./mybot:bet_rate=0.3`: a bundle (docs/bots.md), always run in the
  jail, with values for the parameters its bot.toml declares (read as their declared types);
- `https://...`: a remote bot (docs/remote-bots.md).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from pathlib import Path

from .bundles import bundle_spec, check_plays, load_bundle
from .bundles.params import value_from_text
from .errors import TrucoError
from .plugins import registry
from .remote_policy import is_url
from .runner import IN_PROCESS, BotSpec


class BotArgumentError(TrucoError):
    """A bot argument that cannot be read (a malformed parameter)."""


@dataclass(frozen=True)
class CliBot:
    spec: BotSpec
    label: str  # how reports and log files name it: a bundle by its manifest's name
    manifest: object | None = None  # a bundle's Manifest
    source: str = ""  # the argument as given

    @property
    def is_bundle(self) -> bool:
        return self.manifest is not None


def looks_like_path(text: str) -> bool:
    """A bundle is named by a path: a slash or a .zip (write ./mybot for a folder here)."""
    return "/" in text or text.endswith(".zip")


def split_bundle_argument(text: str) -> tuple[str, str] | None:
    """(path, parameters text) of a bundle argument, or None for a registered bot's (a bare
    name, even of a folder here). The path ends at the first colon after which the rest is
    `key=value,...`, unless a file or folder of the whole text exists (a path may hold a
    colon)."""
    if is_url(text):
        return None
    if looks_like_path(text) and Path(text).exists():
        return text, ""
    for found in re.finditer(":", text):
        path = text[: found.start()]
        if Path(path).exists() and looks_like_path(path):
            return path, text[found.end() :]
    path, _, raw = text.partition(":")
    return (path, raw) if looks_like_path(path) else None


def parameter_items(raw: str, text: str) -> list[tuple[str, str]]:
    """The `key=value` items of a parameters text, values as written."""
    items = []
    for item in filter(None, raw.split(",")):
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise BotArgumentError(f"bot parameter {item!r} of {text!r} must look like key=value")
        items.append((key, value))
    return items


def json_or_text(value: str):
    try:
        return json.loads(value)
    except (json.JSONDecodeError, RecursionError):
        return value


def parse_cli_bot(text: str) -> CliBot:
    if is_url(text):
        return CliBot(BotSpec.of(text), text, source=text)
    bundle = split_bundle_argument(text)
    if bundle is not None:
        return bundle_bot(*bundle, text)
    name, _, raw = text.partition(":")
    # A folder of the current one, written without ./, that is no registered bot's name:
    if (Path(name) / "bot.toml").is_file() and name not in registry().bots:
        raise BotArgumentError(
            f"{name!r} is not a registered bot; for the bundle in the folder {name}, write ./{text}"
        )
    params = {key: json_or_text(value) for key, value in parameter_items(raw, text)}
    return CliBot(BotSpec(name, params), text, source=text)


def bundle_bot(path: str, raw: str, text: str) -> CliBot:
    bundle = load_bundle(path)
    declared = bundle.manifest.params
    given = {
        key: value_from_text(declared, key, value) for key, value in parameter_items(raw, text)
    }
    spec = bundle_spec(bundle, params=given)  # refuses an unknown key or a wrong value
    label = bundle.manifest.name + (f":{raw}" if raw else "")
    return CliBot(spec, label, bundle.manifest, source=path)


def check_game(bots: list[CliBot], variant: str, players: int) -> None:
    """A bundle plays only the games its manifest lists, here as on the server."""
    for bot in bots:
        if bot.is_bundle:
            check_plays(bot.manifest, variant, players, shown=bot.source)


def distinct_labels(bots: list[CliBot]) -> list[str]:
    """Labels for the report: two sides of one name are told apart as (A) and (B)."""
    labels = [bot.label for bot in bots]
    if len(labels) == 2 and labels[0] == labels[1]:
        return [labels[0] + " (A)", labels[1] + " (B)"]
    return labels


def runs_out_of_process(bot: CliBot, isolation: str | None) -> bool:
    """Whether the bot has a log (what it writes to standard error): jailed and remote ones."""
    spec = bot.spec
    if isolation is not None and spec.registered:
        spec = replace(spec, isolation=isolation)
    return spec.isolation != IN_PROCESS
