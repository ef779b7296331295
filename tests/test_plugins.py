"""The plugin system: entry-point discovery, duplicate names, blocking, and every hook tested."""

from __future__ import annotations

import inspect

import pytest

from engine import hookspecs
from engine.errors import PluginError
from engine.hookspecs import hookimpl
from engine.plugins import collect, make_plugin_manager
from engine.runner import play_game
from variants.paulista import Paulista


def test_builtin_variants_and_bots_are_discovered_through_entry_points():
    registry = collect(make_plugin_manager())
    assert "paulista" in registry.variants and "random" in registry.bots
    # They come from the `truco` entry points, named as in pyproject.toml.
    assert registry.origin[("variant", "paulista")] == "paulista"
    assert registry.origin[("bot", "random")] == "random"


class DuplicatePaulista:
    @hookimpl
    def truco_register_variants(self, register):
        register(Paulista())


def test_register_variants_twice_with_one_name_fails_naming_both_plugins():
    pm = make_plugin_manager(extra_plugins=[(DuplicatePaulista(), "copycat")])
    with pytest.raises(
        PluginError, match="'paulista' is registered by two plugins: 'paulista' and 'copycat'"
    ):
        collect(pm)


class DuplicateBot:
    @hookimpl
    def truco_register_bots(self, register):
        register("random", object)


def test_register_bots_twice_with_one_name_fails_naming_both_plugins():
    pm = make_plugin_manager(extra_plugins=[(DuplicateBot(), "other-random")])
    with pytest.raises(
        PluginError, match="'random' is registered by two plugins: 'random' and 'other-random'"
    ):
        collect(pm)


class KnockoutFormat:
    """A third-party format: registered like the built-ins, and scheduling asks it, not its
    name, what it needs."""

    name = "knockout"
    title = "knockout"
    needs_winner = True
    round_by_round = False
    has_bracket = False


class DuplicateSwiss:
    name = "swiss"


class FormatPlugin:
    def __init__(self, fmt):
        self.fmt = fmt

    @hookimpl
    def truco_register_formats(self, register):
        register(self.fmt)


def test_register_formats_adds_a_third_party_format_and_refuses_a_second_swiss():
    registry = collect(make_plugin_manager(extra_plugins=[(FormatPlugin(KnockoutFormat()), "ko")]))
    assert set(registry.formats) >= {"knockout", "swiss", "round-robin", "single-elimination"}
    assert registry.format("knockout").needs_winner is True
    with pytest.raises(PluginError, match="unknown format 'bisca'; registered formats: "):
        registry.format("bisca")
    pm = make_plugin_manager(extra_plugins=[(FormatPlugin(DuplicateSwiss()), "copy")])
    with pytest.raises(PluginError, match="'swiss' is registered by two plugins"):
        collect(pm)


def test_blocked_plugins_environment_variable_skips_them(monkeypatch):
    monkeypatch.setenv("TRUCO_BLOCKED_PLUGINS", "random, copycat")
    pm = make_plugin_manager(extra_plugins=[(DuplicatePaulista(), "copycat")])
    registry = collect(pm)
    assert "random" not in registry.bots
    assert registry.origin[("variant", "paulista")] == "paulista"  # the duplicate was blocked


def test_unknown_names_are_reported_with_the_registered_ones():
    registry = collect(make_plugin_manager())
    with pytest.raises(
        PluginError, match="unknown variant 'bisca'; registered variants: .*paulista"
    ):
        registry.variant("bisca")
    with pytest.raises(PluginError, match="unknown bot 'deep-blue'; registered bots: .*random"):
        registry.bot("deep-blue")


class Observer:
    def __init__(self):
        self.seen = []

    @hookimpl
    def truco_game_finished(self, result):
        self.seen.append(result)


def test_game_finished_hook_observes_every_game(monkeypatch):
    import engine.plugins as plugins

    observer = Observer()
    pm = make_plugin_manager(extra_plugins=[(observer, "observer")])
    monkeypatch.setattr(plugins, "plugin_manager", lambda: pm)
    monkeypatch.setattr("engine.runner.plugin_manager", lambda: pm)
    result = play_game("paulista", ["random", "random"], seed=5)
    assert observer.seen == [result]


def test_every_hook_is_documented_and_tested():
    """A hook without a docstring or without a test named after it is an undocumented contract."""
    tests = [name for name in globals() if name.startswith("test_")]
    hooks = [
        name
        for name, _ in inspect.getmembers(hookspecs, inspect.isfunction)
        if name.startswith("truco_")
    ]
    assert hooks
    for name in hooks:
        assert (getattr(hookspecs, name).__doc__ or "").strip(), f"{name} has no documentation"
        short = name.removeprefix("truco_")
        assert any(short in test for test in tests), f"{name} has no test named after it"
