"""The tables of the play page: players' own tables (opened from it), apart from the public
tournament list. Open tables are the ones a signed-in player may join now (a free seat, before
a game or between games, not private unless invited) or watch (running, spectators allowed);
a player's own tables are listed with their result, dates and replays."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.db.models import Q, QuerySet
from django.utils import timezone

from players.models import Player
from tables.models import LiveMatch, settings_of
from tables.views_state import free_seats
from tournaments.models import Game, Match

OPEN_LIMIT = 30
MINE_LIMIT = 30


def players_tables() -> QuerySet[Match]:
    return Match.objects.filter(tournament__table_settings__master__isnull=False).select_related(
        "tournament", "tournament__table_settings__master", "entrant_a", "entrant_b", "winner"
    )


@dataclass
class TableRow:
    match: Match
    seated: list[str]
    free_seats: int
    may_sit: bool
    may_watch: bool
    yours: bool = False
    result: str = ""
    points: str = ""
    you_won: bool | None = None
    replays: list[dict] = field(default_factory=list)  # {"game", "number", "score"} yours first


def open_tables(player: Player | None) -> list[TableRow]:
    """Others' tables one may join or watch, the most recent first."""
    matches = (
        players_tables()
        .filter(status__in=[Match.Status.PENDING, Match.Status.RUNNING])
        .prefetch_related("entrant_a__members", "entrant_b__members")
        .order_by("-id")
    )
    if player is not None:
        matches = matches.exclude(Q(entrant_a__members=player) | Q(entrant_b__members=player))
    # A table nobody sat down at for hours is abandoned: it is not offered any more.
    stale = timezone.now() - timedelta(hours=settings.TRUCO_OPEN_TABLE_HOURS)
    matches = matches.exclude(status=Match.Status.PENDING, tournament__created_at__lt=stale)
    between = set(
        LiveMatch.objects.filter(
            match__in=matches[: OPEN_LIMIT * 3], waiting=LiveMatch.Waiting.NEXT
        ).values_list("match_id", flat=True)
    )
    rows = []
    for match in matches[: OPEN_LIMIT * 3]:
        table = settings_of(match.tournament)
        free = free_seats(match)
        invited = player is not None and table.invited.filter(pk=player.pk).exists()
        may_sit = (
            free > 0
            and (not table.private or invited)
            and (match.status == Match.Status.PENDING or match.pk in between)
        )
        may_watch = match.status == Match.Status.RUNNING and table.spectators
        if may_sit or may_watch:
            rows.append(TableRow(match, seated(match), free, may_sit, may_watch))
        if len(rows) >= OPEN_LIMIT:
            break
    return rows


def my_tables(player: Player | None) -> list[TableRow]:
    """The player's own tables, playing and past, the most recent first."""
    if player is None:
        return []
    matches = (
        players_tables()
        .filter(Q(entrant_a__members=player) | Q(entrant_b__members=player))
        .prefetch_related("entrant_a__members", "entrant_b__members")
        .distinct()
        .order_by("-id")[:MINE_LIMIT]
    )
    games: dict[int, list[tuple]] = {}
    for match_id, game_id, index, score_a, score_b in (
        Game.objects.filter(match__in=list(matches))
        .order_by("index")
        .values_list("match_id", "id", "index", "score_a", "score_b")
    ):
        games.setdefault(match_id, []).append((game_id, index, score_a, score_b))
    rows = []
    for match in matches:
        row = TableRow(match, seated(match), 0, False, True, yours=True)
        mine = "a" if player in match.entrant_a.members.all() else "b"

        def yours_first(a, b, mine=mine) -> str:
            return f"{a}-{b}" if mine == "a" else f"{b}-{a}"

        # Each game's points, the player's first: "lost 0-1" alone said nothing of the game.
        row.replays = [
            {"game": game_id, "number": index + 1, "score": yours_first(sa, sb)}
            for game_id, index, sa, sb in games.get(match.pk, [])
        ]
        if match.status == Match.Status.DONE:
            row.result = yours_first(match.wins_a, match.wins_b)
            row.points = yours_first(match.points_a, match.points_b)
            if match.winner_id is not None:
                row.you_won = match.winner_id == (
                    match.entrant_a_id if mine == "a" else match.entrant_b_id
                )
        rows.append(row)
    return rows


def seated(match: Match) -> list[str]:
    names = []
    for entrant in (match.entrant_a, match.entrant_b):
        if entrant is None:
            continue
        if entrant.bot_id is not None:
            names.append(entrant.name)
        else:
            names.extend(p.name for p in entrant.members.all())
    return names
