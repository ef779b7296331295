"""Rule options: a variant declares them once, and the engine, records, admin and API validate
with the same schema (name, type, allowed values, default, one-line meaning)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .errors import OptionError

KINDS = ("choice", "bool", "int", "ladder")


@dataclass(frozen=True)
class Option:
    name: str
    kind: str
    default: Any
    help: str
    choices: tuple = ()
    minimum: int | None = None  # bounds of an "int" option that has no list of choices
    maximum: int | None = None

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"option {self.name}: kind must be one of {KINDS}")
        self.validate(self.default)

    def validate(self, value: Any) -> Any:
        """Return the normalised value, or raise OptionError listing what is allowed."""
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            raise OptionError(f"option {self.name!r} must be true or false, not {value!r}")
        if self.kind == "ladder":
            ok = (
                isinstance(value, (list, tuple))
                and len(value) >= 2
                and all(type(v) is int and v > 0 for v in value)
                and all(a < b for a, b in zip(value, value[1:], strict=False))
            )
            if not ok:
                raise OptionError(
                    f"option {self.name!r} must be a list of at least two increasing positive "
                    f"integers (the hand value, then each bet), not {value!r}"
                )
            return tuple(value)
        if self.kind == "int" and not self.choices:
            if type(value) is int and self.minimum <= value <= self.maximum:
                return value
            raise OptionError(
                f"option {self.name!r} must be an integer from {self.minimum} to {self.maximum}, "
                f"not {value!r}"
            )
        if value in self.choices and (self.kind != "int" or type(value) is int):
            return value
        allowed = ", ".join(repr(c) for c in self.choices)
        raise OptionError(f"option {self.name!r} must be one of {allowed}, not {value!r}")

    def describe(self) -> dict:
        out = {
            "name": self.name,
            "type": self.kind,
            "default": _jsonable(self.default),
            "help": self.help,
        }
        if self.choices:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"], out["maximum"] = self.minimum, self.maximum
        return out


def _jsonable(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


@dataclass(frozen=True)
class OptionSchema:
    options: tuple[Option, ...]
    presets: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def __post_init__(self):
        for name, values in self.presets.items():
            try:
                self.resolve(values)
            except OptionError as exc:
                raise ValueError(f"preset {name!r} is invalid: {exc}") from exc

    @property
    def by_name(self) -> dict[str, Option]:
        return {o.name: o for o in self.options}

    def defaults(self) -> dict[str, Any]:
        return {o.name: o.default for o in self.options}

    def resolve(
        self, overrides: Mapping[str, Any] | None = None, preset: str | None = None
    ) -> Mapping[str, Any]:
        """Defaults, then the preset's values, then `overrides`; every value validated."""
        if overrides is not None and not isinstance(overrides, Mapping):
            raise OptionError(f"options must be an object of name: value, not {overrides!r}")
        by_name = self.by_name
        values = self.defaults()
        layers = []
        if preset is not None:
            if preset not in self.presets:
                valid = ", ".join(sorted(self.presets)) or "none"
                raise OptionError(f"unknown preset {preset!r}; valid presets: {valid}")
            layers.append(self.presets[preset])
        layers.append(overrides or {})
        for layer in layers:
            for name, value in layer.items():
                if name not in by_name:
                    valid = ", ".join(sorted(by_name))
                    raise OptionError(f"unknown option {name!r}; valid options: {valid}")
                values[name] = by_name[name].validate(value)
        return MappingProxyType(values)

    def overrides(self, resolved: Mapping[str, Any]) -> dict[str, Any]:
        """What a record stores: only the values that differ from the defaults."""
        return {
            o.name: _jsonable(resolved[o.name])
            for o in self.options
            if resolved[o.name] != o.default
        }

    def describe(self) -> list[dict]:
        return [o.describe() for o in self.options]
