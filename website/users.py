"""A user's page: their bots with every version, each version's ratings (with uncertainty), their
own ratings as a player, and their recent matches (their bots' and their own)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.shortcuts import get_object_or_404, render

from players.models import Player, Rating
from submitted_bots.models import Bot
from tournaments.models import Match

RECENT_MATCHES = 20


def user_page(request, username: str):
    owner = get_object_or_404(get_user_model(), username=username, is_active=True)
    bots = list(
        Bot.objects.filter(owner=owner)
        .select_related("owner", "player")
        .order_by("name", "created_at")
    )
    player = Player.objects.filter(user=owner).first()
    player_ids = [b.player_id for b in bots] + ([player.pk] if player else [])
    ratings: dict[int, list[Rating]] = {}
    for rating in Rating.objects.filter(player_id__in=player_ids).order_by("variant"):
        ratings.setdefault(rating.player_id, []).append(rating)
    families: dict[str, list[dict]] = {}
    for bot in bots:  # a bot's versions together, oldest first
        families.setdefault(bot.name, []).append(
            {"bot": bot, "ratings": ratings.get(bot.player_id, [])}
        )
    mine = Q(entrant_a__bot__owner=owner) | Q(entrant_b__bot__owner=owner)
    if player is not None:
        mine |= Q(entrant_a__members=player) | Q(entrant_b__members=player)
    matches = (
        Match.objects.filter(mine, entrant_b__isnull=False)
        .select_related("tournament", "round", "entrant_a", "entrant_b", "winner")
        .distinct()
        .order_by("-id")[:RECENT_MATCHES]
    )
    return render(
        request,
        "website/user_page.html",
        {
            "owner": owner,
            "families": families,
            "player": player,
            "player_ratings": ratings.get(player.pk, []) if player else [],
            "matches": matches,
            "is_me": request.user == owner,
        },
    )
