"""The site's own pages, across the apps: the ratings (bots' and people's, and the people's ranking
points) and the accounts (signing up)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme

from engine.plugins import registry
from players.models import Player, Rating
from tables.lobby import open_tables
from tables.models import Wallet
from tournaments import ladder
from tournaments.api.standings import progress, total_matches
from tournaments.models import Ladder, Match, Tournament
from website.forms import SignupForm

FRONT_LIVE = 6  # of each kind of thing being played
FRONT_TOP = 3  # versions of each ladder


def front_page(request):
    """What this is: what is being played now (tournaments, people's tables, ladder matches),
    the top of each ladder, how to submit a bot and how to sit at a table."""
    running = (
        Tournament.objects.with_progress()
        .filter(kind=Tournament.Kind.COMPETITION, status=Tournament.Status.RUNNING)
        .order_by("-started_at", "-id")[:FRONT_LIVE]
    )
    tournaments = [
        {"tournament": t, "progress": progress(t.matches_done, total_matches(t, t.entrant_count))}
        for t in running
    ]
    ladder_matches = (
        Match.objects.filter(tournament__kind=Tournament.Kind.LADDER, status=Match.Status.RUNNING)
        .select_related("tournament__ladder", "entrant_a", "entrant_b")
        .order_by("-started_at")[:FRONT_LIVE]
    )
    boards = [
        (board_ladder, ladder.board(board_ladder, FRONT_TOP))
        for board_ladder in Ladder.objects.order_by("variant", "players")
    ]
    player = getattr(request.user, "player", None) if request.user.is_authenticated else None
    return render(
        request,
        "website/front.html",
        {
            "tournaments": tournaments,
            "tables": open_tables(player)[:FRONT_LIVE],
            "ladder_matches": ladder_matches,
            "boards": [(lad, top) for lad, top in boards if top],
            "variants": sorted(registry().variants.values(), key=lambda v: v.title),
        },
    )


def ratings(request):
    variants = sorted(registry().variants)
    variant = request.GET.get("variant") or default_ratings_variant(variants)
    if variant not in variants:
        raise Http404("no such variant")
    leaderboard = (
        Rating.objects.filter(variant=variant).select_related("player").order_by("-mu")[:200]
    )
    board = sorted(leaderboard, key=lambda r: -r.ordinal)
    ranking = (
        Wallet.objects.filter(player__kind=Player.Kind.HUMAN, ranking_points__gt=0)
        .select_related("player")
        .order_by("-ranking_points", "player__name")[:100]
    )
    return render(
        request,
        "website/ratings.html",
        {"variants": variants, "variant": variant, "board": board, "ranking": ranking},
    )


def rating_detail(request, pk: int):
    """A player's rating in one variant over time (website/rating_chart.js draws it from
    /api/ratings/{id}/history/)."""
    rating = get_object_or_404(Rating.objects.select_related("player"), pk=pk)
    return render(request, "website/rating.html", {"rating": rating})


def default_ratings_variant(variants: list[str]) -> str:
    """The variant rated most recently (what was just played), else the first one."""
    latest = (
        Rating.objects.filter(variant__in=variants)
        .order_by("-updated_at")
        .values_list("variant", flat=True)
        .first()
    )
    return latest or (variants[0] if variants else "")


def safe_next(request) -> str | None:
    """The `next` page to go to, when it is one of this site's (never another site's: a link
    to the signup page must not send the new account to a look-alike)."""
    target = request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return None


def signup(request):
    if request.user.is_authenticated:
        return redirect("web:play")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        # Axes checks passwords only; a new account is logged in by the model backend.
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        # The base page adds the next steps (the guide, My bots, Play) to this message.
        messages.success(
            request, f"Welcome, {user.get_username()}: your account is made.", extra_tags="welcome"
        )
        return redirect(safe_next(request) or reverse("web:play"))
    return render(
        request, "registration/signup.html", {"form": form, "next": safe_next(request) or ""}
    )
