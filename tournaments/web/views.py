"""Server-rendered pages; the live parts (progress, standings, the replay, the play table) are
small scripts that read the REST API."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, render

from engine.plugins import registry
from tournaments.api.bracket import bracket_payload
from tournaments.api.standings import progress, standings_payload, standings_table, total_matches
from tournaments.heatmap import head_to_head
from tournaments.models import Game, Match, Tournament
from tournaments.scheduling import format_of
from tournaments.seed_disclosure import match_seed_revealed, seed_fields
from tournaments.web.entries import entry_context

PAGE_SIZE = 25
HEATMAP_SIZE = 16


def tournament_list(request):
    status = request.GET.get("status", "")
    # Players' own tables (practice and others) are listed on the play page, not here.
    queryset = (
        Tournament.objects.with_progress()
        .exclude(table_settings__master__isnull=False)
        .exclude(kind=Tournament.Kind.LADDER)  # the ladder has pages of its own
        .order_by("-created_at", "-id")
    )
    if status in Tournament.Status.values:
        queryset = queryset.filter(status=status)
    page = Paginator(queryset, PAGE_SIZE).get_page(request.GET.get("page"))
    rows = [
        {
            "tournament": t,
            "progress": progress(t.matches_done, total_matches(t, t.entrant_count)),
        }
        for t in page
    ]
    return render(
        request,
        "tournaments/tournament_list.html",
        {"page": page, "rows": rows, "status": status, "statuses": Tournament.Status.choices},
    )


def tournament_detail(request, pk: int):
    tournament = get_object_or_404(Tournament.objects.select_related("table_settings"), pk=pk)
    standings = standings_payload(tournament)
    shown_round = round_to_show(request, tournament)
    bracket = bracket_payload(tournament, shown_round)
    return render(
        request,
        "tournaments/tournament_detail.html",
        {
            "tournament": tournament,
            "variant": registry().variants.get(tournament.variant),
            "standings": standings,
            **standings_table(standings),
            "bracket": bracket,
            "heatmap": league_heatmap(tournament),
            "shown_round": shown_round,
            "live": tournament.status == Tournament.Status.RUNNING,
            "workers": standings.get("workers"),
            **entry_context(request, tournament),
        },
    )


def league_heatmap(tournament: Tournament) -> dict | None:
    """A league's head-to-head (a bracket shows its own): its first HEATMAP_SIZE entrants by
    seed, once a match was played."""
    if format_of(tournament).has_bracket or tournament.status == Tournament.Status.DRAFT:
        return None
    entrants = list(tournament.entrants.order_by("seed", "id").values_list("id", "name"))
    if len(entrants) < 2:
        return None
    entrants = entrants[:HEATMAP_SIZE]
    return head_to_head(tournament, [e for e, _ in entrants], dict(entrants))


def round_to_show(request, tournament: Tournament) -> int | None:
    """Leagues show one round at a time (the latest unless asked), brackets everything."""
    if format_of(tournament).has_bracket:
        return None
    asked = request.GET.get("round", "")
    if asked.isdigit() and len(asked) < 7:
        return int(asked)
    return tournament.rounds.order_by("-number").values_list("number", flat=True).first()


def match_detail(request, pk: int):
    match = get_object_or_404(
        Match.objects.select_related("tournament", "round", "entrant_a", "entrant_b", "winner"),
        pk=pk,
    )
    games = list(Game.objects.filter(match=match).defer("record").order_by("index"))
    players = match.tournament.players
    for game in games:  # who sat where: the sides swap seats from game to game
        game.seats_a = seat_list(game.a_team, players)
        game.seats_b = seat_list(1 - game.a_team, players)
    has_humans = match.entrant_b is not None and (
        match.entrant_a.bot_id is None or match.entrant_b.bot_id is None
    )
    return render(
        request,
        "tournaments/match_detail.html",
        {
            "match": match,
            "games": games,
            "has_humans": has_humans,
            # The seed once the match is over, its commitment always (docs/security.md).
            "deal": seed_fields(match.seed, match_seed_revealed(match)),
        },
    )


def seat_list(team: int, players: int) -> str:
    """The seats of a team, in playing order: "seat 0" in 1 v 1, "seats 0 & 2" in 2 v 2."""
    seats = [str(seat) for seat in range(players) if seat % 2 == team]
    return f"seat{'s' if len(seats) > 1 else ''} {' & '.join(seats)}"


def replay(request, pk: int):
    game = get_object_or_404(
        Game.objects.select_related("match__tournament").defer("record"), pk=pk
    )
    return render(request, "tournaments/replay.html", {"game": game, "match": game.match})


# --- accounts and play ---------------------------------------------------------------------
