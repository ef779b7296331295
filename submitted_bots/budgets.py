"""Time budgets of bots: a tournament or table sets the time per decision (its `turn_seconds`,
capped by the server's TRUCO_MAX_BOT_DECISION_SECONDS), and a bot's own parameters may not ask
for more. Refused with the reason when a bot is saved or entered; clamped when it plays, as a
second line of defence (a budget changed after entry, a row written by hand).

Time-like parameters are found by name, for every plugin alike: `*_ms` are milliseconds,
`*_seconds` seconds. A trusted plugin may also say how fast it counts `iterations` (a class
attribute `iterations_per_second`, a slow machine's figure), so that a count of walks is
bounded as a time too."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings

from engine.plugins import registry
from submitted_bots.trust import is_trusted

UNITS = {"_ms": 0.001, "_seconds": 1.0}


def server_cap() -> float:
    return float(settings.TRUCO_MAX_BOT_DECISION_SECONDS)


def decision_budget(turn_seconds: int | None) -> float:
    """Seconds a bot may think per decision at a table with this `turn_seconds` (0: no limit
    of the table's own, the server's cap still holds)."""
    return min(float(turn_seconds), server_cap()) if turn_seconds else server_cap()


def iterations_rate(plugin: str) -> float | None:
    """Walks per second a trusted plugin declares; untrusted code is not asked (its deadline is
    enforced by the process it runs in)."""
    if not is_trusted(plugin):
        return None
    try:
        factory = registry().bot(plugin)
    except Exception:
        return None
    rate = getattr(factory, "iterations_per_second", None)
    return float(rate) if isinstance(rate, (int, float)) and rate > 0 else None


def unit_of(name: str) -> float | None:
    """Seconds per unit of a time-like parameter, None for any other."""
    return next((unit for suffix, unit in UNITS.items() if name.endswith(suffix)), None)


def asked_seconds(plugin: str, params: Mapping[str, Any]) -> dict[str, float]:
    """Each time-like parameter of `params` and the seconds per decision it asks for."""
    out: dict[str, float] = {}
    for name, value in params.items():
        unit = unit_of(name)
        if unit is not None and isinstance(value, (int, float)) and not isinstance(value, bool):
            out[name] = value * unit
    rate = iterations_rate(plugin)
    iterations = params.get("iterations")
    if rate and isinstance(iterations, int) and not isinstance(iterations, bool):
        out["iterations"] = iterations / rate
    return out


def budget_errors(plugin: str, params: Any, budget: float, where: str) -> list[str]:
    """Why these parameters ask for more than `budget` seconds per decision (none: fine)."""
    if not isinstance(params, Mapping):
        return []
    rate = iterations_rate(plugin)
    errors = []
    for name, seconds in asked_seconds(plugin, params).items():
        if seconds > budget:
            allowed = (
                int(budget * rate) if name == "iterations" and rate else budget / unit_of(name)
            )
            errors.append(
                f"{name}={params[name]!r} asks {seconds:g}s per decision, more than the "
                f"{budget:g}s {where} allows: {allowed:g} at most"
            )
    return errors


def clamped(plugin: str, params: Mapping[str, Any], budget: float) -> dict[str, Any]:
    """`params` with every time-like value cut down to the budget."""
    out = dict(params)
    rate = iterations_rate(plugin)
    for name, seconds in asked_seconds(plugin, params).items():
        if seconds <= budget:
            continue
        if name == "iterations" and rate:
            out[name] = max(1, int(budget * rate))
        else:
            value = budget / unit_of(name)
            out[name] = int(value) if isinstance(params[name], int) else value
    return out


def entry_errors(bots, turn_seconds: int | None) -> list[str]:
    """Why some of `bots` may not be entered at a table with this `turn_seconds`."""
    budget = decision_budget(turn_seconds)
    where = f"a turn of {turn_seconds}s" if turn_seconds else "this server"
    return [
        f"bot {bot.label!r}: {error}"
        for bot in bots
        for error in budget_errors(bot.plugin, bot.params, budget, where)
    ]
