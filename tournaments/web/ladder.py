"""The ladder's pages: every board with its top, one board in full with its head-to-head, and a
version's line on a board with its rating over time (drawn by website/rating_chart.js from
/api/ladder-entries/{id}/history/)."""

from __future__ import annotations

from django.db.models import Q
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils import translation

from tournaments import ladder
from tournaments.api.follow_cache import followed
from tournaments.heatmap import head_to_head
from tournaments.models import Ladder, LadderEntry, Match

TOP = 10
HEATMAP_SIZE = 12  # the board's first twelve: a readable picture on a phone too
RECENT = 20


def ladder_index(request):
    boards = [
        (lad, ladder.board(lad, TOP)) for lad in Ladder.objects.order_by("variant", "players")
    ]
    return render(request, "tournaments/ladder_index.html", {"boards": boards})


def ladder_board(request, pk: int):
    """One board in full. `?part=live`: its live part alone (the board, the matches in flight
    and the latest), which the page asks for every few seconds (tournaments/ladder.js), built
    once for all who follow the board at most every TRUCO_FOLLOW_CACHE_SECONDS."""
    board_ladder = get_object_or_404(Ladder.objects.select_related("tournament"), pk=pk)
    if request.GET.get("part") == "live":
        html = followed(
            "ladder-live",
            board_ladder.tournament,
            (board_ladder.pk, translation.get_language()),
            lambda: render_to_string(
                "tournaments/_ladder_live.html", live_part(board_ladder), request=request
            ),
        )
        return HttpResponse(html)
    entries = ladder.board(board_ladder)
    top = entries[:HEATMAP_SIZE]
    return render(
        request,
        "tournaments/ladder_board.html",
        {
            "ladder": board_ladder,
            "heatmap": head_to_head(
                board_ladder.tournament,
                [e.entrant_id for e in top],
                {e.entrant_id: e.bot.label for e in top},
            ),
            **live_part(board_ladder, entries),
        },
    )


def live_part(board_ladder: Ladder, entries=None) -> dict:
    """What the board's live part shows: its versions in order, the matches in flight, the
    latest played."""
    matches = Match.objects.filter(tournament=board_ladder.tournament).select_related(
        "entrant_a", "entrant_b", "winner"
    )
    return {
        "entries": ladder.board(board_ladder) if entries is None else entries,
        "live": matches.filter(status__in=Match.UNFINISHED).order_by("-id")[:RECENT],
        "recent": matches.filter(status=Match.Status.DONE).order_by("-finished_at")[:RECENT],
    }


def ladder_entry(request, pk: int):
    entry = get_object_or_404(LadderEntry.objects.select_related("ladder", "bot__owner"), pk=pk)
    rank = next(
        (k for k, e in enumerate(ladder.board(entry.ladder), start=1) if e.pk == entry.pk), None
    )
    matches = (
        Match.objects.filter(Q(entrant_a_id=entry.entrant_id) | Q(entrant_b_id=entry.entrant_id))
        .select_related("entrant_a", "entrant_b", "winner")
        .order_by("-id")[:RECENT]
    )
    return render(
        request,
        "tournaments/ladder_entry.html",
        {"entry": entry, "rank": rank, "matches": matches},
    )
