"""`bot.toml`, the manifest at the top of every bundle (docs/bots.md, "Manifest reference").

    name = "greedy"                      # required: letters, digits, - and _
    command = ["node", "bot.js"]         # the program, started in the bundle's folder
    # or, for a Python bundle written against the plugin API (engine.bot.Bot):
    # python_class = "mybot:GreedyBot"
    description = "plays its highest card"
    variants = ["paulista", "mineiro"]   # optional: every registered variant when absent
    players = [2]                        # optional: each variant's player counts when absent
    [params]                             # optional: the bot's parameters and their defaults
    bet_rate = 0.1                       # (engine/bundles/params.py)

Parsing checks the manifest's own shape; `check_against_registry` checks its variants and player
counts against what the server has. Every refusal is a BundleError that names the field."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from typing import Any

from .errors import BundleError
from .params import Param, params_from_json, parse_params

MANIFEST_NAME = "bot.toml"
MAX_MANIFEST_BYTES = 16 * 1024
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")  # fullmatch: "$" lets a final newline by
PYTHON_CLASS = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*")
MAX_COMMAND_PARTS = 32
MAX_COMMAND_PART = 300
KEYS = ("name", "command", "python_class", "description", "variants", "players", "params")


@dataclass(frozen=True)
class Manifest:
    name: str
    command: tuple[str, ...] = ()
    python_class: str = ""
    description: str = ""
    variants: tuple[str, ...] = ()  # empty: every registered variant
    players: tuple[int, ...] = ()  # empty: every player count of each variant
    params: tuple[Param, ...] = ()  # the declared parameters, in bot.toml's order
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def module_file_candidates(self) -> tuple[str, str]:
        """Where the module of `python_class` may live in the bundle."""
        module = self.python_class.split(":")[0].replace(".", "/")
        return f"{module}.py", f"{module}/__init__.py"

    def supports(self, variant: str, players: int) -> bool:
        return (not self.variants or variant in self.variants) and (
            not self.players or players in self.players
        )

    def configurations(self, registry) -> list[tuple[str, int]]:
        """(variant, players) of every game setting the bot says it plays, on this server."""
        found = []
        for name in self.variants or sorted(registry.variants):
            variant = registry.variants[name]
            for count in variant.players:
                if not self.players or count in self.players:
                    found.append((name, count))
        return found

    @classmethod
    def from_json(cls, values: dict[str, Any]) -> Manifest:
        """The manifest of `as_json` (as stored with an uploaded version)."""
        return cls(
            name=values["name"],
            command=tuple(values.get("command") or ()),
            python_class=values.get("python_class") or "",
            description=values.get("description") or "",
            variants=tuple(values.get("variants") or ()),
            players=tuple(values.get("players") or ()),
            params=params_from_json(values.get("params")),
        )

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "command": list(self.command),
            "python_class": self.python_class,
            "description": self.description,
            "variants": list(self.variants),
            "players": list(self.players),
            "params": {param.name: param.as_json() for param in self.params},
        }


def parse_manifest(data: bytes) -> Manifest:
    """The manifest of these bytes (the content of `bot.toml`), or a BundleError saying why not."""
    if len(data) > MAX_MANIFEST_BYTES:
        raise BundleError(f"bad manifest: {MANIFEST_NAME} is over {MAX_MANIFEST_BYTES // 1024} KiB")
    try:
        raw = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise BundleError(f"bad manifest: {MANIFEST_NAME} is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise BundleError(f"bad manifest: {MANIFEST_NAME} is not valid TOML ({exc})") from None
    unknown = sorted(set(raw) - set(KEYS))
    if unknown:
        raise BundleError(
            f"bad manifest: unknown key {', '.join(map(repr, unknown))} in {MANIFEST_NAME}; "
            f"valid keys: {', '.join(KEYS)}"
        )
    name = raw.get("name")
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise BundleError(
            "bad manifest: `name` must be 1 to 40 letters, digits, - or _ (starting with a letter "
            f"or digit), not {name!r}"
        )
    command = _command(raw.get("command"))
    python_class = raw.get("python_class", "")
    if not isinstance(python_class, str) or (
        python_class and not PYTHON_CLASS.fullmatch(python_class)
    ):
        raise BundleError(
            f'bad manifest: `python_class` must look like "module:ClassName", not {python_class!r}'
        )
    if bool(command) == bool(python_class):
        raise BundleError(
            'bad manifest: give either `command` (e.g. command = ["node", "bot.js"]) or '
            '`python_class` (e.g. python_class = "mybot:GreedyBot"), exactly one of them'
        )
    description = raw.get("description", "")
    if not isinstance(description, str) or len(description) > 500:
        raise BundleError("bad manifest: `description` must be text of at most 500 characters")
    return Manifest(
        name=name,
        command=command,
        python_class=python_class,
        description=description,
        variants=_string_list(raw.get("variants", []), "variants"),
        players=_players(raw.get("players", [])),
        params=parse_params(raw.get("params", {})),
        raw=raw,
    )


def _command(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if (
        not isinstance(value, list)
        or not value
        or len(value) > MAX_COMMAND_PARTS
        or not all(isinstance(part, str) and part for part in value)
    ):
        raise BundleError(
            'bad manifest: `command` must be a list of non-empty strings, e.g. ["python3", '
            f'"bot.py"] (at most {MAX_COMMAND_PARTS} of them)'
        )
    for part in value:
        if len(part) > MAX_COMMAND_PART or "\0" in part:
            raise BundleError(
                f"bad manifest: `command` part {part[:40]!r}... is over {MAX_COMMAND_PART} "
                "characters or holds a NUL"
            )
    program = value[0]
    if ".." in program.split("/"):
        raise BundleError(f"bad manifest: the program {program!r} goes out of the bundle (..)")
    return tuple(value)


def _string_list(value: Any, key: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise BundleError(f'bad manifest: `{key}` must be a list of names, e.g. ["paulista"]')
    if len(set(value)) != len(value):
        raise BundleError(f"bad manifest: `{key}` lists a name twice")
    return tuple(value)


def _players(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise BundleError("bad manifest: `players` must be a list of player counts, e.g. [2, 4]")
    if len(set(value)) != len(value):
        raise BundleError("bad manifest: `players` lists a count twice")
    return tuple(value)


def check_against_registry(manifest: Manifest, registry) -> None:
    """The manifest's variants and player counts exist on this server, and leave at least one
    game setting to play."""
    unknown = [v for v in manifest.variants if v not in registry.variants]
    if unknown:
        known = ", ".join(sorted(registry.variants))
        raise BundleError(
            f"bad manifest: unknown variant {', '.join(map(repr, unknown))}; "
            f"this server plays: {known}"
        )
    if not manifest.configurations(registry):
        raise BundleError(
            f"bad manifest: no variant listed plays with {list(manifest.players)} players"
        )
