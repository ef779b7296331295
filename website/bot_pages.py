"""The bots' pages as authors look for them: My bots (the bots' own app's page, with the
notices and the tournaments open for entries added here, where they are known) and a bot
version's page (owner, versions, ratings, recent matches, and its log for its owner)."""

from __future__ import annotations

from django.db.models import Q
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from players.models import Rating
from submitted_bots.models import Bot
from submitted_bots.web import my_bots as bots_app
from tournaments.models import Match, Tournament
from website.notices import notices_for

RECENT_MATCHES = 20
retire = bots_app.retire


def author_context(request) -> dict:
    return {
        "notices": notices_for(request.user),
        "open_tournaments_url": reverse("web:open-tournaments"),
        "open_count": Tournament.objects.filter(
            kind=Tournament.Kind.COMPETITION,
            status=Tournament.Status.DRAFT,
            registration_open=True,
        ).count(),
    }


def my_bots(request):
    return bots_app.my_bots(request, extra_context=author_context)


def bot_page(request, pk: int):
    bot = get_object_or_404(Bot.objects.select_related("owner", "player"), pk=pk)
    siblings = Bot.objects.filter(name=bot.name)
    siblings = siblings.filter(owner=bot.owner) if bot.owner_id else siblings.filter(owner=None)
    versions = list(siblings.select_related("owner").order_by("-id"))
    ratings = list(Rating.objects.filter(player=bot.player).order_by("variant"))
    matches = (
        Match.objects.filter(Q(entrant_a__bot=bot) | Q(entrant_b__bot=bot), entrant_b__isnull=False)
        .select_related("tournament", "entrant_a", "entrant_b", "winner")
        .order_by("-id")[:RECENT_MATCHES]
    )
    is_owner = request.user.is_authenticated and (
        request.user.is_staff or (bot.owner_id is not None and bot.owner_id == request.user.pk)
    )
    return render(
        request,
        "website/bot_page.html",
        {
            "bot": bot,
            "versions": versions,
            "ratings": ratings,
            "matches": matches,
            "is_owner": is_owner,
            "manifest_description": (bot.manifest or {}).get("description", ""),
        },
    )
