"""The site's own pages, across the apps: the ratings (bots' and people's, and the people's ranking
points) and the accounts (signing up)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme

from engine.plugins import registry
from players.models import Player, Rating
from tables.models import Wallet
from website.forms import SignupForm


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
