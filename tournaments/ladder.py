"""The ladder's boards and ratings: who is on which board, and what a ladder match does to them.

Every `ready`, active bot version is on the board of each variant and player count it plays (a
bundle's bot.toml says which; a plugin or remote bot plays them all), unless its owner took it
off; a retired, rejected or deactivated version leaves its boards (its entry and history stay,
off the board). Each board keeps its own openskill rating of a version, updated in the
transaction that records a ladder match (tournaments/execution.py record_match), with one
LadderPoint per update: the version's history on that board.

The matches themselves are made by tournaments/ladder_scheduler.py.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from engine.bundles import Manifest
from engine.plugins import registry
from players.ratings import model, rate_teams
from submitted_bots.models import Bot
from tournaments.models import Entrant, Ladder, LadderEntry, LadderPoint, Match, Tournament

WAITING = (Match.Status.PENDING, Match.Status.QUEUED, Match.Status.RETRYING)
BOT_ONLY = Q(entrant_a__bot__isnull=False, entrant_b__bot__isnull=False)


def tournament_matches_waiting() -> bool:
    """Whether a running tournament (not a ladder) has a bot match no worker has taken yet:
    then the ladder starts nothing, and a worker given a ladder match puts it back."""
    return (
        Match.objects.filter(status__in=WAITING, tournament__status=Tournament.Status.RUNNING)
        .exclude(tournament__kind=Tournament.Kind.LADDER)
        .filter(BOT_ONLY)
        .exists()
    )


def versions_validating() -> bool:
    """Whether a version uploaded lately is still waiting for its smoke match: its author is
    looking at the page, so the ladder yields to it as to tournaments (its validation task
    would otherwise wait in the workers' queue behind ladder matches). A version validating for
    longer than TRUCO_LADDER_YIELDS_TO_UPLOADS_SECONDS (its task lost) no longer holds the
    ladder."""
    since = timezone.now() - timedelta(seconds=settings.TRUCO_LADDER_YIELDS_TO_UPLOADS_SECONDS)
    return Bot.objects.filter(status=Bot.Status.VALIDATING, created_at__gte=since).exists()


def others_go_first() -> bool:
    """Whether the ladder waits: a tournament's bot match or an upload's validation is waiting
    for a worker."""
    return tournament_matches_waiting() or versions_validating()


def boards_of(bot: Bot) -> list[tuple[str, int]]:
    """(variant, players) of every board the version belongs on."""
    reg = registry()
    if bot.is_bundle:
        return Manifest.from_json(bot.manifest).configurations(reg)
    return [(name, n) for name, v in sorted(reg.variants.items()) for n in v.players]


def ladder_for(variant: str, players: int) -> Ladder:
    """The ladder of a variant and player count, made with its tournament the first time."""
    found = Ladder.objects.filter(variant=variant, players=players).first()
    if found is not None:
        return found
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=f"Ladder: {variant} {'1v1' if players == 2 else '2v2'}",
            variant=variant,
            players=players,
            kind=Tournament.Kind.LADDER,
            format="round-robin",  # never asked for pairings: the ladder's scheduler pairs
            games_per_match=0,
            pairs_per_match=settings.TRUCO_LADDER_PAIRS,
            seeding=Tournament.Seeding.ORDER,
            status=Tournament.Status.RUNNING,
            started_at=timezone.now(),
        )
        ladder, created = Ladder.objects.get_or_create(
            variant=variant,
            players=players,
            defaults={
                "tournament": tournament,
                "games_per_hour": settings.TRUCO_LADDER_GAMES_PER_HOUR,
            },
        )
        if not created:  # made meanwhile by another process
            tournament.delete()
    return ladder


def sync_boards() -> int:
    """Put every enterable version on its boards and take the others off; how many entries
    changed. Cheap when nothing changed: four queries."""
    changed = 0
    now = timezone.now()
    enterable = Bot.objects.enterable()
    leaving = LadderEntry.objects.filter(on_board=True).exclude(bot__in=enterable)
    changed += leaving.update(on_board=False, left_at=now)
    back = LadderEntry.objects.filter(on_board=False, withdrawn=False, bot__in=enterable)
    changed += back.update(on_board=True, left_at=None)
    have = set(LadderEntry.objects.values_list("bot_id", "ladder__variant", "ladder__players"))
    missing: dict[tuple[str, int], list[Bot]] = {}
    for bot in enterable.select_related("owner"):
        for variant, players in boards_of(bot):
            if (bot.pk, variant, players) not in have:
                missing.setdefault((variant, players), []).append(bot)
    for (variant, players), bots in sorted(missing.items()):
        changed += join(ladder_for(variant, players), bots)
    return changed


def join(ladder: Ladder, bots: list[Bot]) -> int:
    """Put versions on a board, with a fresh rating: a few queries however many they are. Safe
    when two schedulers do it at once (a conflicting row is left to the other)."""
    fresh = model().rating()
    tournament = ladder.tournament
    with transaction.atomic():
        entrants = Entrant.objects.filter(tournament=tournament)
        have = set(entrants.filter(bot__in=bots).values_list("bot_id", flat=True))
        taken = set(entrants.values_list("name", flat=True))
        new = []
        for bot in bots:
            if bot.pk in have:
                continue
            # Labels are unique among versions; the suffix is a belt for the name's constraint.
            name = bot.label[:190]
            if name in taken:
                name = f"{name} #{bot.pk}"
            taken.add(name)
            new.append(Entrant(tournament=tournament, bot=bot, name=name))
        Entrant.objects.bulk_create(new, ignore_conflicts=True)
        by_bot = dict(entrants.filter(bot__in=bots).values_list("bot_id", "id"))
        made = LadderEntry.objects.bulk_create(
            [
                LadderEntry(
                    ladder=ladder,
                    bot=bot,
                    entrant_id=by_bot[bot.pk],
                    mu=fresh.mu,
                    sigma=fresh.sigma,
                )
                for bot in bots
                if bot.pk in by_bot
            ],
            ignore_conflicts=True,
        )
    return len(made)


def set_withdrawn(entry: LadderEntry, withdrawn: bool) -> LadderEntry:
    """Its owner takes a version off a board, or puts it back (if it may still play)."""
    entry.withdrawn = withdrawn
    entry.on_board = not withdrawn and entry.bot.is_enterable
    entry.left_at = None if entry.on_board else timezone.now()
    entry.save(update_fields=["withdrawn", "on_board", "left_at", "updated_at"])
    return entry


def rate_ladder_match(match: Match, winner: int | None) -> None:
    """The board's ratings after a ladder match (inside the transaction recording it); `winner`
    is 0 (side A), 1 (side B) or None for a draw, as the rules' terminations decided the games
    (a bot that crashed, timed out or broke a rule lost those games)."""
    entries = list(
        LadderEntry.objects.select_for_update()
        .filter(Q(entrant_id=match.entrant_a_id) | Q(entrant_id=match.entrant_b_id))
        .order_by("id")
    )
    by_entrant = {e.entrant_id: e for e in entries}
    a, b = by_entrant.get(match.entrant_a_id), by_entrant.get(match.entrant_b_id)
    if a is None or b is None or a.pk == b.pk:
        return
    [[new_a], [new_b]] = rate_teams([[(a.mu, a.sigma)], [(b.mu, b.sigma)]], winner)
    now = timezone.now()
    for entry, (mu, sigma) in ((a, new_a), (b, new_b)):
        entry.mu, entry.sigma, entry.matches = mu, sigma, entry.matches + 1
        entry.save(update_fields=["mu", "sigma", "matches", "updated_at"])
    LadderPoint.objects.bulk_create(
        LadderPoint(entry=e, mu=e.mu, sigma=e.sigma, matches=e.matches, at=now) for e in (a, b)
    )


def board(ladder: Ladder, limit: int | None = None) -> list[LadderEntry]:
    """The board in order, best first by mu - 3 sigma."""
    entries = sorted(
        ladder.entries.filter(on_board=True).select_related("bot__owner"),
        key=lambda e: (-e.ordinal, e.pk),
    )
    return entries[:limit] if limit else entries
