"""The one plugin manager: loads the `truco` entry points (built-ins are registered the same way
as third-party packages) and collects variants, bots and tournament formats, rejecting
duplicate names.

Set TRUCO_BLOCKED_PLUGINS to a comma- or space-separated list of entry-point names to skip them.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import pluggy

from . import hookspecs
from .errors import PluginError

ENTRY_POINT_GROUP = "truco"
BLOCK_ENV = "TRUCO_BLOCKED_PLUGINS"


@dataclass
class Registry:
    variants: dict[str, Any] = field(default_factory=dict)
    bots: dict[str, Any] = field(default_factory=dict)
    formats: dict[str, Any] = field(default_factory=dict)  # tournament formats (formats/)
    origin: dict[tuple[str, str], str] = field(default_factory=dict)  # (kind, name) -> plugin

    def variant(self, name: str):
        try:
            return self.variants[name]
        except KeyError:
            raise PluginError(
                f"unknown variant {name!r}; registered variants: {', '.join(sorted(self.variants)) or 'none'}"
            ) from None

    def bot(self, name: str):
        try:
            return self.bots[name]
        except KeyError:
            raise PluginError(
                f"unknown bot {name!r}; registered bots: {', '.join(sorted(self.bots)) or 'none'}"
            ) from None

    def format(self, name: str):
        try:
            return self.formats[name]
        except KeyError:
            known = ", ".join(sorted(self.formats)) or "none"
            raise PluginError(f"unknown format {name!r}; registered formats: {known}") from None


def blocked_plugins() -> list[str]:
    return [name for name in re.split(r"[,\s]+", os.environ.get(BLOCK_ENV, "")) if name]


def make_plugin_manager(load_entry_points: bool = True, extra_plugins=()) -> pluggy.PluginManager:
    pm = pluggy.PluginManager("truco")
    pm.add_hookspecs(hookspecs)
    for name in blocked_plugins():
        pm.set_blocked(name)
    if load_entry_points:
        pm.load_setuptools_entrypoints(ENTRY_POINT_GROUP)
    for plugin, name in extra_plugins:
        pm.register(plugin, name=name)
    return pm


def collect(pm: pluggy.PluginManager) -> Registry:
    """Call every plugin's register hooks, each with a callback that knows which plugin it is,
    so that a duplicate name is reported with both plugins."""
    registry = Registry()

    def registrar(kind: str, table: dict, plugin_name: str):
        def register(*args):
            if kind in ("variant", "format"):
                (obj,) = args
                name = obj.name
            else:
                name, obj = args
            if not isinstance(name, str) or not name:
                raise PluginError(f"plugin {plugin_name!r} registered a {kind} without a name")
            if name in table:
                first = registry.origin[(kind, name)]
                raise PluginError(
                    f"{kind} {name!r} is registered by two plugins: {first!r} and {plugin_name!r}; "
                    f"block one with {BLOCK_ENV}"
                )
            table[name] = obj
            registry.origin[(kind, name)] = plugin_name

        return register

    for hook, kind, table in (
        (pm.hook.truco_register_variants, "variant", registry.variants),
        (pm.hook.truco_register_bots, "bot", registry.bots),
        (pm.hook.truco_register_formats, "format", registry.formats),
    ):
        for impl in hook.get_hookimpls():
            impl.function(register=registrar(kind, table, impl.plugin_name))
    return registry


@lru_cache(maxsize=1)
def _default() -> tuple[pluggy.PluginManager, Registry]:
    pm = make_plugin_manager()
    return pm, collect(pm)


def plugin_manager() -> pluggy.PluginManager:
    return _default()[0]


def registry() -> Registry:
    """The registry of installed plugins, loaded once per process."""
    return _default()[1]


def get_variant(name: str):
    return registry().variant(name)


def get_bot(name: str):
    return registry().bot(name)


def get_format(name: str):
    return registry().format(name)


def reset() -> None:
    """Forget the loaded plugins (tests that install or block plugins call this)."""
    _default.cache_clear()
