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
from django.utils.http import url_has_allowed_host_and_scheme

from engine.errors import OptionError
from engine.plugins import registry
from tournaments.api.bracket import bracket_payload
from tournaments.api.standings import progress, standings_payload, standings_table, total_matches
from tournaments.models import Game, Match, Player, Rating, Tournament
from tournaments.scheduling import format_of
from tournaments.seed_disclosure import match_seed_revealed, seed_fields
from tournaments.web.entries import entry_context

PAGE_SIZE = 25


def tournament_list(request):
    status = request.GET.get("status", "")
    # Players' own tables (practice and others) are listed on the play page, not here.
    queryset = (
        Tournament.objects.with_progress()
        .exclude(table_settings__master__isnull=False)
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
            "shown_round": shown_round,
            "live": tournament.status == Tournament.Status.RUNNING,
            "workers": standings.get("workers"),
            **entry_context(request, tournament),
        },
    )


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


def ratings(request):
    variants = sorted(registry().variants)
    variant = request.GET.get("variant") or default_ratings_variant(variants)
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


def default_ratings_variant(variants: list[str]) -> str:
    """The variant rated most recently (what was just played), else the first one."""
    latest = (
        Rating.objects.filter(variant__in=variants)
        .order_by("-updated_at")
        .values_list("variant", flat=True)
        .first()
    )
    return latest or (variants[0] if variants else "")


# --- accounts and play ---------------------------------------------------------------------


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
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        # Axes checks passwords only; a new account is logged in by the model backend.
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(safe_next(request) or reverse("web:play"))
    return render(request, "registration/signup.html", {"form": form})


@login_required(login_url="web:login")
def play_lobby(request):
    from play.lobby import my_tables, open_tables
    from play.services import player_of

    reg = registry()
    variants = [reg.variants[name].describe() for name in sorted(reg.variants)]
    player = player_of(request.user)
    return render(
        request,
        "tournaments/play_lobby.html",
        {
            "variants": variants,
            "bots": sorted(reg.bots),
            "open_tables": open_tables(player),
            "my_tables": my_tables(player),
        },
    )


def play_table(request, pk: int):
    match = get_object_or_404(Match.objects.select_related("tournament"), pk=pk)
    return render(request, "tournaments/play_table.html", {"match": match, **table_rules(match)})


def table_rules(match: Match) -> dict:
    """The rules panel of a table: the variant's summary, its ladder in its own words, its
    answers and the options in play."""
    from play.table_words import ladder_words, manilhas, words_of

    tournament = match.tournament
    variant = registry().variants.get(tournament.variant)
    if variant is None:
        return {"variant": None, "ladder": [], "words": None, "options": {}}
    try:
        rules = variant.rules(tournament.options, tournament.preset or None)
    except OptionError:  # options a plugin no longer accepts: show the summary alone
        return {"variant": variant, "ladder": [], "words": None, "options": tournament.options}
    words = words_of(tournament.variant, rules)
    fixed = [] if rules.uses_vira or not words.manilha else manilhas(rules.strength_table(None))
    return {
        "variant": variant,
        "fixed_manilhas": fixed,
        "ladder": ladder_words(words, rules.ladder),
        "words": words,
        "envido": variant.side_bets is not None,
        "options": dict(rules.options),
    }
