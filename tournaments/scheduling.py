"""The thin layer between the Django models and the plain formats of `formats/` (plugins).

Entrants are passed to the formats as their ids, in seed order; results as plain MatchResult
tuples read from the finished matches. `advance()` asks the format what is ready, creates those
matches (a bye is recorded at once), and finishes the tournament when the format says so. It
runs under a row lock on the tournament, so when many workers finish matches at the same time
exactly one of them schedules what follows; and it is idempotent, so running it again (after a
worker died half-way) changes nothing.
"""

from __future__ import annotations

import logging
import random
import uuid
from dataclasses import dataclass, field
from types import SimpleNamespace

from django.db import transaction
from django.db.models import Count, Model, Q
from django.utils import timezone

from engine.match_plan import MatchPlan
from engine.plugins import get_format
from formats import Format, MatchResult, Pairing
from players.models import Rating
from players.ratings import default_ordinal
from stack.bulk import insert_rows, update_rows
from stack.database import commit_without_waiting
from tournaments.batching import batches_of
from tournaments.checks import check_entrant_count, check_entry_budgets, check_tournament
from tournaments.models import Entrant, Match, Round, Tournament
from tournaments.seeds import derive_seed, match_seed

log = logging.getLogger(__name__)


def format_of(tournament: Tournament) -> Format:
    return get_format(tournament.format)


def format_options(tournament: Tournament) -> dict:
    options = dict(tournament.format_options)
    if tournament.metrics:
        options["metrics"] = list(tournament.metrics)
    return options


def match_plan(tournament: Tournament, seed: int) -> MatchPlan:
    """The plan of a match of this tournament (engine/match_plan.py): its games and pairs,
    deciders when the format needs a winner. The same for workers, tables and verification."""
    return MatchPlan(
        games=tournament.games_per_match,
        pairs=tournament.pairs_per_match,
        seed=seed,
        needs_winner=needs_winner(tournament),
    )


def needs_winner(tournament: Tournament) -> bool:
    """Whether a drawn match must be settled by extra games (the format says: elimination)."""
    return format_of(tournament).needs_winner


def seeded_entrant_ids(tournament: Tournament) -> list[int]:
    return list(tournament.entrants.order_by("seed", "id").values_list("id", flat=True))


def results_of(tournament: Tournament) -> list[MatchResult]:
    rows = (
        Match.objects.filter(tournament=tournament, status=Match.Status.DONE)
        .order_by("id")
        .values_list(
            "key",
            "round__number",
            "entrant_a_id",
            "entrant_b_id",
            "winner_id",
            "wins_a",
            "wins_b",
            "points_a",
            "points_b",
        )
    )
    return [MatchResult(*row) for row in rows]


# --- starting -----------------------------------------------------------------------------


def assign_seeds(tournament: Tournament) -> None:
    """Fix seed 1..n: by rating (ordinal, best first), registration order (keeping seeds given
    by hand first), or a shuffle drawn from the tournament seed."""
    if tournament.seeding == Tournament.Seeding.RATING:  # their players' ratings, too
        entrants = list(tournament.entrants.select_related("bot").prefetch_related("members"))
    else:
        entrants = [
            SimpleNamespace(id=i, pk=i, seed=s)
            for i, s in tournament.entrants.values_list("id", "seed")
        ]
    order_key = {e.id: (e.seed is None, e.seed or 0, e.id) for e in entrants}
    entrants.sort(key=lambda e: order_key[e.id])
    if tournament.seeding == Tournament.Seeding.RANDOM:
        random.Random(derive_seed(tournament.seed, "seeding")).shuffle(entrants)
    elif tournament.seeding == Tournament.Seeding.RATING:
        strength = entrant_strengths(tournament, entrants)
        entrants.sort(key=lambda e: (-strength[e.id], order_key[e.id]))
    # Two passes: seeds are unique, and the old values may overlap the new ones.
    Entrant.objects.filter(tournament=tournament).update(seed=None)
    for number, entrant in enumerate(entrants, start=1):
        entrant.seed = number
    update_rows(entrants, ["seed"], model=Entrant)


def rated_player_ids(entrant: Entrant) -> list[int]:
    if entrant.bot_id is not None:
        return [entrant.bot.player_id]
    return [m.id for m in entrant.members.all()]


def entrant_strengths(tournament: Tournament, entrants: list[Entrant]) -> dict[int, float]:
    """A team's mean ordinal in the tournament's variant (unrated players count as new ones)."""
    players = {e.id: rated_player_ids(e) for e in entrants}
    ordinals = dict(
        (r.player_id, r.ordinal)
        for r in Rating.objects.filter(
            variant=tournament.variant, player_id__in={p for ps in players.values() for p in ps}
        )
    )
    fallback = default_ordinal()
    return {
        eid: (sum(ordinals.get(p, fallback) for p in ps) / len(ps) if ps else fallback)
        for eid, ps in players.items()
    }


def start(tournament: Tournament, *, queue: bool = False) -> Advance:
    """Check the tournament, fix the seeds and schedule the first round (`queue`: as in
    `advance`)."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if tournament.status != Tournament.Status.DRAFT:
            raise ValueError(f"tournament {tournament} is {tournament.status}, not a draft")
        check_tournament(tournament)
        check_entrant_count(tournament, tournament.entrants.count())
        check_entry_budgets(tournament)
        assign_seeds(tournament)
        tournament.status = Tournament.Status.RUNNING
        tournament.started_at = timezone.now()
        tournament.save(update_fields=["status", "started_at"])
    return advance(tournament.pk, queue=queue)


def schedule_new(
    tournament: Tournament, seeded_ids: list[int], values: dict | None = None
) -> list[Match]:
    """The first round of a tournament the caller's transaction has just created, already
    running, with these entrants in seed order; its matches, as saved (no query reads them
    back: a table answers with its state at once). What `start` does, without reading back
    what the caller has just written (the entrants, their seeds, the rounds and matches there
    are none of yet): a player's table is opened this way, which cost twenty queries through
    `start` (tables.quick). The caller checks what `start` checks. `values`: fields the
    matches (not the byes) are inserted with (a table dealt as it opens: running)."""
    pairings = format_of(tournament).next_round(seeded_ids, [], format_options(tournament))
    step = _create_matches(tournament, pairings or [], queue=False, fresh=True, values=values)
    return [saved(Match(pk=pk, **row)) for pk, row in zip(step.ids, step.rows, strict=True)]


def saved(instance: Model, using: str = "default") -> Model:
    """`instance`, built from the values just written to its row, as if read from it."""
    instance._state.adding = False
    instance._state.db = using
    return instance


# --- advancing ----------------------------------------------------------------------------


@dataclass
class Advance:
    created: int = 0  # matches created (byes included)
    finished: bool = False  # the tournament just ended
    # With `queue`: the bot matches created queued, as the messages that must carry them to
    # the workers (their ids; the caller sends them, after the commit).
    batches: list[list[int]] = field(default_factory=list)


def advance(tournament_id: int, *, queue: bool = False) -> Advance:
    """Create every match the format says is ready; finish the tournament when it says so.

    `queue`: the bot matches are created `queued` and marked with their messages (batches),
    in the statement that creates them, and returned for the caller to send once committed:
    one transaction where publishing them later costs another (tournaments.dispatch). Only
    outside a transaction: a worker must find the rows its message names."""
    outcome = Advance()
    while True:
        step = _advance_once(tournament_id, queue)
        outcome.created += step.created
        outcome.finished |= step.finished
        outcome.batches += step.batches
        if not step.byes:  # a bye is a result at once, which may make more matches ready
            return outcome


@dataclass
class _Step:
    created: int = 0
    byes: int = 0
    finished: bool = False
    batches: list[list[int]] = field(default_factory=list)
    after_others: bool = True  # the tournament had matches before these
    ids: list[int] = field(default_factory=list)  # of the matches created, in pairing order
    rows: list[dict] = field(default_factory=list)  # their values written (the rest defaults)


def _advance_once(tournament_id: int, queue: bool = False) -> _Step:
    unfinished_anywhere = Match.objects.filter(
        tournament_id=tournament_id, status__in=Match.UNFINISHED
    )
    tournament_format, kind = Tournament.objects.values_list("format", "kind").get(pk=tournament_id)
    if kind == Tournament.Kind.LADDER:
        return _Step()  # the ladder's scheduler pairs its matches, never the format
    if get_format(tournament_format).round_by_round and unfinished_anywhere.exists():
        # Checked before taking the lock, which would cost a durable commit per finished
        # match. Safe: each worker commits its own result before looking, so the last one to
        # finish sees every other result and goes on to take the lock.
        return _Step()
    own_transaction = not transaction.get_connection().in_atomic_block
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        if tournament.status != Tournament.Status.RUNNING:
            return _Step()
        unfinished = Match.objects.filter(tournament=tournament, status__in=Match.UNFINISHED)
        if format_of(tournament).round_by_round and unfinished.exists():
            return _Step()
        fmt = format_of(tournament)
        # Bots play any number of matches at once, people one: a fixed schedule with no
        # person in it is handed out whole, and its rounds are played with no wait between.
        pair = (
            fmt.all_rounds if fmt.fixed_schedule and not _has_people(tournament) else fmt.next_round
        )
        pairings = pair(
            seeded_entrant_ids(tournament), results_of(tournament), format_options(tournament)
        )
        # What this transaction writes, a database crash may undo without harm: the
        # tournament is then as it was before, and the sweep advances it again (a message sent
        # for a match whose row was lost finds no match). Records, which these follow in the
        # write-ahead log, keep their durable commits. (A caller's transaction may hold more.)
        if own_transaction:
            commit_without_waiting()
        if pairings is None:
            if unfinished.exists():
                return _Step()
            _close_rounds(tournament)
            tournament.status = Tournament.Status.DONE
            tournament.finished_at = timezone.now()
            tournament.save(update_fields=["status", "finished_at"])
            log.info("tournament %s finished", tournament.pk)
            return _Step(finished=True)
        step = _create_matches(tournament, pairings, queue=queue)
        if step.byes or step.after_others:  # else no round can have ended
            _close_rounds(tournament)
        return step


def _has_people(tournament: Tournament) -> bool:
    return tournament.entrants.filter(bot__isnull=True).exists()


def _create_matches(
    tournament: Tournament,
    pairings: list[Pairing],
    *,
    queue: bool,
    fresh: bool = False,
    values: dict | None = None,
) -> _Step:
    """`fresh`: the tournament has no match and no round yet (nothing to read); `values`: set
    on each match but the byes."""
    existing = (
        set()
        if fresh
        else set(Match.objects.filter(tournament=tournament).values_list("key", flat=True))
    )
    new = [p for p in pairings if p.key not in existing]
    if not new:
        return _Step()
    rounds = {} if fresh else {r.number: r for r in Round.objects.filter(tournament=tournament)}
    missing = sorted({p.round for p in new} - set(rounds))
    # One statement for all of them (a round robin of bots creates every round at once).
    for created in Round.objects.bulk_create(
        [Round(tournament=tournament, number=number) for number in missing]
    ):
        rounds[created.number] = created
    now = timezone.now()
    matches = []
    for p in new:
        match = {
            "tournament_id": tournament.pk,
            "round_id": rounds[p.round].pk,
            "key": p.key,
            "entrant_a_id": p.a,
            "entrant_b_id": p.b,
            "seed": match_seed(tournament.seed, p.key),
        }
        if p.is_bye:
            match.update(status=Match.Status.DONE, winner_id=p.a, started_at=now, finished_at=now)
        elif values:
            match.update(values)
        matches.append(match)
    batches = _queue(tournament, new, matches, now) if queue else []
    ids = insert_rows(Match, matches)
    byes = sum(p.is_bye for p in new)
    log.info("tournament %s: %d new matches (%d byes)", tournament.pk, len(new), byes)
    return _Step(
        created=len(new),
        byes=byes,
        batches=[[ids[position] for position in batch] for batch in batches],
        after_others=bool(existing),
        ids=list(ids),
        rows=matches,
    )


def _queue(
    tournament: Tournament, pairings: list[Pairing], matches: list[dict], now
) -> list[list[int]]:
    """Queue the bot matches among these new ones (not saved yet), each marked with the
    message it goes in, as `tournaments.dispatch.publish_pending` would; their batches, as
    positions in `matches`. A match with a person in it stays pending (a table starts it)."""
    bots = {
        entrant: (kind, plugin)
        for entrant, kind, plugin in tournament.entrants.filter(bot__isnull=False).values_list(
            "id", "bot__kind", "bot__plugin"
        )
    }
    rows = [
        (position, tournament.pk, tournament.games_per_match, *bots[p.a], *bots[p.b])
        for position, p in enumerate(pairings)
        if not p.is_bye and p.a in bots and p.b in bots
    ]
    order = sorted((row[0] for row in rows), key=lambda position: pairings[position].round)
    batches = batches_of(order, rows)
    for batch in batches:
        message = uuid.uuid4()
        for position in batch:
            matches[position].update(status=Match.Status.QUEUED, queued_at=now, batch=message)
    return batches


def _close_rounds(tournament: Tournament) -> None:
    open_rounds = Round.objects.filter(tournament=tournament, status=Round.Status.RUNNING)
    finished = open_rounds.annotate(
        left=Count("matches", filter=Q(matches__status__in=Match.UNFINISHED))
    ).filter(left=0)
    finished.update(status=Round.Status.DONE, finished_at=timezone.now())


# --- reading ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    rank: int
    entrant_id: int
    name: str
    values: dict[str, float]
    rating: str  # "mu ± interval" of the entrant's players in this variant, "" if unrated


def standings(tournament: Tournament) -> list[Standing]:
    """The standings with the tournament's metrics, in four queries whatever the size (rows
    read as tuples: building model instances would cost more than the standings themselves)."""
    entrants = list(
        tournament.entrants.order_by("seed", "id").values_list("id", "name", "bot__player_id")
    )
    ids = [eid for eid, _, _ in entrants]
    ratings = entrant_ratings(tournament, entrants)
    if len(ids) < 2:  # a draft still taking entries: no table yet, only who is in
        return [Standing(1, eid, name, {}, ratings[eid]) for eid, name, _ in entrants]
    rows = format_of(tournament).standings(ids, results_of(tournament), format_options(tournament))
    names = {eid: name for eid, name, _ in entrants}
    return [
        Standing(row.rank, row.entrant, names[row.entrant], row.values, ratings[row.entrant])
        for row in rows
    ]


def entrant_ratings(
    tournament: Tournament, entrants: list[tuple[int, str, int | None]]
) -> dict[int, str]:
    """Each entrant's rating in the tournament's variant as "mu ± interval" (a team: each
    member's, joined by " / "), "" when unrated."""
    players: dict[int, list[int]] = {
        eid: [bot_player] for eid, _, bot_player in entrants if bot_player
    }
    if len(players) < len(entrants):
        members = Entrant.members.through.objects.filter(entrant__tournament=tournament)
        for eid, player in members.order_by("id").values_list("entrant_id", "player_id"):
            players.setdefault(eid, []).append(player)
    found = {
        player: Rating(mu=mu, sigma=sigma)
        for player, mu, sigma in Rating.objects.filter(
            variant=tournament.variant, player_id__in={p for ps in players.values() for p in ps}
        ).values_list("player_id", "mu", "sigma")
    }
    return {
        eid: " / ".join(found[p].display for p in players.get(eid, []) if p in found)
        for eid, _, _ in entrants
    }


def expected_matches(tournament: Tournament, entrants: int) -> int:
    """How many matches with games (byes excluded) the tournament will have, for progress."""
    return format_of(tournament).expected_matches(entrants, tournament.format_options)
