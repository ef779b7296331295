"""Creating bots and tournaments from plain values (commands, demo, benchmarks, tests), with
the same validation as the admin and the API."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from engine.plugins import registry
from submitted_bots.bundles.operator import is_bundle_path, operator_bundle
from submitted_bots.models import Bot
from submitted_bots.names import is_qualified, names_a_user, resolve_operator, resolve_qualified
from tournaments.models import Entrant, Tournament

BOT_ITEM = re.compile(r"(?P<name>[^*]+?)(?:\*(?P<count>\d+))?")


def parse_bot_items(items: Sequence[str]) -> list[str]:
    """`random greedy*3` -> ["random", "greedy", "greedy", "greedy"]."""
    names = []
    for item in items:
        found = BOT_ITEM.fullmatch(item.strip())
        if not found or (found["count"] is not None and int(found["count"]) < 1):
            raise ValidationError(f"{item!r} is not a bot: write NAME or NAME*COUNT, e.g. random*8")
        names += [found["name"]] * int(found["count"] or 1)
    return names


def bots_named(names: Sequence[str]) -> list[Bot]:
    """A Bot row per item (submitted_bots/names.py says how names are read):

    - a registered plugin name, or the name of a bot the operator saved (no owner): that bot; a
      plugin named k times becomes k distinct bots ("random", "random #2", ...), each with its
      own rating, kept from one run to the next;
    - `owner/name` or `owner/name vN`: that user's bot (its newest ready version);
    - a bundle folder or .zip on disk (run_tournament): the operator's bundle, stored like an
      upload and run in the jail.
    Never another user's bot for a bare name."""
    plugins = registry().bots
    seen: Counter[str] = Counter()
    bots = []
    for name in names:
        seen[name] += 1
        if is_bundle_path(name):
            if seen[name] > 1:
                raise ValidationError(f"the bundle {name!r} is named twice: enter it once")
            if names_a_user(name):
                raise ValidationError(
                    f"{name!r} is both a folder here and a user's bot: write ./{name} for the "
                    "folder"
                )
            bots.append(operator_bundle(name))
            continue
        if is_qualified(name):
            bot = resolve_qualified(name)
            if seen[name] > 1:
                raise ValidationError(f"{name!r} is named twice: a user's bot is entered once")
            bots.append(bot)
            continue
        label = name if seen[name] == 1 else f"{name} #{seen[name]}"
        existing = resolve_operator(label)
        if existing is not None:
            bots.append(existing)
            continue
        base = resolve_operator(name)
        plugin, params = (base.plugin, base.params) if base else (name, {})
        if plugin not in plugins:
            known = ", ".join(sorted(plugins)) or "none"
            raise ValidationError(
                f"unknown bot {name!r}; registered bots: {known} (a user's bot is owner/name, "
                "a bundle a folder or .zip path)"
            )
        bots.append(operator_bot(label, plugin, params))
    return bots


def operator_bot(label: str, plugin: str, params: Mapping[str, Any]) -> Bot:
    """The operator's bot `label`, made on its first use. Two requests using it first at once
    (two quick tables against "random" on a new site) both made it, and the second answered
    "this conflicts with existing data": it takes the one the first made."""
    try:
        with transaction.atomic():
            return Bot.objects.create(name=label, plugin=plugin, params=params)
    except IntegrityError:
        made = resolve_operator(label)
        if made is None:
            raise
        return made


def check_enterable(bots: Sequence[Bot]) -> None:
    """Only ready, active versions are entered in tournaments."""
    for bot in bots:
        if not bot.is_enterable:
            why = f": {bot.status_reason}" if bot.status_reason else ""
            state = bot.status if bot.is_active else "retired"
            raise ValidationError(
                f"{bot.label} is {state}{why}; only ready bots can be entered in a tournament"
            )


def create_tournament(
    *,
    name: str,
    variant: str,
    format: str,
    bots: Sequence[Bot],
    players: int = 2,
    preset: str = "",
    options: Mapping[str, Any] | None = None,
    format_options: Mapping[str, Any] | None = None,
    metrics: Sequence[str] | None = None,
    games_per_match: int = 10,
    pairs_per_match: int = 0,
    seeding: str = Tournament.Seeding.RATING,
    seed: int | None = None,
    competitive: bool = True,
    turn_seconds: int = 30,
    bank_seconds: int | None = None,
    increment_seconds: float = 0,
    created_by=None,
) -> Tournament:
    """A draft tournament with one entrant per bot; ValidationError says what is wrong."""
    tournament = Tournament(
        name=name,
        variant=variant,
        preset=preset,
        options=dict(options or {}),
        players=players,
        format=format,
        format_options=dict(format_options or {}),
        metrics=list(metrics or []),
        games_per_match=games_per_match,
        pairs_per_match=pairs_per_match,
        seeding=seeding,
        competitive=competitive,
        turn_seconds=turn_seconds,
        bank_seconds=bank_seconds,
        increment_seconds=increment_seconds,
        created_by=created_by,
    )
    if seed is not None:
        tournament.seed = seed
    tournament.full_clean()
    check_enterable(bots)
    with transaction.atomic():
        tournament.save()
        Entrant.objects.bulk_create(
            [Entrant(tournament=tournament, name=bot.label, bot=bot) for bot in bots]
        )
    return tournament
