"""A bundle's parameters: the `[params]` table of `bot.toml` declares each one with its default
(docs/bots.md, "Parameters"), and the values a match gives are checked against it before the
bot starts. The resolved values (every declared parameter, defaults filled in) reach the bot in
the `match` message's `params`.

    [params]
    bet_rate = 0.1                 # shorthand: the default, whose TOML type is the type
    [params.style]                 # or a table, with more to say
    default = "calm"
    choices = ["calm", "wild"]
    help = "how boldly it bets"
    [params.depth]
    default = 3
    min = 1
    max = 10

Types are bool, int, float and string. `resolve_params` is the one check of given values, for the
CLI (`--bots ./mybot:bet_rate=0.3`, after `value_from_text`) and for the server (a saved bot's
params, as JSON): an unknown key or a value of the wrong type is an error naming the valid ones.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import BundleError

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,39}")  # fullmatch: "$" lets a final newline by
MAX_PARAMS = 32
MAX_TEXT = 200  # characters of a string value, and of a parameter's help
MAX_CHOICES = 32
MAX_INT = 2**53  # every language's JSON reader holds these integers exactly (JavaScript's too)
TYPES = ("bool", "int", "float", "string")
TABLE_KEYS = ("default", "help", "choices", "min", "max")
TYPE_WORDS = {
    "bool": "true or false",
    "int": "an integer",
    "float": "a number",
    "string": "a string",
}


class ParamError(BundleError):
    """A parameter value a bundle does not take (an unknown key, a wrong type, out of range)."""


@dataclass(frozen=True)
class Param:
    name: str
    type: str  # one of TYPES
    default: Any
    help: str = ""
    choices: tuple = ()
    min: float | None = None
    max: float | None = None

    def takes(self) -> str:
        """What values it takes, in words: "a number from 0 to 1", "one of "calm", "wild"."""
        if self.choices:
            return "one of " + ", ".join(json.dumps(c) for c in self.choices)
        kind = TYPE_WORDS[self.type]
        if self.min is not None and self.max is not None:
            kind += f" from {_number(self.min)} to {_number(self.max)}"
        elif self.min is not None:
            kind += f" of at least {_number(self.min)}"
        elif self.max is not None:
            kind += f" of at most {_number(self.max)}"
        return kind

    def describe(self) -> str:
        """`bet_rate (a number from 0 to 1, default 0.1)`, as error messages list it."""
        return f"{self.name} ({self.takes()}, default {json.dumps(self.default)})"

    def check(self, value: Any, where: str) -> Any:
        """The value as the bot gets it (an int given for a float becomes a float), or a
        ParamError that says what this parameter takes."""
        wrong = ParamError(
            f"{where}: parameter {self.name!r} must be {self.takes()}, not {_shown(value)}"
        )
        if self.type == "bool":
            if not isinstance(value, bool):
                raise wrong
        elif self.type == "int":
            if type(value) is not int or abs(value) > MAX_INT:
                raise wrong
        elif self.type == "float":
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise wrong
            if not math.isfinite(value) or abs(value) > 1e300:
                raise wrong
            value = float(value)
        elif not isinstance(value, str) or len(value) > MAX_TEXT or "\0" in value:
            raise wrong
        if self.choices and value not in self.choices:
            raise wrong
        if self.min is not None and value < self.min or self.max is not None and value > self.max:
            raise wrong
        return value

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "default": self.default}
        if self.help:
            out["help"] = self.help
        if self.choices:
            out["choices"] = list(self.choices)
        if self.min is not None:
            out["min"] = self.min
        if self.max is not None:
            out["max"] = self.max
        return out

    @classmethod
    def from_json(cls, name: str, values: Mapping[str, Any]) -> Param:
        return cls(
            name=name,
            type=values["type"],
            default=values["default"],
            help=values.get("help", ""),
            choices=tuple(values.get("choices", ())),
            min=values.get("min"),
            max=values.get("max"),
        )


def _number(value: float) -> str:
    return json.dumps(value)


def _shown(value: Any) -> str:
    text = json.dumps(value) if _jsonable(value) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _jsonable(value: Any) -> bool:
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return False
    return True


def _type_of(value: Any) -> str | None:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "string"
    return None


# --- the declaration, in bot.toml -------------------------------------------------------------


def parse_params(table: Any) -> tuple[Param, ...]:
    """The parameters a manifest's `[params]` table declares, in its order, or a BundleError
    ("bad manifest: ...") naming the parameter at fault."""
    if not isinstance(table, Mapping):
        raise BundleError(
            "bad manifest: `params` must be a table of name = default, e.g. [params] then "
            "bet_rate = 0.1"
        )
    if len(table) > MAX_PARAMS:
        raise BundleError(f"bad manifest: at most {MAX_PARAMS} parameters in [params]")
    return tuple(_parse_param(name, value) for name, value in table.items())


def _parse_param(name: str, value: Any) -> Param:
    bad = f"bad manifest: parameter {name!r} in [params]"
    if not NAME.fullmatch(name):
        raise BundleError(
            f"{bad}: a parameter's name is 1 to 40 letters, digits or _, not starting with a digit"
        )
    if isinstance(value, Mapping):
        unknown = sorted(set(value) - set(TABLE_KEYS))
        if unknown:
            raise BundleError(
                f"{bad}: unknown key {', '.join(map(repr, unknown))}; valid keys: "
                f"{', '.join(TABLE_KEYS)}"
            )
        if "default" not in value:
            raise BundleError(f"{bad}: give its `default`")
        default = value["default"]
        help_text = value.get("help", "")
        choices = value.get("choices", [])
        low, high = value.get("min"), value.get("max")
    else:
        default, help_text, choices, low, high = value, "", [], None, None
    kind = _type_of(default)
    if kind is None:
        raise BundleError(
            f"{bad}: its default must be true/false, an integer, a number or a string, "
            f"not {type(default).__name__}"
        )
    if not isinstance(help_text, str) or len(help_text) > MAX_TEXT:
        raise BundleError(f"{bad}: `help` must be text of at most {MAX_TEXT} characters")
    if not isinstance(choices, list) or len(choices) > MAX_CHOICES:
        raise BundleError(f"{bad}: `choices` must be a list of at most {MAX_CHOICES} values")
    if choices and kind not in ("int", "string"):
        raise BundleError(f"{bad}: only integer and string parameters take `choices`")
    for bound in (low, high):
        if bound is not None and (
            kind not in ("int", "float")
            or isinstance(bound, bool)
            or not isinstance(bound, (int, float))
            or not math.isfinite(bound)
        ):
            raise BundleError(f"{bad}: `min` and `max` are numbers, for number parameters only")
    if low is not None and high is not None and low > high:
        raise BundleError(f"{bad}: `min` is above `max`")
    if kind == "float" and not math.isfinite(default):
        raise BundleError(f"{bad}: its default must be a finite number")
    plain = Param(name, kind, default, help_text, (), low, high)
    for choice in choices:
        try:
            plain.check(choice, "a choice")
        except ParamError:
            raise BundleError(f"{bad}: each of its `choices` must be {plain.takes()}") from None
    if len(set(choices)) != len(choices):
        raise BundleError(f"{bad}: `choices` lists a value twice")
    param = Param(name, kind, default, help_text, tuple(choices), low, high)
    try:
        param.check(default, "its default")
    except ParamError:
        raise BundleError(f"{bad}: its default must be {param.takes()}") from None
    return param


# --- the values a match gives ------------------------------------------------------------------


def resolve_params(
    declared: tuple[Param, ...], given: Any = None, *, bot: str = "the bot"
) -> dict[str, Any]:
    """Every declared parameter with its value: the given one, checked, else its default. An
    unknown key, a value of the wrong type or out of range is a ParamError naming the valid
    parameters. `bot` names the bot in the message. For the server: the params of a saved bot
    (JSON) go through here, as the CLI's do."""
    where = f"bot {bot}"
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        raise ParamError(
            f"{where}: parameters must be an object of name: value, not {_shown(given)}"
        )
    by_name = {param.name: param for param in declared}
    unknown = sorted(str(key) for key in given if key not in by_name)
    if unknown:
        raise ParamError(
            f"{where} has no parameter {', '.join(map(repr, unknown))}; valid parameters: "
            f"{valid_list(declared)}"
        )
    return {
        param.name: param.check(given[param.name], where) if param.name in given else param.default
        for param in declared
    }


def valid_list(declared: tuple[Param, ...]) -> str:
    if not declared:
        return "none (its bot.toml declares no [params])"
    return "; ".join(param.describe() for param in declared)


def value_from_text(declared: tuple[Param, ...], key: str, text: str) -> Any:
    """A command-line value (`--bots ./mybot:style=wild`) read as its parameter's type: a string
    parameter takes the text as it is (a JSON string literal is decoded), the others read JSON
    (true, 3, 0.25). An unknown key is left for resolve_params to name the valid ones."""
    param = next((p for p in declared if p.name == key), None)
    if param is not None and param.type == "string":
        if len(text) >= 2 and text[0] == text[-1] == '"':
            try:
                return json.loads(text)
            except (json.JSONDecodeError, RecursionError):
                return text
        return text
    try:
        return json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return text


def params_from_json(values: Mapping[str, Any] | None) -> tuple[Param, ...]:
    """The declarations of `Param.as_json`, as a stored manifest keeps them."""
    return tuple(Param.from_json(name, spec) for name, spec in (values or {}).items())
