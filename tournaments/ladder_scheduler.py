"""The ladder's scheduler, run every TRUCO_LADDER_SECONDS by Celery beat (the
`tournaments.ladder` task) or by the embedded stack's supervisor (website/periodic.py): it puts
ready versions on their boards, then starts each unpaused ladder's next matches, as many as its
budget of games per hour and its cap of matches in flight allow, paired by
tournaments/ladder_policy.py. Tournaments and uploads go first: while any tournament's bot
match or a new version's validation waits for a worker, no ladder match is queued. All boards
share at most TRUCO_LADDER_IN_FLIGHT_TOTAL matches in flight, and a free slot goes to the
neediest board first.

A ladder match is a match of the ladder's tournament (kind `ladder`): duplicate pairs
(TRUCO_LADDER_PAIRS), played, recorded and swept like any other, and rated on its board as well
as in the variant's ratings.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q, Sum
from django.utils import timezone

from tournaments import dispatch
from tournaments.ladder import others_go_first, sync_boards
from tournaments.ladder_policy import History, Policy, Version, matches_allowed, next_pairs
from tournaments.models import Ladder, LadderEntry, Match, Round, Tournament
from tournaments.seeds import match_seed

log = logging.getLogger(__name__)


def tick() -> int:
    """One round of the scheduler; how many ladder matches it started.

    All boards share the workers: at most TRUCO_LADDER_IN_FLIGHT_TOTAL ladder matches are in
    flight at once, so a newly uploaded version's first match never waits behind a queue of
    other boards' matches. Free slots go to the neediest board first (`urgency`)."""
    sync_boards()
    if others_go_first():
        return 0
    now = timezone.now()
    started = 0
    with transaction.atomic():
        # Every board's row locked, in one order: two schedulers at once neither start the same
        # budget twice nor both fill the shared room.
        ladders = list(
            Ladder.objects.select_for_update()
            .filter(paused=False)
            .select_related("tournament")
            .order_by("id")
        )
        room = settings.TRUCO_LADDER_IN_FLIGHT_TOTAL - in_flight_everywhere()
        boards = [Board.of(ladder, now) for ladder in ladders]
        played_anywhere: Counter[int] = Counter()
        for board in boards:
            for entry in board.entries:
                played_anywhere[entry.bot_id] += entry.matches
        for board in sorted(boards, key=lambda b: urgency(b, played_anywhere)):
            if room <= 0:
                break
            made = board.schedule(room)
            room -= len(made)
            started += len(made)
    for ladder in ladders:
        # Its new matches, and those a worker put back while tournaments went first.
        dispatch.publish_pending(ladder.tournament_id)
    return started


def in_flight_everywhere() -> int:
    return Match.objects.filter(
        tournament__kind=Tournament.Kind.LADDER, status__in=Match.UNFINISHED
    ).count()


def games_per_match(tournament: Tournament) -> int:
    return tournament.games_per_match + 2 * tournament.pairs_per_match


def urgency(board: Board, played_anywhere: Counter[int]) -> tuple:
    """Which board gets a free slot first: the one where the most people's versions wait for
    their first ladder match on any board, then for their first on this board, then the one
    with the most people's versions free to meet (a bot that plays every variant does not tour
    the boards where it has nobody but the house's bots to meet first), then one with a
    version still placing, then the one served longest ago."""
    free = [e for e in board.entries if e.entrant_id not in board.busy]
    people = [e for e in free if e.bot.owner_id is not None]
    new = [e for e in people if e.matches == 0]
    never = sum(1 for e in new if played_anywhere[e.bot_id] == 0)
    placing = any(e.sigma > Policy().placement_sigma for e in free)
    return (-never, -len(new), -len(people), not placing, board.last_match_id)


@dataclass
class Board:
    """A ladder as the scheduler sees it in one run: its versions, those in a match, and what
    it played lately."""

    ladder: Ladder
    now: datetime
    entries: list[LadderEntry]
    busy: set[int]
    in_flight: int
    last_match_id: int

    @classmethod
    def of(cls, ladder: Ladder, now: datetime) -> Board:
        matches = Match.objects.filter(tournament=ladder.tournament)
        unfinished = list(
            matches.filter(status__in=Match.UNFINISHED).values_list("entrant_a_id", "entrant_b_id")
        )
        return cls(
            ladder=ladder,
            now=now,
            entries=list(
                LadderEntry.objects.filter(ladder=ladder, on_board=True).select_related("bot")
            ),
            busy={e for pair in unfinished for e in pair if e is not None},
            in_flight=len(unfinished),
            last_match_id=matches.order_by("-id").values_list("id", flat=True).first() or 0,
        )

    def schedule(self, room: int) -> list[Match]:
        """Create the board's next matches (pending), at most `room`, within its budget of
        games per hour and its own cap of matches in flight. The caller holds its row lock."""
        ladder, tournament = self.ladder, self.ladder.tournament
        matches = Match.objects.filter(tournament=tournament)
        per_match = games_per_match(tournament)
        played = matches.filter(
            status=Match.Status.DONE, finished_at__gte=self.now - timedelta(hours=1)
        ).aggregate(games=Sum("games_played"))["games"]
        allowed = matches_allowed(
            games_per_hour=ladder.games_per_hour,
            games_last_hour=(played or 0) + self.in_flight * per_match,
            games_per_match=per_match,
            in_flight=self.in_flight,
            max_in_flight=settings.TRUCO_LADDER_IN_FLIGHT,
        )
        allowed = min(allowed, room)
        if allowed <= 0 or len(self.entries) < 2:
            return []
        versions = [
            Version(e.entrant_id, str(e.bot.owner_id or ""), e.mu, e.sigma, e.matches)
            for e in self.entries
        ]
        owners = {v.id: v.owner for v in versions}
        window = self.now - timedelta(hours=settings.TRUCO_LADDER_WINDOW_HOURS)
        recent = matches.filter(Q(status__in=Match.UNFINISHED) | Q(finished_at__gte=window))
        history = History.of(recent.values_list("entrant_a_id", "entrant_b_id"), owners)
        pairs = next_pairs(versions, history, self.busy, allowed, Policy())
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
        self.busy |= {e for pair in pairs for e in pair}
        self.in_flight += len(made)
        log.info("ladder %s: %d new matches", ladder.label, len(made))
        return made
