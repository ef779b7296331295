"""A practice game against a bot, started from the play page: a two-entrant tournament (the
human's team and the bot) of practice tables, so it is played and recorded like any match and
touches nobody's rating."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from tournaments import lifecycle
from tournaments.builders import bots_named
from tournaments.models import Bot, Entrant, Match, TableSettings, Tournament

from .services import player_for


def quick_match(
    user,
    *,
    variant: str,
    bot: Bot | str,
    players: int = 2,
    preset: str = "",
    options: dict | None = None,
    games: int = 1,
    turn_seconds: int = 60,
) -> Match:
    """Create, start and return the practice match; ValidationError says what is wrong."""
    player = player_for(user)
    if isinstance(bot, str):
        bot = bots_named([bot])[0]
    tournament = Tournament(
        name=f"Practice: {player.name} v {bot.label}",
        variant=variant,
        preset=preset,
        options=dict(options or {}),
        players=players,
        format="single-elimination",
        games_per_match=games,
        seeding=Tournament.Seeding.ORDER,
        created_by=user,
    )
    tournament.full_clean()
    with transaction.atomic():
        tournament.save()
        TableSettings.objects.create(
            tournament=tournament, competitive=False, turn_seconds=turn_seconds
        )
        human = Entrant.objects.create(tournament=tournament, name=player.name, seed=1)
        human.members.add(player)
        Entrant.objects.create(tournament=tournament, name=bot.label, bot=bot, seed=2)
    try:
        lifecycle.start(tournament)
    except lifecycle.LifecycleError as exc:
        raise ValidationError(str(exc)) from None
    return Match.objects.get(tournament=tournament)
