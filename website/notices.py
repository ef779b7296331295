"""A user's notices, read from what happened (nothing stored twice): a version of theirs was
validated (ready or rejected), one of their bots (or they) entered a tournament, a tournament
they are in started or ended. Newest first; shown on My bots."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from submitted_bots.models import Bot
from tournaments.models import Entrant, Tournament

RECENT = timedelta(days=30)
MOST = 12


@dataclass(frozen=True)
class Notice:
    at: datetime
    kind: str  # validated, rejected, entered, started, ended
    text: str
    url: str = ""


def notices_for(user, now: datetime | None = None) -> list[Notice]:
    if not user.is_authenticated:
        return []
    since = (now or timezone.now()) - RECENT
    found: list[Notice] = []
    versions = Bot.objects.filter(owner=user, validated_at__gte=since).select_related("owner")
    for bot in versions.order_by("-validated_at")[:MOST]:
        if bot.status == Bot.Status.REJECTED:
            text = f"{bot.label} was rejected: {bot.status_reason}"
            kind = "rejected"
        else:
            text = f"{bot.label} passed its smoke match: it is ready to enter tournaments"
            kind = "validated"
        found.append(Notice(bot.validated_at, kind, text, reverse("web:bot", args=[bot.pk])))
    mine = Q(bot__owner=user) | Q(members__user=user) | Q(entered_by=user)
    entries = (
        Entrant.objects.filter(mine, tournament__kind=Tournament.Kind.COMPETITION)
        .select_related("tournament")
        .distinct()
    )
    tournaments: dict[int, Tournament] = {}
    for entry in entries.filter(registered_at__gte=since).order_by("-registered_at")[:MOST]:
        url = reverse("web:tournament", args=[entry.tournament_id])
        found.append(
            Notice(
                entry.registered_at,
                "entered",
                f"{entry.name} is entered in {entry.tournament.name}",
                url,
            )
        )
    for entry in entries.order_by("-tournament__created_at")[: MOST * 4]:
        tournaments[entry.tournament_id] = entry.tournament
    for t in tournaments.values():
        url = reverse("web:tournament", args=[t.pk])
        if t.started_at and t.started_at >= since:
            found.append(Notice(t.started_at, "started", f"{t.name} has started", url))
        if t.finished_at and t.finished_at >= since and t.status == Tournament.Status.DONE:
            found.append(
                Notice(t.finished_at, "ended", f"{t.name} is over: see the standings", url)
            )
    found.sort(key=lambda n: n.at, reverse=True)
    return found[:MOST]
