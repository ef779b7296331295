"""Server-rendered pages; the live parts (progress, standings, the replay, the play table) are
small scripts that read the REST API."""

from __future__ import annotations

from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from engine.plugins import registry

from ..api.bracket import bracket_payload
from ..api.standings import progress, standings_payload, standings_table, total_matches
from ..models import Game, Match, Player, Rating, Tournament
from ..scheduling import ELIMINATION
from .entries import entry_context

PAGE_SIZE = 25


def tournament_list(request):
    status = request.GET.get("status", "")
    queryset = Tournament.objects.with_progress().order_by("-created_at", "-id")
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
            "shown_round": shown_round,
            "live": tournament.status == Tournament.Status.RUNNING,
            **entry_context(request, tournament),
        },
    )


def round_to_show(request, tournament: Tournament) -> int | None:
    """Leagues show one round at a time (the latest unless asked), brackets everything."""
    if tournament.format in ELIMINATION:
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
    games = Game.objects.filter(match=match).defer("record").order_by("index")
    has_humans = match.entrant_b is not None and (
        match.entrant_a.bot_id is None or match.entrant_b.bot_id is None
    )
    return render(
        request,
        "tournaments/match_detail.html",
        {"match": match, "games": games, "has_humans": has_humans},
    )


def replay(request, pk: int):
    game = get_object_or_404(
        Game.objects.select_related("match__tournament").defer("record"), pk=pk
    )
    return render(request, "tournaments/replay.html", {"game": game, "match": game.match})


def ratings(request):
    variants = sorted(registry().variants)
    variant = request.GET.get("variant") or (variants[0] if variants else "")
    if variant not in variants:
        raise Http404("no such variant")
    leaderboard = (
        Rating.objects.filter(variant=variant).select_related("player").order_by("-mu")[:200]
    )
    board = sorted(leaderboard, key=lambda r: -r.ordinal)
    ranking = Player.objects.filter(kind=Player.Kind.HUMAN, ranking_points__gt=0).order_by(
        "-ranking_points", "name"
    )[:100]
    return render(
        request,
        "tournaments/ratings.html",
        {"variants": variants, "variant": variant, "board": board, "ranking": ranking},
    )


# --- accounts and play ---------------------------------------------------------------------


def signup(request):
    if request.user.is_authenticated:
        return redirect("web:play")
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        return redirect(request.GET.get("next") or reverse("web:play"))
    return render(request, "registration/signup.html", {"form": form})


@login_required(login_url="web:login")
def play_lobby(request):
    reg = registry()
    variants = [reg.variants[name].describe() for name in sorted(reg.variants)]
    return render(
        request,
        "tournaments/play_lobby.html",
        {"variants": variants, "bots": sorted(reg.bots)},
    )


def play_table(request, pk: int):
    match = get_object_or_404(Match.objects.select_related("tournament"), pk=pk)
    return render(request, "tournaments/play_table.html", {"match": match})
