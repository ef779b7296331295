"""The ladder's scheduler, run every TRUCO_LADDER_SECONDS by Celery beat (the
`tournaments.ladder` task) or by the embedded stack's supervisor (website/periodic.py): it puts
ready versions on their boards, then starts each unpaused ladder's next matches, as many as its
budget of games per hour and its cap of matches in flight allow, paired by
tournaments/ladder_policy.py. Tournaments go first: while any tournament's bot match waits for a
worker, no ladder match is queued.

A ladder match is a match of the ladder's tournament (kind `ladder`): duplicate pairs
(TRUCO_LADDER_PAIRS), played, recorded and swept like any other, and rated on its board as well
as in the variant's ratings.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q, Sum
from django.utils import timezone

from tournaments import dispatch
from tournaments.ladder import sync_boards, tournament_matches_waiting
from tournaments.ladder_policy import History, Policy, Version, matches_allowed, next_pairs
from tournaments.models import Ladder, LadderEntry, Match, Round, Tournament
from tournaments.seeds import match_seed

log = logging.getLogger(__name__)


def tick() -> int:
    """One round of the scheduler; how many ladder matches it started."""
    sync_boards()
    if tournament_matches_waiting():
        return 0
    started = 0
    for ladder_id, tournament_id in Ladder.objects.filter(paused=False).values_list(
        "id", "tournament_id"
    ):
        started += len(schedule(ladder_id))
        # Its new matches, and those a worker put back while tournaments went first.
        dispatch.publish_pending(tournament_id)
    return started


def games_per_match(tournament: Tournament) -> int:
    return tournament.games_per_match + 2 * tournament.pairs_per_match


def schedule(ladder_id: int) -> list[Match]:
    """Create the ladder's next matches (pending), under its row lock so that two schedulers at
    once do not both fill the same budget."""
    now = timezone.now()
    with transaction.atomic():
        ladder = Ladder.objects.select_for_update().select_related("tournament").get(pk=ladder_id)
        if ladder.paused:
            return []
        tournament = ladder.tournament
        matches = Match.objects.filter(tournament=tournament)
        unfinished = matches.filter(status__in=Match.UNFINISHED)
        per_match = games_per_match(tournament)
        in_flight = unfinished.count()
        played = matches.filter(
            status=Match.Status.DONE, finished_at__gte=now - timedelta(hours=1)
        ).aggregate(games=Sum("games_played"))["games"]
        allowed = matches_allowed(
            games_per_hour=ladder.games_per_hour,
            games_last_hour=(played or 0) + in_flight * per_match,
            games_per_match=per_match,
            in_flight=in_flight,
            max_in_flight=settings.TRUCO_LADDER_IN_FLIGHT,
        )
        if not allowed:
            return []
        entries = list(
            LadderEntry.objects.filter(ladder=ladder, on_board=True).select_related("bot")
        )
        if len(entries) < 2:
            return []
        versions = [
            Version(e.entrant_id, str(e.bot.owner_id or ""), e.mu, e.sigma, e.matches)
            for e in entries
        ]
        owners = {v.id: v.owner for v in versions}
        window = now - timedelta(hours=settings.TRUCO_LADDER_WINDOW_HOURS)
        recent = matches.filter(Q(status__in=Match.UNFINISHED) | Q(finished_at__gte=window))
        history = History.of(recent.values_list("entrant_a_id", "entrant_b_id"), owners)
        busy = set(unfinished.values_list("entrant_a_id", flat=True))
        busy |= set(unfinished.values_list("entrant_b_id", flat=True))
        pairs = next_pairs(versions, history, busy, allowed, Policy())
        if not pairs:
            return []
        round_, _ = Round.objects.get_or_create(tournament=tournament, number=1)
        made = []
        for a, b in pairs:
            ladder.matches_made += 1
            key = f"L{ladder.matches_made}"
            made.append(
                Match(
                    tournament=tournament,
                    round=round_,
                    key=key,
                    entrant_a_id=a,
                    entrant_b_id=b,
                    seed=match_seed(tournament.seed, key),
                )
            )
        Match.objects.bulk_create(made)
        ladder.save(update_fields=["matches_made"])
    log.info("ladder %s: %d new matches", ladder.label, len(made))
    return made
