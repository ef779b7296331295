"""Checks of what a user asks for, with messages that say what would be valid: rule options
against the variant's own schema, format options against the format's, bots against the
registered plugins. Model `clean()`, the admin, the API and the commands all use these."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError

from engine.errors import OptionError, PluginError
from engine.plugins import registry
from formats import FormatError
from formats.standings import validate_metrics
from submitted_bots.budgets import entry_errors

MAX_GAMES_PER_MATCH = 100_000
MAX_SEED = 2**63 - 1  # a signed 64-bit column


def check_variant_settings(
    variant: str, preset: str, options: Any, players: Any
) -> dict[str, list[str]]:
    errors: dict[str, list[str]] = {}
    reg = registry()
    if variant not in reg.variants:
        known = ", ".join(sorted(reg.variants)) or "none"
        errors["variant"] = [f"unknown variant {variant!r}; registered variants: {known}"]
        return errors
    found = reg.variant(variant)
    if not isinstance(options, Mapping):
        errors["options"] = [f"options must be an object of name: value, not {options!r}"]
    else:
        try:
            found.rules(options, preset or None)
        except OptionError as exc:
            field = "preset" if str(exc).startswith("unknown preset") else "options"
            errors[field] = [str(exc)]
    try:
        found.check_players(players)
    except OptionError as exc:
        errors["players"] = [str(exc)]
    return errors


def check_format_settings(fmt: str, format_options: Any, metrics: Any) -> dict[str, list[str]]:
    formats = registry().formats
    if fmt not in formats:
        return {"format": [f"unknown format {fmt!r}; valid formats: {', '.join(formats)}"]}
    if not isinstance(format_options, Mapping):
        return {"format_options": [f"must be an object of name: value, not {format_options!r}"]}
    errors: dict[str, list[str]] = {}
    if "metrics" in format_options:
        errors["format_options"] = ["set the standings tiebreaks in 'metrics', not here"]
    try:
        formats[fmt].resolve_options({k: v for k, v in format_options.items() if k != "metrics"})
    except FormatError as exc:
        errors.setdefault("format_options", []).append(str(exc))
    if metrics is not None and metrics != []:
        try:
            validate_metrics(metrics)
        except FormatError as exc:
            errors["metrics"] = [str(exc)]
    return errors


def check_tournament(tournament) -> None:
    """Raise ValidationError (a message per field) unless the tournament can be played."""
    errors = check_variant_settings(
        tournament.variant, tournament.preset, tournament.options, tournament.players
    )
    for field, messages in check_format_settings(
        tournament.format, tournament.format_options, tournament.metrics
    ).items():
        errors.setdefault(field, []).extend(messages)
    games, pairs = tournament.games_per_match, tournament.pairs_per_match
    if not games and not pairs:
        errors["games_per_match"] = ["a match needs at least one game or one duplicate pair"]
    elif games + 2 * pairs > MAX_GAMES_PER_MATCH:
        errors["games_per_match"] = [
            f"a match has at most {MAX_GAMES_PER_MATCH:,} games (a duplicate pair is two), "
            f"not {games + 2 * pairs:,}"
        ]
    if not 0 <= tournament.seed <= MAX_SEED:
        errors["seed"] = [f"the seed must be an integer from 0 to {MAX_SEED}"]
    if errors:
        raise ValidationError(errors)


def check_entry_budgets(tournament) -> None:
    """No entered bot asks more time per decision than the tournament's table allows."""
    bots = [e.bot for e in tournament.entrants.select_related("bot") if e.bot is not None]
    errors = entry_errors(bots, tournament.turn_seconds)
    if errors:
        raise ValidationError(errors)


def check_entrant_count(tournament, count: int) -> None:
    if count < 2:
        raise ValidationError(f"a tournament needs at least 2 entrants, it has {count}")
    try:  # each format checks what it can play with this many (Swiss: enough rounds)
        registry().format(tournament.format).total_rounds(count, tournament.format_options)
    except (FormatError, PluginError) as exc:
        raise ValidationError(str(exc)) from None
