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
from players.ratings import rate
from submitted_bots.budgets import decision_budget
from submitted_bots.models import Bot
from submitted_bots.playing import spec_for
from tournaments.game_privacy import private_part, public_record
from tournaments.models import Entrant, Game, Match, Tournament
from tournaments.scheduling import needs_winner, rated_player_ids

log = logging.getLogger(__name__)


def current_worker() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


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
    spec: MatchSpec
    needs_winner: bool
    competitive: bool
    team_a: list[int]
    team_b: list[int]
    lease: int


@dataclass
class Played:
    games: list[MatchGame]
    winner_side: str | None  # "a", "b" or None (a draw)
    deciders: int = 0
    seconds: float = 0.0
    pair_scores: list[float] = field(default_factory=list)


def execute(match_id: int, worker: str | None = None) -> Outcome:
    """Claim, play and record match `match_id`; safe to call any number of times."""
    claim = claim_match(match_id, worker or current_worker())
    if isinstance(claim, Outcome):
        return claim
    try:
        played = play(claim)
    except Exception as exc:  # an engine or plugin failure: give the match back for a retry
        log.exception("match %s attempt %s failed", match_id, claim.attempt)
        return release(claim, f"{type(exc).__name__}: {exc}")
    if record(claim, played):
        return Outcome("recorded", claim.tournament_id)
    log.warning("match %s: claim %s was taken over; result discarded", match_id, claim.token)
    return Outcome("lost", claim.tournament_id)


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


def claim_match(match_id: int, worker: str) -> Claim | Outcome:
    now = timezone.now()
    with transaction.atomic():
        try:
            match = (
                Match.objects.select_for_update(of=("self",))
                .select_related("tournament")
                .get(pk=match_id)
            )
        except Match.DoesNotExist:
            return Outcome("missing")
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
        entrants = {
            e.id: e
            for e in Entrant.objects.select_related("bot").filter(
                id__in=[match.entrant_a_id, match.entrant_b_id]
            )
        }
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
        lease = lease_seconds()
        match.status = Match.Status.RUNNING
        match.attempts += 1
        match.worker = worker
        match.claim_token = uuid.uuid4()
        match.lease_until = now + timedelta(seconds=lease)
        match.started_at = now
        match.save(
            update_fields=[
                "status",
                "attempts",
                "worker",
                "claim_token",
                "lease_until",
                "started_at",
            ]
        )
    spec = match_spec(tournament, match.seed, side_a.bot, side_b.bot)
    return Claim(
        match_id=match.pk,
        tournament_id=tournament.pk,
        token=match.claim_token,
        attempt=match.attempts,
        spec=spec,
        needs_winner=needs_winner(tournament),
        competitive=tournament.competitive,
        team_a=rated_player_ids(side_a),
        team_b=rated_player_ids(side_b),
        lease=lease,
    )


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
    """Renews the claim's lease every quarter lease, as games finish."""

    def __init__(self, claim: Claim):
        self.claim = claim
        self.every = claim.lease / 4
        self.next = time.monotonic() + self.every

    def __call__(self, game: MatchGame | None = None) -> None:
        if time.monotonic() < self.next:
            return
        Match.objects.filter(
            pk=self.claim.match_id, claim_token=self.claim.token, status=Match.Status.RUNNING
        ).update(lease_until=timezone.now() + timedelta(seconds=self.claim.lease))
        self.next = time.monotonic() + self.every


def play(claim: Claim) -> Played:
    return play_spec(claim.spec, claim.needs_winner, Heartbeat(claim))


def play_spec(spec: MatchSpec, needs_winner: bool, on_game=None) -> Played:
    """The match's games as the engine's match session plays them: the plan, then deciders if
    it must have a winner (engine/match_plan.py)."""
    started = time.perf_counter()
    result = play_match(spec, on_game=on_game, needs_winner=needs_winner)
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
            copy.write_row(
                [f.get_db_prep_save(getattr(row, f.attname), connection) for f in fields]
            )


def record(claim: Claim, played: Played) -> bool:
    """Write the games and the result if the claim is still ours; False if it was taken over."""
    return record_match(
        claim.match_id,
        claim.token,
        played,
        attempt=claim.attempt,
        competitive=claim.competitive,
        team_a=claim.team_a,
        team_b=claim.team_b,
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
    rows = game_rows(match_id, played.games)
    with transaction.atomic():
        match = (
            Match.objects.select_for_update(of=("self",))
            .select_related("tournament")
            .get(pk=match_id)
        )
        if match.status != Match.Status.RUNNING or match.claim_token != token:
            return False
        insert_games(rows)
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
            "attempt": attempt,
        }
        match.status = Match.Status.DONE
        match.finished_at = timezone.now()
        match.lease_until = None
        match.error = ""
        fields = [
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
        ]
        if competitive and not match.rated:
            winner = None if match.winner_id is None else int(match.winner_id != match.entrant_a_id)
            rate(match.tournament.variant, team_a, team_b, winner)
            match.rated = True
            fields.append("rated")
        match.save(update_fields=fields)
    return True


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
