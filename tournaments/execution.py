"""Playing one match by id, so that it ends with exactly one result however often it is tried.

1. **Claim**: under a row lock, a match that is pending, queued or retrying (or running under a
   stale claim) becomes `running` with a fresh claim token, the worker's `host:pid`, a lease and
   one more attempt. A match running under a live claim is left alone ("busy").
2. **Play** outside any transaction (the engine; games are deterministic from the match seed,
   so a match played again from scratch gives the same games). The lease is renewed as games
   finish, so a long match is not taken for abandoned.
3. **Record** all games (one bulk insert), the result and the rating update in one
   transaction, only if the claim token is still this attempt's: an attempt whose claim was
   taken over records nothing.

A claim is stale when its lease ran out, or when it was made on this host by a process that no
longer exists (a killed worker), or by this very process (which is not playing it, being here).

Short matches go several to a task (`execute_batch`, tournaments/dispatch.py decides how many):
their claims are one transaction, their records another (one COPY of all their games, one
update of the matches, their ratings in one pass), so that a one-game match does not pay two
durable commits and a dozen round trips of its own. Each match keeps its own claim, token and
lease: a batch is only a way to write, never a unit that succeeds or fails as a whole.
"""

from __future__ import annotations

import logging
import os
import socket
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from engine.match import MatchGame, MatchSpec, play_match
from players.ratings import rate_many
from stack.bulk import db_value, update_rows
from stack.database import commit_without_waiting
from submitted_bots.budgets import decision_budget
from submitted_bots.models import Bot
from submitted_bots.playing import spec_for
from tournaments.game_privacy import private_part, public_record
from tournaments.ladder import others_go_first, rate_ladder_match
from tournaments.live_feed import LiveFeed
from tournaments.models import Entrant, Game, Match, Tournament
from tournaments.scheduling import needs_winner, rated_player_ids

log = logging.getLogger(__name__)


def current_worker() -> str:
    """`machine:pid`: the machine is TRUCO_MACHINE_NAME, else the system's host name."""
    return f"{settings.TRUCO_MACHINE_NAME or socket.gethostname()}:{os.getpid()}"


def lease_seconds() -> int:
    return settings.TRUCO_MATCH_LEASE_SECONDS


@dataclass
class Outcome:
    """What an attempt did. kinds: recorded, finished (already was), busy (a live claim holds
    it), held (tournament paused), cancelled, missing, human (not a bot match), lost (our
    claim was taken over), error (this attempt failed, retry later), failed (gave up)."""

    kind: str
    tournament_id: int | None = None
    wait: float = 0.0  # busy: seconds until the other claim's lease runs out
    error: str = ""

    @property
    def should_advance(self) -> bool:
        return self.kind in ("recorded", "finished")


@dataclass
class Claim:
    match_id: int
    tournament_id: int
    token: uuid.UUID
    attempt: int
    spec: MatchSpec | None  # made outside the claim's transaction (a bundle may be fetched)
    needs_winner: bool
    competitive: bool
    team_a: list[int]
    team_b: list[int]
    lease: int
    variant: str = ""
    sides: tuple = ()  # (tournament, seed, bot_a, bot_b): what the spec is made of


@dataclass
class Played:
    games: list[MatchGame]
    winner_side: str | None  # "a", "b" or None (a draw)
    deciders: int = 0
    seconds: float = 0.0
    pair_scores: list[float] = field(default_factory=list)


def execute(match_id: int, worker: str | None = None) -> Outcome:
    """Claim, play and record match `match_id`; safe to call any number of times."""
    return execute_batch([match_id], worker)[match_id]


def execute_batch(match_ids: list[int], worker: str | None = None) -> dict[int, Outcome]:
    """Claim, play and record these matches (one claim and one record transaction for all);
    each one's Outcome. Safe to call any number of times, with any overlap."""
    outcomes, claims = claim_matches(match_ids, worker or current_worker())
    heartbeat = Heartbeat(claims)
    finished: list[tuple[Claim, Played]] = []
    for claim in claims:
        try:
            claim.spec = claim.spec or match_spec_of(claim)
            feed = LiveFeed(claim.match_id)
            try:
                played = play_spec(claim.spec, claim.needs_winner, heartbeat, on_action=feed)
            finally:
                feed.close()
            finished.append((claim, played))
        except Exception as exc:  # an engine, plugin or storage failure: give it back
            log.exception("match %s attempt %s failed", claim.match_id, claim.attempt)
            outcomes[claim.match_id] = release(claim, f"{type(exc).__name__}: {exc}")
    for claim, recorded in zip([c for c, _ in finished], record_batch(finished), strict=True):
        if recorded:
            outcomes[claim.match_id] = Outcome("recorded", claim.tournament_id)
        else:
            log.warning(
                "match %s: claim %s was taken over; result discarded", claim.match_id, claim.token
            )
            outcomes[claim.match_id] = Outcome("lost", claim.tournament_id)
    return outcomes


# --- claiming -----------------------------------------------------------------------------


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a killed process nobody has reaped yet is a zombie: as good as gone
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def claim_is_stale(worker: str, lease_until: datetime | None, now: datetime, me: str) -> bool:
    if lease_until is None or lease_until <= now:
        return True
    host, _, pid = worker.rpartition(":")
    my_host, _, my_pid = me.rpartition(":")
    if host != my_host or not pid.isdigit():
        return False  # another machine: only its lease tells
    return pid == my_pid or not pid_alive(int(pid))


def locked_with_tournaments(match_ids: list[int]) -> list[Match]:
    """These matches locked (in id order, as every claimer and recorder locks them), each with
    its tournament: for one match joined in the same statement (a table's record counts its
    queries), for several read once for all (a batch's matches are of one tournament, and
    joining it to every row built a tournament instance a match)."""
    locked = Match.objects.filter(pk__in=match_ids).order_by("pk")
    if len(set(match_ids)) <= 1:
        return list(locked.select_for_update(of=("self",)).select_related("tournament"))
    matches = list(locked.select_for_update())
    tournaments = Tournament.objects.in_bulk({m.tournament_id for m in matches})
    for match in matches:
        match.tournament = tournaments[match.tournament_id]
    return matches


def claim_match(match_id: int, worker: str) -> Claim | Outcome:
    outcomes, claims = claim_matches([match_id], worker)
    return claims[0] if claims else outcomes[match_id]


CLAIM_FIELDS = ["status", "attempts", "worker", "claim_token", "lease_until", "started_at"]


def claim_matches(match_ids: list[int], worker: str) -> tuple[dict[int, Outcome], list[Claim]]:
    """Claim what may be claimed of these matches, in one transaction (rows locked in id
    order, as every claimer locks them); the Outcome of each match not claimed."""
    now = timezone.now()
    outcomes: dict[int, Outcome] = {}
    claimed: list[tuple[Match, Entrant, Entrant]] = []
    with transaction.atomic():
        commit_without_waiting()  # a claim a crash undoes is claimed again; nothing is lost
        matches = locked_with_tournaments(match_ids)
        for match_id in set(match_ids) - {m.pk for m in matches}:
            outcomes[match_id] = Outcome("missing")
        sides = [m.entrant_a_id for m in matches] + [m.entrant_b_id for m in matches]
        entrants = {
            e.id: e
            for e in Entrant.objects.select_related("bot").filter(id__in=set(sides) - {None})
        }
        lease = lease_seconds()
        for match in matches:
            outcome = _claim_locked(match, entrants, worker, now, lease)
            if outcome is None:
                claimed.append((match, entrants[match.entrant_a_id], entrants[match.entrant_b_id]))
            else:
                outcomes[match.pk] = outcome
        if claimed:
            update_rows([m for m, _, _ in claimed], CLAIM_FIELDS)
    claims = [
        Claim(
            match_id=match.pk,
            tournament_id=match.tournament_id,
            token=match.claim_token,
            attempt=match.attempts,
            spec=None,
            needs_winner=needs_winner(match.tournament),
            competitive=match.tournament.competitive,
            team_a=rated_player_ids(side_a),
            team_b=rated_player_ids(side_b),
            lease=lease,
            variant=match.tournament.variant,
            sides=(match.tournament, match.seed, side_a.bot, side_b.bot),
        )
        for match, side_a, side_b in claimed
    ]
    return outcomes, claims


def _claim_locked(
    match: Match, entrants: dict[int, Entrant], worker: str, now: datetime, lease: int
) -> Outcome | None:
    """Claim one locked match (its fields set, saved by the caller), or why not (saved here:
    the rare cases)."""
    tournament = match.tournament
    if match.is_finished:
        return Outcome("finished", tournament.pk)
    if tournament.status == Tournament.Status.CANCELLED:
        match.status = Match.Status.CANCELLED
        match.save(update_fields=["status"])
        return Outcome("cancelled", tournament.pk)
    if tournament.status != Tournament.Status.RUNNING:
        if match.status == Match.Status.QUEUED:
            match.status = Match.Status.PENDING  # resuming the tournament queues it again
            match.save(update_fields=["status"])
        return Outcome("held", tournament.pk)
    if match.status == Match.Status.RUNNING and not claim_is_stale(
        match.worker, match.lease_until, now, worker
    ):
        return Outcome("busy", tournament.pk, wait=(match.lease_until - now).total_seconds())
    if (
        tournament.kind == Tournament.Kind.LADDER
        and match.status != Match.Status.RUNNING
        and others_go_first()
    ):
        # Tournaments and uploads go first: a ladder match queued before a tournament's match
        # or a version's validation waits for the ladder's scheduler to send it again once
        # neither is waiting.
        match.status = Match.Status.PENDING
        match.save(update_fields=["status"])
        return Outcome("held", tournament.pk)
    side_a, side_b = entrants[match.entrant_a_id], entrants.get(match.entrant_b_id)
    if side_b is None:  # a bye is recorded when it is created; nothing to play
        return Outcome("finished", tournament.pk)
    if side_a.bot is None or side_b.bot is None:
        return Outcome("human", tournament.pk)
    if match.attempts >= settings.TRUCO_MATCH_MAX_ATTEMPTS:
        reason = match.error or f"its worker {match.worker or '(unknown)'} was lost"
        match.status = Match.Status.FAILED
        match.error = f"gave up after {match.attempts} attempts; last: {reason}"
        match.lease_until = None
        match.save(update_fields=["status", "error", "lease_until"])
        return Outcome("failed", tournament.pk, error=match.error)
    if match.status == Match.Status.RUNNING:
        log.warning("match %s: taking over the stale claim of %s", match.pk, match.worker)
    match.status = Match.Status.RUNNING
    match.attempts += 1
    match.worker = worker
    match.claim_token = uuid.uuid4()
    match.lease_until = now + timedelta(seconds=lease)
    match.started_at = now
    return None


def match_spec_of(claim: Claim) -> MatchSpec:
    return match_spec(*claim.sides)


def match_spec(tournament: Tournament, seed: int, bot_a: Bot, bot_b: Bot) -> MatchSpec:
    """What the engine plays for a match of this tournament between two bots."""
    turn_seconds = tournament.turn_seconds
    return MatchSpec(
        variant=tournament.variant,
        side_a=spec_for(bot_a, turn_seconds),
        side_b=spec_for(bot_b, turn_seconds),
        players=tournament.players,
        options=tournament.options,
        preset=tournament.preset or None,
        games=tournament.games_per_match,
        pairs=tournament.pairs_per_match,
        seed=seed,
        decision_seconds=decision_budget(turn_seconds),  # the table's, within the server's cap
        time_control=tournament.time_control,  # a bot that empties its bank loses by timeout
    )


# --- playing ------------------------------------------------------------------------------


class Heartbeat:
    """Renews the leases of a task's claims every quarter lease, as games finish (the matches
    of a batch still waiting their turn included)."""

    def __init__(self, claims: list[Claim] | Claim):
        self.claims = claims if isinstance(claims, list) else [claims]
        self.every = min((c.lease for c in self.claims), default=60) / 4
        self.next = time.monotonic() + self.every

    def __call__(self, game: MatchGame | None = None) -> None:
        if time.monotonic() < self.next:
            return
        lease = min(c.lease for c in self.claims)
        Match.objects.filter(
            pk__in=[c.match_id for c in self.claims],
            claim_token__in=[c.token for c in self.claims],
            status=Match.Status.RUNNING,
        ).update(lease_until=timezone.now() + timedelta(seconds=lease))
        self.next = time.monotonic() + self.every


def play(claim: Claim) -> Played:
    claim.spec = claim.spec or match_spec_of(claim)
    return play_spec(claim.spec, claim.needs_winner, Heartbeat(claim))


def play_spec(spec: MatchSpec, needs_winner: bool, on_game=None, on_action=None) -> Played:
    """The match's games as the engine's match session plays them: the plan, then deciders if
    it must have a winner (engine/match_plan.py); `on_action` hears every action (a
    spectator's feed, tournaments/live_feed.py)."""
    started = time.perf_counter()
    result = play_match(spec, on_game=on_game, needs_winner=needs_winner, on_action=on_action)
    return Played(
        games=list(result.games),
        winner_side=result.winner,
        deciders=result.deciders,
        seconds=time.perf_counter() - started,
        pair_scores=result.pair_scores(),
    )


# --- recording ----------------------------------------------------------------------------


def game_rows(match_id: int, games: list[MatchGame]) -> list[Game]:
    rows = []
    for g in games:
        score_a, score_b = g.points
        rows.append(
            Game(
                match_id=match_id,
                index=g.index,
                pair=g.pair,
                a_team=g.a_team,
                seed=g.seed,
                record=public_record(g.result.record),
                score_a=score_a,
                score_b=score_b,
                winner_side=g.winner_side or "",
                termination=g.result.termination,
                fault_seat=g.result.seat,
                hands=g.result.hands,
                actions=g.result.actions,
                private=private_part(g.result),
            )
        )
    return rows


def insert_games(rows: list[Game]) -> None:
    """One round trip for all the games of a match. On PostgreSQL, COPY: a match's records are
    tens of kilobytes of JSON, which COPY streams several times faster than an INSERT."""
    if connection.vendor != "postgresql":
        Game.objects.bulk_create(rows, batch_size=500)
        return
    fields = [f for f in Game._meta.concrete_fields if not f.primary_key]
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    sql = f"COPY {Game._meta.db_table} ({columns}) FROM STDIN"
    with connection.cursor() as cursor, cursor.cursor.copy(sql) as copy:
        for row in rows:
            copy.write_row([db_value(f, getattr(row, f.attname)) for f in fields])


RESULT_FIELDS = [
    "wins_a",
    "wins_b",
    "points_a",
    "points_b",
    "games_played",
    "terminations",
    "winner",
    "summary",
    "status",
    "finished_at",
    "lease_until",
    "error",
    "rated",
]


@dataclass
class ToRecord:
    """A played match to record, if it still runs under `token`."""

    match_id: int
    token: uuid.UUID
    played: Played
    attempt: int
    competitive: bool
    team_a: list[int]
    team_b: list[int]


def record(claim: Claim, played: Played) -> bool:
    """Write the games and the result if the claim is still ours; False if it was taken over."""
    return record_batch([(claim, played)])[0]


def record_batch(finished: list[tuple[Claim, Played]]) -> list[bool]:
    return record_matches(
        [
            ToRecord(
                claim.match_id,
                claim.token,
                played,
                attempt=claim.attempt,
                competitive=claim.competitive,
                team_a=claim.team_a,
                team_b=claim.team_b,
            )
            for claim, played in finished
        ]
    )


def record_match(
    match_id: int,
    token,
    played: Played,
    *,
    attempt: int,
    competitive: bool,
    team_a: list[int],
    team_b: list[int],
) -> bool:
    """The one way a finished match is recorded, by a worker or by a table where people sat:
    its games (one bulk insert), its result and its rating, in one transaction, if the match
    still runs under `token` (the claim of the attempt that played it); False if not (it was
    taken over, re-run or cancelled meanwhile), and nothing is written."""
    return record_matches(
        [ToRecord(match_id, token, played, attempt, competitive, team_a, team_b)]
    )[0]


def record_matches(items: list[ToRecord]) -> list[bool]:
    """`record_match` for several matches in one transaction: one COPY of all their games, one
    update of the matches, their ratings in one pass (in the order given); for each, whether
    it was recorded (a match whose claim was taken over is skipped, the others are not)."""
    if not items:
        return []
    rows = {item.match_id: game_rows(item.match_id, item.played.games) for item in items}
    with transaction.atomic():
        matches = {m.pk: m for m in locked_with_tournaments([item.match_id for item in items])}
        recorded: list[bool] = []
        valid: list[tuple[ToRecord, Match]] = []
        for item in items:
            match = matches.pop(item.match_id, None)  # popped: a match is recorded once
            ok = (
                match is not None
                and match.status == Match.Status.RUNNING
                and match.claim_token == item.token
            )
            recorded.append(ok)
            if ok:
                valid.append((item, match))
        if not valid:
            return recorded
        insert_games([row for item, _ in valid for row in rows[item.match_id]])
        ratings: dict[str, list[tuple[list[int], list[int], int | None]]] = {}
        now = timezone.now()
        for item, match in valid:
            _set_result(match, item, now)
            if item.competitive and not match.rated:
                winner = (
                    None if match.winner_id is None else int(match.winner_id != match.entrant_a_id)
                )
                ratings.setdefault(match.tournament.variant, []).append(
                    (item.team_a, item.team_b, winner)
                )
                if match.tournament.kind == Tournament.Kind.LADDER:
                    rate_ladder_match(match, winner)  # its board's rating, with its history
                match.rated = True
        update_rows([match for _, match in valid], RESULT_FIELDS)
        # Last: the ratings' rows are the ones every worker's record locks (a tournament's
        # players are in most of its matches), so they are held only from here to the commit.
        for variant, results in ratings.items():
            rate_many(variant, results)
    return recorded


def _set_result(match: Match, item: ToRecord, now: datetime) -> None:
    played = item.played
    sides = [g.winner_side for g in played.games]
    terminations: dict[str, int] = {}
    for g in played.games:
        terminations[g.result.termination] = terminations.get(g.result.termination, 0) + 1
    match.wins_a, match.wins_b = sides.count("a"), sides.count("b")
    match.points_a = sum(g.points[0] for g in played.games)
    match.points_b = sum(g.points[1] for g in played.games)
    match.games_played = len(played.games)
    match.terminations = terminations
    match.winner_id = {"a": match.entrant_a_id, "b": match.entrant_b_id}.get(
        played.winner_side or ""
    )
    match.summary = {
        "pair_scores": played.pair_scores,
        "deciders": played.deciders,
        "seconds": round(played.seconds, 4),
        "attempt": item.attempt,
    }
    match.status = Match.Status.DONE
    match.finished_at = now
    match.lease_until = None
    match.error = ""


def release(claim: Claim, error: str) -> Outcome:
    """Give a failed attempt's match back: retrying, or failed once the attempts are spent."""
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=claim.match_id)
        if match.status != Match.Status.RUNNING or match.claim_token != claim.token:
            return Outcome("lost", claim.tournament_id)
        gave_up = match.attempts >= settings.TRUCO_MATCH_MAX_ATTEMPTS
        delay = retry_delay(match.attempts)
        match.status = Match.Status.FAILED if gave_up else Match.Status.RETRYING
        match.error = error[:2000]
        # For a retrying match, the time after which a sweep may send it again (its retry
        # message was lost along with its worker).
        match.lease_until = (
            None if gave_up else timezone.now() + timedelta(seconds=delay + claim.lease)
        )
        match.claim_token = None
        match.save(update_fields=["status", "error", "lease_until", "claim_token"])
    if gave_up:
        return Outcome("failed", claim.tournament_id, error=error)
    return Outcome("error", claim.tournament_id, wait=delay, error=error)


def retry_delay(attempts: int) -> float:
    return float(min(2**attempts, 60))
