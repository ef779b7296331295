"""Admin pages beyond the model forms: a tournament's standings and bracket, and the game
records of a tournament or a match as a JSON-lines download (one record per line, each one
replayable with `python -m engine replay`)."""

from __future__ import annotations

import json
from collections.abc import Iterator

from django.http import Http404, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.views.generic import TemplateView

from tournaments.models import Game, Match, Tournament
from tournaments.web.views import paged_standings_and_bracket


class TournamentStandingsView(TemplateView):
    template_name = "admin/tournaments/tournament/standings.html"
    admin = None  # the TournamentAdmin, for the admin's page context

    def get_context_data(self, **kwargs):
        tournament = get_object_or_404(Tournament, pk=self.kwargs["pk"])
        context = super().get_context_data(**kwargs)
        context.update(
            self.admin.admin_site.each_context(self.request),
            opts=Tournament._meta,
            tournament=tournament,
            title=f"{tournament.name}: standings and bracket",
            # paged as the public page is: a 1,024-entrant Swiss has 5,120 matches
            **paged_standings_and_bracket(self.request, tournament),
        )
        return context


def iter_records(games) -> Iterator[str]:
    for record in (
        games.order_by("match_id", "index")
        .values_list("record", flat=True)
        .iterator(chunk_size=200)
    ):
        yield json.dumps(record, separators=(",", ":")) + "\n"


def records_response(games, filename: str) -> StreamingHttpResponse:
    response = StreamingHttpResponse(iter_records(games), content_type="application/x-ndjson")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def tournament_records(request, pk: int):
    if not Tournament.objects.filter(pk=pk).exists():
        raise Http404("no such tournament")
    return records_response(
        Game.objects.filter(match__tournament_id=pk), f"tournament-{pk}-records.jsonl"
    )


def match_records(request, pk: int):
    if not Match.objects.filter(pk=pk).exists():
        raise Http404("no such match")
    return records_response(Game.objects.filter(match_id=pk), f"match-{pk}-records.jsonl")
