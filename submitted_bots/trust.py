"""Where a tournament's bots run. The built-in strategies are the project's own code and run
inside the worker (fastest); any other plugin, installed by an operator but written by someone
else, runs in the jail (engine/jail: its own user and namespaces, no network, limits, a hard
deadline per decision). `TRUCO_TRUSTED_BOT_PLUGINS` lists the plugins trusted to run
in-process. Where no jail can be built, a match of an untrusted bot is refused (the match fails
with the reason) rather than run unjailed."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from django.conf import settings

from engine.plugins import registry
from engine.runner import IN_PROCESS, JAIL, BotSpec


def is_trusted(plugin: str) -> bool:
    return plugin in settings.TRUCO_TRUSTED_BOT_PLUGINS


def bot_spec(plugin: str, params: Mapping[str, Any] | None) -> BotSpec:
    isolation = IN_PROCESS if is_trusted(plugin) else JAIL
    return BotSpec(plugin, dict(params or {}), isolation=isolation)


def build_error(plugin: str, params: Mapping[str, Any]) -> str | None:
    """Build a trusted bot once with these parameters: a misspelt or out-of-range parameter is a
    message now, not a forfeit in every game later. Untrusted code is never run in the web
    process: its parameters are checked when its first game starts, in the jail."""
    if not is_trusted(plugin):
        return None
    reg = registry()
    variant = reg.variants.get("paulista") or next(iter(reg.variants.values()))
    try:
        reg.bot(plugin)(
            variant=variant.name,
            options=variant.resolve_options(),
            seat=0,
            players=variant.players[0],
            rng=random.Random(0),
            **dict(params),
        )
    except Exception as exc:
        return f"bot {plugin!r} rejected its parameters: {exc}"
    return None
