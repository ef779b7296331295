"""`python manage.py run_tournament --variant paulista --format single-elimination --bots random*8`

Creates a tournament of registered bots, runs it to the end with a progress bar (on standard
error, when it is a terminal) and prints the standings. Matches are played in this process by
default; `--workers N` starts N Celery workers on the configured broker, `--external` waits for
workers that are already running (docker-compose). Exit codes: 0 done, 1 the tournament could
not finish (failed matches, timeout), 2 bad input.
"""

from __future__ import annotations

import json
import time

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from engine.cli_game import parse_option, whole_number
from engine.plugins import registry
from engine.progress import progress_bar
from stack.database import require_migrated
from stack.workers import start_worker, stop_worker, wait_until_ready
from tournaments import lifecycle, scheduling
from tournaments.builders import bots_named, create_tournament, parse_bot_items
from tournaments.models import Match, Tournament
from tournaments.reports import standings_json, standings_text
from tournaments.runner import run_in_process, wait_for_workers

BAD_INPUT = 2
NO_WORKER_HINT_SECONDS = 20.0


non_negative = whole_number(0)


class Command(BaseCommand):
    requires_system_checks = []  # plays matches; serves no URLs
    help = __doc__.split("\n\n")[1].replace("\n", " ")

    def add_arguments(self, parser):
        parser.add_argument("--variant", default="paulista")
        parser.add_argument(
            "--format", default="single-elimination", choices=sorted(registry().formats)
        )
        parser.add_argument(
            "--bots",
            nargs="+",
            required=True,
            metavar="BOT",
            help="registered bots (or saved Bot names); NAME*N enters N copies",
        )
        parser.add_argument("--players", type=int, default=2, help="2 (1v1) or 4 (2v2)")
        parser.add_argument("--preset", default="")
        parser.add_argument(
            "--option", type=parse_option, action="append", default=[], metavar="NAME=VALUE"
        )
        parser.add_argument(
            "--format-option",
            type=parse_option,
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help="e.g. third_place=true, grand_final_reset=false, double=true, rounds=5",
        )
        parser.add_argument("--metrics", nargs="+", default=None, help="standings tiebreaks")
        parser.add_argument("--games", type=non_negative, default=10, help="games per match")
        parser.add_argument(
            "--pairs", type=non_negative, default=0, help="duplicate pairs per match"
        )
        parser.add_argument("--seed", type=int, default=None)
        parser.add_argument(
            "--seeding", choices=[c for c, _ in Tournament.Seeding.choices], default="rating"
        )
        parser.add_argument("--name", default=None)
        parser.add_argument("--turn-seconds", type=non_negative, default=30)
        parser.add_argument(
            "--practice", action="store_true", help="do not update the bots' ratings"
        )
        where = parser.add_mutually_exclusive_group()
        where.add_argument(
            "--workers",
            type=non_negative,
            default=0,
            help="start N Celery workers on the configured broker (0: play here)",
        )
        where.add_argument(
            "--external", action="store_true", help="let already running workers play"
        )
        parser.add_argument("--timeout", type=float, default=None, help="seconds to wait at most")
        parser.add_argument("--json", action="store_true", help="print the standings as JSON")

    def handle(self, *args, **opts):
        require_migrated()
        tournament = self.create(opts)
        started = time.perf_counter()
        if opts["workers"] or opts["external"]:
            status = self.run_on_workers(tournament, opts)
        else:
            status = self.run_here(tournament)
        elapsed = time.perf_counter() - started
        tournament.refresh_from_db()
        self.report(tournament, elapsed, opts["json"])
        if status != Tournament.Status.DONE:
            failed = tournament.matches.filter(status=Match.Status.FAILED)
            detail = "; ".join(f"{m.key}: {m.error}" for m in failed[:3])
            if detail:
                why = f" ({detail})"
            elif opts["timeout"] is not None and status == Tournament.Status.RUNNING:
                why = f" within --timeout {opts['timeout']:g}s"
            else:
                why = ""
            raise CommandError(
                f"tournament {tournament.pk} did not finish: it is {status}{why}", returncode=1
            )

    def create(self, opts) -> Tournament:
        try:
            bots = bots_named(parse_bot_items(opts["bots"]))
            return create_tournament(
                name=opts["name"] or f"{opts['format']} of {len(bots)} bots",
                variant=opts["variant"],
                format=opts["format"],
                bots=bots,
                players=opts["players"],
                preset=opts["preset"],
                options=dict(opts["option"]),
                format_options=dict(opts["format_option"]),
                metrics=opts["metrics"],
                games_per_match=opts["games"],
                pairs_per_match=opts["pairs"],
                seeding=opts["seeding"],
                seed=opts["seed"],
                competitive=not opts["practice"],
                turn_seconds=opts["turn_seconds"],
            )
        except ValidationError as exc:
            raise CommandError(_messages(exc), returncode=BAD_INPUT) from None

    def start(self, tournament: Tournament, publish: bool) -> None:
        try:
            lifecycle.start(tournament, publish=publish)
        except lifecycle.LifecycleError as exc:
            # The draft was made by this run and never started: not left behind in the admin.
            tournament.delete()
            raise CommandError(str(exc), returncode=BAD_INPUT) from None

    def run_here(self, tournament: Tournament) -> str:
        self.start(tournament, publish=False)
        total = scheduling.expected_matches(tournament, tournament.entrants.count())
        with progress_bar(total, tournament.name) as advance:
            return run_in_process(
                tournament,
                on_match=lambda outcome: advance(outcome.kind) if outcome.kind != "busy" else None,
            )

    def run_on_workers(self, tournament: Tournament, opts) -> str:
        tournament_id = tournament.pk  # kept: a draft that cannot start is deleted by start()
        workers = [start_worker() for _ in range(opts["workers"])]
        try:
            for worker in workers:
                wait_until_ready(worker)
            self.start(tournament, publish=True)
            total = scheduling.expected_matches(tournament, tournament.entrants.count())
            hint_at = time.monotonic() + NO_WORKER_HINT_SECONDS
            with progress_bar(total, tournament.name) as advance:
                shown = 0

                def on_progress(state):
                    nonlocal shown, hint_at
                    for _ in range(state.done - shown):
                        advance(f"{state.games} games")
                    shown = max(shown, state.done)
                    if state.done or state.running:
                        hint_at = None
                    elif hint_at is not None and time.monotonic() > hint_at:
                        self.stderr.write(
                            "no worker has claimed a match yet: is one running on this broker "
                            f"({_broker()})? Start one with: celery -A config worker"
                        )
                        hint_at = None

                status = wait_for_workers(tournament, on_progress, timeout=opts["timeout"])
        finally:
            over = Match.objects.filter(tournament_id=tournament_id, status__in=Match.UNFINISHED)
            idle = not over.exists()
            for worker in workers:
                stop_worker(worker, idle=idle)
        return status

    def report(self, tournament: Tournament, elapsed: float, as_json: bool) -> None:
        rows = scheduling.standings(tournament)
        games = sum(tournament.matches.values_list("games_played", flat=True))
        if as_json:
            out = {
                "tournament": tournament.pk,
                "status": tournament.status,
                "games": games,
                "seconds": round(elapsed, 3),
                "standings": standings_json(rows),
            }
            self.stdout.write(json.dumps(out))
            return
        rate = games / elapsed if elapsed > 0 else 0.0
        self.stdout.write(
            f"{tournament.name} (#{tournament.pk}): {tournament.get_status_display()}, "
            f"{tournament.variant}, {tournament.format}, seed {tournament.seed}, "
            f"{games} games in {elapsed:.1f}s ({rate:,.0f} games/s)\n"
        )
        self.stdout.write(standings_text(rows))


def _broker() -> str:
    return settings.CELERY_BROKER_URL.split("@")[-1]


def _messages(exc: ValidationError) -> str:
    if hasattr(exc, "message_dict"):
        return "; ".join(f"{field}: {' '.join(msgs)}" for field, msgs in exc.message_dict.items())
    return "; ".join(exc.messages)
