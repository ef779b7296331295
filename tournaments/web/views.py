"""Server-rendered pages; the live parts (progress, standings, the replay, the play table) are
small scripts that read the REST API."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.paginator import Page, Paginator
from django.db.models import F, Q
from django.shortcuts import get_object_or_404, render
from django.utils import timezone

from engine.plugins import registry
from tournaments import registration
from tournaments.api.bracket import BracketSlots, tiebreak
from tournaments.api.standings import progress, standings_payload, standings_table, total_matches
from tournaments.api.views import seat_names
from tournaments.dispatch import BOT_ONLY
from tournaments.game_privacy import private_view
from tournaments.heatmap import head_to_head
from tournaments.models import Game, Match, Tournament
from tournaments.scheduling import format_of
from tournaments.seed_disclosure import match_seed_revealed, seed_fields
from tournaments.web.entries import entry_context
from tournaments.web.pagers import page_of, pagers, round_links, slice_of

PAGE_SIZE = 25
HEATMAP_SIZE = 16
# A tournament's page shows so many standings rows, entrants and matches (of the round shown, or
# of the bracket) at a time, with a pager for each: a 1,024-entrant Swiss's page was 380 KB of
# HTML and took 150-425 ms to build whole (manage.py bench_big).
STANDINGS_PAGE = 50
ENTRANTS_PAGE = 50
MATCHES_PAGE = 64
# A bracket is drawn whole up to 64 entrants (a double elimination's 126-127 matches): the lines
# between its boxes are drawn within a page only.
BRACKET_PAGE = 128


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
    entries = entry_context(request, tournament, ENTRANTS_PAGE)
    shown = paged_standings_and_bracket(
        request, tournament, {"entrants_page": entries["entrants_page"]}
    )
    standings = shown["standings"]
    return render(
        request,
        "tournaments/tournament_detail.html",
        {
            "tournament": tournament,
            "variant": registry().variants.get(tournament.variant),
            **shown,
            "heatmap": league_heatmap(tournament),
            "live": tournament.status == Tournament.Status.RUNNING,
            "playing_now": playing_now(tournament),
            "workers": standings.get("workers"),
            **entries,
            "entrants_pager": shown["pagers"]["entrants_page"],
        },
    )


def paged_standings_and_bracket(
    request, tournament: Tournament, other_pages: dict[str, Page] | None = None
) -> dict:
    """A page of the standings and of the matches (a league's: of the round shown), each with
    its pager (`?standings_page=`, `?matches_page=`, `?round=`), for the tournament's page and
    the admin's; `other_pages`, the page's other pagers, which every link keeps."""
    standings = standings_payload(tournament)
    standings_page = page_of(
        Paginator(standings["rows"], STANDINGS_PAGE), request.GET.get("standings_page")
    )
    shown_round = round_to_show(request, tournament)
    slots = BracketSlots(tournament, shown_round)
    per_page = BRACKET_PAGE if slots.kind == "bracket" else MATCHES_PAGE
    matches_page = page_of(Paginator(slots, per_page), request.GET.get("matches_page"))
    bracket = slots.payload(list(matches_page.object_list))
    pages = {
        "standings_page": standings_page,
        **(other_pages or {}),
        "matches_page": matches_page,
    }
    links = pagers(request, pages)
    return {
        "standings": standings,
        **standings_table(standings, standings_page.object_list),
        "standings_pager": links["standings_page"],
        "bracket": bracket,
        "matches_pager": links["matches_page"],
        "round_links": round_links(request, bracket["rounds"], pages),
        "shown_round": shown_round,
        # what the page's script redraws: the slices it shows (tournament.js)
        "slices": {"standings": slice_of(standings_page), "matches": slice_of(matches_page)},
        "pagers": links,
    }


def playing_now(tournament: Tournament, limit: int = 20) -> list[Match]:
    """The tournament's matches a worker is playing now, to watch live (people's matches are
    watched at their tables)."""
    if tournament.status != Tournament.Status.RUNNING:
        return []
    return list(
        Match.objects.filter(BOT_ONLY, tournament=tournament, status=Match.Status.RUNNING)
        .select_related("entrant_a", "entrant_b")
        .order_by("id")[:limit]
    )


def league_heatmap(tournament: Tournament) -> dict | None:
    """A league's head-to-head (a bracket shows its own): its first HEATMAP_SIZE entrants by
    seed, once a match was played."""
    if format_of(tournament).has_bracket or tournament.status == Tournament.Status.DRAFT:
        return None
    entrants = list(
        tournament.entrants.order_by("seed", "id").values_list("id", "name")[:HEATMAP_SIZE]
    )
    if len(entrants) < 2:
        return None
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
        Match.objects.select_related(
            "tournament", "round", "entrant_a__bot", "entrant_b__bot", "winner"
        ),
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
    watchable = not has_humans and match.entrant_b is not None and match.status in Match.UNFINISHED
    return render(
        request,
        "tournaments/match_detail.html",
        {
            "match": match,
            "games": games,
            "has_humans": has_humans,
            "watchable": watchable,
            "may_read_logs": may_read_logs(request.user, match),
            "tiebreak": tiebreak(match),
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
        Game.objects.select_related(
            "match__tournament", "match__entrant_a__bot", "match__entrant_b__bot"
        ).defer("record"),
        pk=pk,
    )
    return render(
        request,
        "tournaments/replay.html",
        {
            "game": game,
            "match": game.match,
            "may_read_logs": may_read_logs(request.user, game.match),
        },
    )


def open_tournaments(request):
    """The competitions a signed-in user may enter now (drafts open for registration, before
    their deadline, with room left), soonest deadline first."""
    now = timezone.now()
    drafts = (
        Tournament.objects.with_progress()
        .filter(
            kind=Tournament.Kind.COMPETITION,
            status=Tournament.Status.DRAFT,
            registration_open=True,
        )
        .filter(Q(registration_deadline__isnull=True) | Q(registration_deadline__gt=now))
        .order_by(F("registration_deadline").asc(nulls_last=True), "-created_at")
    )
    rows = [
        {"tournament": t, "registration": registration.registration_summary(t, t.entrant_count)}
        for t in drafts[:200]
    ]
    rows = [r for r in rows if r["registration"]["open"]]
    return render(request, "tournaments/open_tournaments.html", {"rows": rows})


def game_logs(request, pk: int):
    """A game's private part as a page: the logs of the seats of the visitor's own bots (all
    seats for staff), and a forfeit's own message; the API's /api/games/{id}/logs/ as HTML."""
    game = get_object_or_404(
        Game.objects.select_related(
            "match__tournament", "match__entrant_a__bot", "match__entrant_b__bot"
        ),
        pk=pk,
    )
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), login_url="web:login")
    view = private_view(game, request.user)
    if view is None:
        raise PermissionDenied("only the owners of this game's bots, and staff, read its logs")
    names = {s["seat"]: s["name"] for s in seat_names(game)}
    logs = [
        {
            "seat": seat,
            "name": names.get(seat, f"seat {seat}"),
            "text": view["logs"].get(str(seat), ""),
        }
        for seat in view["seats"]
    ]
    return render(
        request,
        "tournaments/game_logs.html",
        {"game": game, "match": game.match, "view": view, "logs": logs},
    )


def may_read_logs(user, match: Match) -> bool:
    """Whether the match's games link to their logs for `user`: staff, or the owner of a bot
    that played it (the logs page shows them their own bot's seats only)."""
    if not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    return any(
        e is not None and e.bot_id is not None and e.bot.owner_id == user.pk
        for e in (match.entrant_a, match.entrant_b)
    )
