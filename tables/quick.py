"""A player's own table, opened from the play page: a two-entrant tournament (the player's team,
and a bot or a team of free seats for other people) played and recorded like any match. The
player is its table master (RULES.md section 5). By default it is practice: it touches nobody's
rating, chips or ranking; the master may make it competitive, staked or private.

A daily table deals today's deals (the same for every daily table of these rules); any other
table deals fresh ones."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from engine.plugins import registry
from players.models import Player
from players.people import player_for
from submitted_bots.budgets import entry_errors
from submitted_bots.models import Bot
from tables.chips import locked_wallets
from tables.live import has_no_live_row, keep_members
from tables.models import TableSettings
from tables.services import (
    Written,
    advance_soon,
    chips_held,
    deal_first,
    free_chips,
    inline,
    started,
    touch_and_read,
)
from tables.table_master import FREE_SEATS
from tournaments.builders import bots_named
from tournaments.checks import check_tournament
from tournaments.models import Entrant, Match, Tournament
from tournaments.scheduling import schedule_new
from tournaments.seeds import daily_seed, new_tournament_seed


def utc_today() -> date:
    return timezone.now().astimezone(UTC).date()


def table_seed(daily: bool, variant: str, preset: str, options: dict, players: int) -> int:
    if not daily:
        return new_tournament_seed()
    rules = registry().variant(variant).resolve_options(options, preset or None)
    return daily_seed(utc_today(), variant, rules, players)


def invited_players(names: Iterable[str]) -> list[Player]:
    names = set(names)
    found = list(Player.objects.filter(name__in=names, kind=Player.Kind.HUMAN))
    unknown = sorted(names - {p.name for p in found})
    if unknown:
        raise ValidationError({"invite": f"no human player named {', '.join(map(repr, unknown))}"})
    return found


def check_tables_in_play(player: Player) -> None:
    """A player opens at most TRUCO_MAX_TABLES_PER_PLAYER tables at once: each one running holds
    a robot's worth of a worker at every advance, and one user opening dozens against slow
    robots took the play workers from everyone."""
    cap = int(getattr(settings, "TRUCO_MAX_TABLES_PER_PLAYER", 10))
    # A table against a robot counts from its creation (it is dealt at once); a table for
    # people once it is dealt: one nobody sat at yet runs no robot, and cannot be ended by a
    # vote (no game is in play), so it must not hold a place.
    in_play = (
        Tournament.objects.filter(
            table_settings__master=player,
            status__in=(
                Tournament.Status.DRAFT,
                Tournament.Status.RUNNING,
                Tournament.Status.PAUSED,
            ),
        )
        .filter(Q(entrants__bot__isnull=False) | Q(matches__status=Match.Status.RUNNING))
        .distinct()
        .count()
    )
    if in_play >= cap:
        raise ValidationError(
            {
                "detail": f"you have {in_play} tables in play, the most one player may open: "
                "finish one, or end it (end-vote), first"
            }
        )


def quick_match(user, **options: Any) -> Match:
    """Create, start and return the table's match (`open_table`'s options, without its deal);
    ValidationError says what is wrong."""
    return open_table(user, **options).match


def open_table(
    user,
    *,
    variant: str,
    bot: Bot | str | None,
    players: int = 2,
    preset: str = "",
    options: dict | None = None,
    games: int = 1,
    turn_seconds: int = 60,
    competitive: bool = False,
    stake: int = 0,
    private: bool = False,
    spectators: bool = True,
    daily: bool = False,
    invite: Iterable[str] = (),
    deal: bool = False,
    ip: str | None = None,
) -> Written:
    """Create and start the table, its match as written (with what its state shows, read from
    nothing: `tables.live.load_match`'s); ValidationError says what is wrong. Without a `bot`
    the other side is free seats for people (robots play those nobody takes). With `deal` (a
    table against a robot), its master deals the first game in the same transaction, from
    `ip` (`services.open_match`, a PlayError if refused: then nothing is saved)."""
    player = player_for(user)
    if isinstance(bot, str):
        bot = bots_named([bot])[0]
    if daily and competitive:
        raise ValidationError(
            {"daily": "a daily table is practice: everyone gets its deals today, so they are known"}
        )
    if competitive:
        free = free_chips(player)
        if stake > free:
            raise ValidationError(
                {"stake": f"{chips_held(player, free)}: you cannot stake {stake} a game"}
            )
    if isinstance(bot, Bot):
        errors = entry_errors([bot], turn_seconds)
        if errors:
            raise ValidationError({"bot": errors})
    guests = invited_players(invite)
    kind = "Daily" if daily else "Table" if competitive else "Practice"
    tournament = Tournament(
        name=f"{kind}: {player.name} v {bot.label if bot else 'people'}",
        variant=variant,
        preset=preset,
        options=dict(options or {}),
        players=players,
        format="single-elimination",
        games_per_match=games,
        seeding=Tournament.Seeding.ORDER,
        kind=Tournament.Kind.TABLE,
        competitive=competitive,
        turn_seconds=turn_seconds,
        created_by=user,
    )
    tournament.full_clean(exclude=["created_by"])  # the user signed in: no query to check
    tournament.seed = table_seed(daily, variant, preset, tournament.options, players)
    check_tournament(tournament)  # what starting a tournament checks (its bot's budget: above)
    presence = None
    with transaction.atomic():
        # Under the player's wallet lock: two tables opened at once are counted one after the
        # other.
        locked_wallets([player.pk])
        check_tables_in_play(player)
        # Saved running, its one match created with it (tournaments.scheduling.schedule_new):
        # a table is never a draft anyone could see or enter.
        tournament.status = Tournament.Status.RUNNING
        tournament.started_at = timezone.now()
        tournament.save()
        table = TableSettings.objects.create(
            tournament=tournament,
            stake=stake,
            private=private,
            spectators=spectators,
            daily=daily,
            master=player,  # the first seated: whoever opens the table
        )
        if guests:
            table.invited.add(*guests)
        table.invited_names = [p.name for p in guests]  # as `load_match` reads them
        human, other = Entrant.objects.bulk_create(
            [
                Entrant(tournament=tournament, name=player.name, seed=1),
                Entrant(
                    tournament=tournament,
                    name=bot.label if bot is not None else FREE_SEATS,
                    bot=bot,
                    seed=2,
                ),
            ]
        )
        human.members.add(player)
        # Dealt at once: its match inserted running (what dealing it would update just after).
        (match,) = schedule_new(tournament, [human.pk, other.pk], started() if deal else None)
        as_read(match, tournament, human, other, player)
        if deal:
            deal_first(match, player, table, saved_running=True)
            presence = touch_and_read(match.pk, player.pk, ip)
    if deal:
        advance_soon(match.pk)
    return Written(match, player, presence, played_on=deal and inline())


def as_read(match: Match, tournament: Tournament, human: Entrant, other: Entrant, player) -> None:
    """The new table's match with what `tables.live.load_match` reads with it (its tournament
    and settings, its entrants, their bots and members, no live row yet), from the objects just
    saved: the state it is answered with reads none of them back."""
    match.tournament = tournament  # its settings were cached by their creation
    match.entrant_a, match.entrant_b = human, other
    keep_members(human, [player])  # its master alone (`members.add` forgot them)
    keep_members(other, [])
    has_no_live_row(match)
