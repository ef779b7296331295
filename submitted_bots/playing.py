"""The one place that decides how a saved bot version plays: `spec_for(bot, turn_seconds)` turns
a submitted_bots.Bot into the engine's BotSpec. A remote bot is called at its URL (no code of it
runs here); an uploaded bundle always runs in the jail, from the worker's local copy of its zip
(bundles/files.py); a plugin runs in-process only when trusted (trust.py), with its time-like
parameters clamped to the table's budget (budgets.py). Workers, tables, the smoke match and the
commands all call this."""

from __future__ import annotations

from engine.runner import REMOTE, BotSpec
from submitted_bots.budgets import clamped, decision_budget
from submitted_bots.bundles.files import spec_for_bundle
from submitted_bots.models import Bot
from submitted_bots.trust import bot_spec


def spec_for(bot: Bot, turn_seconds: int | None = None) -> BotSpec:
    """How `bot` plays at a table (or in a match) with this `turn_seconds` (None: the server's
    cap). A bundle and a remote bot have no plugin parameters: the table's deadline bounds
    them."""
    if bot.url:
        return BotSpec(bot.label, isolation=REMOTE, url=bot.url)
    if bot.is_bundle:
        return spec_for_bundle(bot)
    budget = decision_budget(turn_seconds)
    return bot_spec(bot.plugin, clamped(bot.plugin, bot.params or {}, budget))
