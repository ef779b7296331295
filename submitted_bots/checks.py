"""Checks of a bot version a user or the operator asks for, with messages that say what would
be valid: a plugin against the registered bots and the server's time budget, a remote bot's URL
against the server's policy. `Bot.clean()`, the admin, the API and the commands all use these
(through `Bot.full_clean()`); an uploaded bundle is checked when uploaded (bundles/) and by its
smoke match (smoke_match.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError

from engine.plugins import registry
from engine.remote_policy import RemoteRefused, check_url
from submitted_bots.budgets import budget_errors, server_cap
from submitted_bots.trust import build_error


def check_bot(plugin: str, params: Any) -> None:
    reg = registry()
    if plugin not in reg.bots:
        known = ", ".join(sorted(reg.bots)) or "none"
        raise ValidationError({"plugin": f"unknown bot {plugin!r}; registered bots: {known}"})
    if not isinstance(params, Mapping):
        raise ValidationError({"params": f"must be an object of name: value, not {params!r}"})
    errors = budget_errors(plugin, params, server_cap(), "this server")
    if errors:
        raise ValidationError({"params": errors})
    error = build_error(plugin, params)
    if error:
        raise ValidationError({"params": error})


def check_remote_bot(url: str, plugin: str = "") -> None:
    """A remote bot's URL against the server's policy (engine/remote_policy.py): the same
    refusals as when its games are played."""
    if plugin:
        raise ValidationError({"plugin": "a bot is a plugin or a remote URL, not both"})
    try:
        check_url(url)
    except RemoteRefused as exc:
        raise ValidationError({"url": str(exc)}) from None
