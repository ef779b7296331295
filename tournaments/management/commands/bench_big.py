"""`python manage.py bench_big`: big tournaments through the whole stack, and what they leave.

A Swiss of `--swiss-entrants` (default 1,024) random bots and a round robin of `--rr-entrants`
(default 64), `--games` (default 10) games a match, each played by `--workers` Celery worker
processes (prefork, one process each) on the configured broker and database (meant for Redis
and PostgreSQL: REDIS_URL, DATABASE_URL). For each it prints the wall time from the start to
the end, games per second, the database's growth per game (and the games table's own size per
game), and, once it is over, the 50th and 95th percentile of the standings endpoint, the
bracket endpoint (its first page: 500 matches) and the tournament's page (its first pages of
standings, entrants and matches; Django's test client: the whole web stack but the socket; a
first request untimed; target 100 ms).

It prints numbers; it passes or fails nothing. `--swiss-rounds` shortens the Swiss (the
format's default for 1,024 entrants is 10 rounds, 5,120 matches).
"""

from __future__ import annotations

import statistics
import time

from celery import current_app as app
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.test import Client

from stack.database import require_migrated
from stack.workers import start_worker, stop_worker
from tournaments import lifecycle
from tournaments.builders import bots_named, create_tournament
from tournaments.models import Game, Match, Tournament
from tournaments.runner import wait_for_workers


class Command(BaseCommand):
    requires_system_checks = []  # plays matches; serves no URLs
    help = __doc__.split("\n\n")[0].split(": ", 1)[1]

    def add_arguments(self, parser):
        parser.add_argument("--swiss-entrants", type=int, default=1024)
        parser.add_argument("--swiss-rounds", type=int, default=0, help="0: the format's")
        parser.add_argument("--rr-entrants", type=int, default=64)
        parser.add_argument("--games", type=int, default=10, help="games per match")
        parser.add_argument("--workers", type=int, default=2)
        parser.add_argument("--samples", type=int, default=50, help="requests per endpoint")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--pages-of",
            type=int,
            nargs="+",
            default=[],
            metavar="TOURNAMENT",
            help="only time the pages of these tournaments (ids), played before",
        )

    def handle(self, *args, **opts):
        require_migrated()
        if opts["pages_of"]:
            for pk in opts["pages_of"]:
                tournament = Tournament.objects.filter(pk=pk).first()
                if tournament is None:
                    raise CommandError(f"no tournament {pk}")
                self.stdout.write(f"{tournament.name} (#{pk}):")
                self.report_pages(tournament, opts["samples"])
            return
        if opts["swiss_entrants"] < 2 and opts["rr_entrants"] < 2:
            raise CommandError(
                "nothing to play: give --swiss-entrants or --rr-entrants of 2 or more"
            )
        broker = app.conf.broker_url.split("://")[0]
        self.stdout.write(
            f"database: {connection.vendor}, broker: {broker}, workers: {opts['workers']}, "
            f"{opts['games']} games a match"
        )
        plans = []
        if opts["swiss_entrants"] >= 2:
            options = {"rounds": opts["swiss_rounds"]} if opts["swiss_rounds"] else {}
            plans.append(("swiss", opts["swiss_entrants"], options))
        if opts["rr_entrants"] >= 2:
            plans.append(("round-robin", opts["rr_entrants"], {}))
        workers = [start_worker(1) for _ in range(opts["workers"])]
        try:
            self.wait_for_worker_nodes(len(workers))
            for fmt, entrants, options in plans:
                tournament = self.play(fmt, entrants, options, opts)
                self.report_pages(tournament, opts["samples"])
        finally:
            for worker in workers:
                stop_worker(worker, idle=True)

    def wait_for_worker_nodes(self, count: int, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if len(app.control.ping(timeout=0.5) or []) >= count:
                return
        raise CommandError(f"{count} workers did not answer a ping within {timeout:.0f}s")

    def play(self, fmt: str, entrants: int, options: dict, opts) -> Tournament:
        tournament = create_tournament(
            name=f"bench_big {fmt} {entrants}",
            variant="paulista",
            format=fmt,
            format_options=options,
            bots=bots_named(["random"] * entrants),
            games_per_match=opts["games"],
            seed=opts["seed"],
            seeding=Tournament.Seeding.ORDER,
        )
        before = database_bytes()
        games_before = Game.objects.count()
        started = time.perf_counter()
        lifecycle.start(tournament)
        status = wait_for_workers(tournament, poll_seconds=0.5)
        elapsed = time.perf_counter() - started
        if status != Tournament.Status.DONE:
            raise CommandError(f"the {fmt} did not finish: {status}")
        matches = Match.objects.filter(tournament=tournament, entrant_b__isnull=False).count()
        games = Game.objects.filter(match__tournament=tournament).count()
        grown = database_bytes() - before
        table = table_bytes(Game._meta.db_table)
        all_games = games_before + games
        self.stdout.write(
            f"{fmt}, {entrants} entrants: {matches} matches, {games} games in {elapsed:.1f}s "
            f"= {games / elapsed:,.0f} games/s"
        )
        if grown is not None and table is not None:
            self.stdout.write(
                f"  database: +{grown / 1e6:.1f} MB = {grown / games / 1024:.2f} KiB a game "
                f"(the games table: {table / all_games / 1024:.2f} KiB a game over "
                f"{all_games} games)"
            )
        return tournament

    def report_pages(self, tournament: Tournament, samples: int) -> None:
        client = Client(HTTP_HOST="localhost")
        for url in (
            f"/api/tournaments/{tournament.pk}/standings/",
            f"/api/tournaments/{tournament.pk}/bracket/",
            f"/tournaments/{tournament.pk}/",
        ):
            client.get(url)  # the first request of a process imports and compiles: not timed
            timings = []
            for _ in range(samples):
                started = time.perf_counter()
                response = client.get(url)
                timings.append(time.perf_counter() - started)
                if response.status_code != 200:
                    raise CommandError(f"GET {url} answered {response.status_code}")
            cuts = statistics.quantiles(timings, n=100)
            self.stdout.write(
                f"  GET {url}: p50 {cuts[49] * 1000:.1f} ms, p95 {cuts[94] * 1000:.1f} ms "
                f"over {samples} requests"
            )


def database_bytes() -> int | None:
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_database_size(current_database())")
        return cursor.fetchone()[0]


def table_bytes(table: str) -> int | None:
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_total_relation_size(%s)", [table])
        return cursor.fetchone()[0]
