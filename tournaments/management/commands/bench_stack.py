"""`python manage.py bench_stack`: games per second through the whole stack, and the cost of it.

1. A tournament of random bots is played by N Celery worker processes on the configured broker
   and database (meant for Redis and PostgreSQL: set REDIS_URL and DATABASE_URL): tasks,
   claims, game records, results, ratings and scheduling included. Timed from the first
   message to the tournament's end, with the workers already up; a round goes out in N
   messages (TRUCO_TASK_SPREAD, as an operator sets it to the workers' total concurrency).
2. The same games (same seeds) are played by the engine alone in N processes: the
   orchestration overhead is the whole-stack time over this engine-only time.
3. The standings of a 256-entrant, 8-round Swiss tournament (synthetic results, no games) are
   computed repeatedly, in process and through the REST endpoint (Django's test client: the
   whole web stack but the socket): 50th and 95th percentile.

With `--jailed`, every bot is played as untrusted code: in the jail (engine/jail), one jailed
process per seat per match, in the workers and in the engine-only run alike.

It prints numbers; it passes or fails nothing.
"""

from __future__ import annotations

import io
import multiprocessing
import os
import pstats
import random
import statistics
import time
from pathlib import Path

from celery import current_app as app  # the project's app (config/celery.py)
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.test import Client, override_settings

from engine.jail.probe import JailUnavailable, availability
from stack.database import require_migrated
from stack.workers import start_worker, stop_worker
from tournaments import lifecycle, scheduling
from tournaments.builders import bots_named, create_tournament
from tournaments.execution import match_spec, play_spec
from tournaments.models import Match, Tournament
from tournaments.runner import wait_for_workers
from tournaments.scheduling import needs_winner

_worker_specs: list = []


def _play_chunk(indices: list[int]) -> int:
    """Engine-only: play some of the tournament's matches (forked processes inherit the
    specs) and return how many games that was."""
    return sum(len(play_spec(*_worker_specs[i]).games) for i in indices)


class Command(BaseCommand):
    requires_system_checks = []  # plays matches; serves no URLs
    help = __doc__.split("\n\n")[0].split(": ", 1)[1]

    def add_arguments(self, parser):
        parser.add_argument("--workers", type=int, default=2)
        parser.add_argument("--pool", default="prefork", choices=["prefork", "solo"])
        parser.add_argument("--entrants", type=int, default=16)
        parser.add_argument("--format", default="round-robin")
        parser.add_argument("--games", type=int, default=40, help="games per match")
        parser.add_argument("--variant", default="paulista")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--standings-entrants", type=int, default=256)
        parser.add_argument("--standings-rounds", type=int, default=8)
        parser.add_argument("--standings-samples", type=int, default=200)
        parser.add_argument(
            "--standings-url",
            default="/api/tournaments/{id}/standings/",
            help="the standings endpoint, timed through the web stack ('' to skip)",
        )
        parser.add_argument("--skip-stack", action="store_true")
        parser.add_argument("--skip-standings", action="store_true")
        parser.add_argument(
            "--worker-log", default="", help="append the workers' INFO log to this file"
        )
        parser.add_argument(
            "--profile",
            default="",
            help="profile the workers' tasks (cProfile) into this folder and print the top",
        )
        parser.add_argument(
            "--jailed",
            action="store_true",
            help="trust no bot plugin: every bot plays in the jail (engine/jail)",
        )

    def handle(self, *args, **opts):
        require_migrated()
        db = connection.vendor
        broker = settings.CELERY_BROKER_URL.split("://")[0]
        self.stdout.write(
            f"database: {db}, broker: {broker}, workers: {opts['workers']} ({opts['pool']} pool)"
        )
        if db != "postgresql" or broker != "redis":
            self.stdout.write("  (the target is measured with PostgreSQL and Redis)")
        if not opts["skip_stack"]:
            if opts["jailed"]:
                try:
                    availability().require()
                except JailUnavailable as exc:
                    raise CommandError(str(exc)) from None
                self.stdout.write("bots: all in the jail (--jailed)")
            with override_settings(**self.bench_settings(opts)):
                tournament = self.bench_stack(opts)
                self.bench_engine(tournament, opts)
        if not opts["skip_standings"]:
            self.bench_standings(opts)

    def bench_settings(self, opts) -> dict:
        """Settings of this process (the workers get the same by environment, `worker_env`)."""
        return {
            "TRUCO_TASK_SPREAD": self.spread(opts),
            **({"TRUCO_TRUSTED_BOT_PLUGINS": frozenset()} if opts["jailed"] else {}),
        }

    def worker_env(self, opts) -> dict:
        return {
            "TRUCO_TASK_SPREAD": str(self.spread(opts)),
            **({"TRUCO_TRUSTED_BOT_PLUGINS": ""} if opts["jailed"] else {}),
        }

    def spread(self, opts) -> int:
        """A round in as many messages as there are worker processes, as an operator sets
        TRUCO_TASK_SPREAD to the workers' total concurrency (docs/operations.md); the
        environment's value if it gives one."""
        return int(os.environ.get("TRUCO_TASK_SPREAD") or opts["workers"])

    # --- 1. the whole stack ---------------------------------------------------------------
    def bench_stack(self, opts) -> Tournament:
        tournament = create_tournament(
            name="bench_stack",
            variant=opts["variant"],
            format=opts["format"],
            bots=bots_named(["random"] * opts["entrants"]),
            games_per_match=opts["games"],
            seed=opts["seed"],
            seeding=Tournament.Seeding.ORDER,
        )
        env = self.worker_env(opts)
        if opts["profile"]:
            env["TRUCO_PROFILE_DIR"] = str(Path(opts["profile"]).resolve())
        log = (
            {"loglevel": "INFO", "log_file": open(opts["worker_log"], "ab")}
            if opts["worker_log"]
            else {}
        )
        workers = [
            start_worker(1, pool=opts["pool"], env=env, **log) for _ in range(opts["workers"])
        ]
        try:
            self.wait_for_worker_nodes(len(workers))
            self.warm_up_workers(opts)
            # What a running server has done once and for all before an organiser starts a
            # tournament: Celery's result backend class looked up (it scans the installed
            # packages' entry points: about 15 ms), a broker connection and its channel opened
            # and the queue declared, the task sender built (its first message's cost: about
            # 8 ms).
            _ = app.backend, app.amqp.send_task_message
            with app.producer_or_acquire() as producer:
                for queue in app.amqp.queues.values():
                    producer.maybe_declare(queue)
            started = time.time()
            lifecycle.start(tournament)
            status = wait_for_workers(tournament, poll_seconds=0.05)
            # To the moment the worker that ended it recorded the end (same machine, same
            # clock), not to the poll that saw it: the poll would add up to its interval.
            tournament.refresh_from_db(fields=["finished_at"])
            ended = tournament.finished_at.timestamp() if tournament.finished_at else time.time()
            elapsed = ended - started
        finally:
            for worker in workers:
                stop_worker(worker, idle=True)  # the tournament is over, or failed
        if status != Tournament.Status.DONE:
            raise CommandError(f"the tournament did not finish: {status}")
        if opts["profile"]:
            self.print_profile(Path(opts["profile"]))
        matches = Match.objects.filter(tournament=tournament, entrant_b__isnull=False)
        games = sum(matches.values_list("games_played", flat=True))
        self.stack_seconds = elapsed
        self.stdout.write(
            f"whole stack: {games} games in {matches.count()} matches "
            f"({opts['format']}, {opts['entrants']} entrants, {opts['games']} games a match) "
            f"in {elapsed:.2f}s = {games / elapsed:,.0f} games/s"
        )
        return tournament

    def warm_up_workers(self, opts) -> None:
        """What a running server's workers have done before: played matches. A pool process's
        first task pays once for what every later one reuses (its first queries, the types
        psycopg adapts, the bots' first games): measured cold, a one-game match's claim took
        30 ms and not 12. A small round robin, in as many messages as there are workers, not
        timed."""
        for _ in range(2):
            warm_up = create_tournament(
                name="bench_stack warm-up",
                variant=opts["variant"],
                format="round-robin",
                bots=bots_named(["random"] * 4),
                games_per_match=1,
                seed=opts["seed"],
                seeding=Tournament.Seeding.ORDER,
            )
            lifecycle.start(warm_up)
            if wait_for_workers(warm_up, poll_seconds=0.02) != Tournament.Status.DONE:
                raise CommandError("the workers' warm-up tournament did not finish")

    def print_profile(self, folder: Path) -> None:
        files = sorted(str(f) for f in folder.glob("worker-*.prof"))
        if not files:
            self.stdout.write(f"no profile was written in {folder}")
            return
        out = io.StringIO()
        stats = pstats.Stats(*files, stream=out)
        stats.strip_dirs().sort_stats("cumulative").print_stats(30)
        self.stdout.write(f"the workers' tasks, profiled ({len(files)} processes):")
        self.stdout.write(out.getvalue())

    def wait_for_worker_nodes(self, count: int, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if len(app.control.ping(timeout=0.5) or []) >= count:
                return
        raise CommandError(f"{count} workers did not answer a ping within {timeout:.0f}s")

    # --- 2. the engine alone --------------------------------------------------------------
    def bench_engine(self, tournament: Tournament, opts) -> None:
        matches = Match.objects.filter(
            tournament=tournament, entrant_b__isnull=False
        ).select_related("entrant_a__bot", "entrant_b__bot")
        winner_needed = needs_winner(tournament)
        _worker_specs[:] = [
            (match_spec(tournament, m.seed, m.entrant_a.bot, m.entrant_b.bot), winner_needed)
            for m in matches
        ]
        chunks = [list(range(i, len(_worker_specs), 64)) for i in range(64)]
        connection.close()  # forked processes must not share the parent's connection
        started = time.perf_counter()
        with multiprocessing.get_context("fork").Pool(opts["workers"]) as pool:
            games = sum(pool.map(_play_chunk, chunks))
        elapsed = time.perf_counter() - started
        self.stdout.write(
            f"engine only: the same {games} games in {opts['workers']} processes in "
            f"{elapsed:.2f}s = {games / elapsed:,.0f} games/s"
        )
        self.stdout.write(
            f"orchestration overhead: whole stack / engine only = "
            f"{self.stack_seconds / elapsed:.2f}x"
        )

    # --- 3. standings of a big Swiss ------------------------------------------------------
    def bench_standings(self, opts) -> None:
        tournament = self.synthetic_swiss(opts["standings_entrants"], opts["standings_rounds"])
        samples = []
        for _ in range(opts["standings_samples"]):
            started = time.perf_counter()
            scheduling.standings(tournament)
            samples.append(time.perf_counter() - started)
        self.report_latency(
            f"standings of a {opts['standings_entrants']}-entrant, "
            f"{opts['standings_rounds']}-round Swiss (in process)",
            samples,
        )
        if opts["standings_url"]:
            url = opts["standings_url"].format(id=tournament.pk)
            client = Client(HTTP_HOST="localhost")
            samples = []
            for _ in range(opts["standings_samples"]):
                started = time.perf_counter()
                response = client.get(url)
                samples.append(time.perf_counter() - started)
                if response.status_code != 200:
                    raise CommandError(f"GET {url} answered {response.status_code}")
            self.report_latency(f"GET {url}", samples)

    def report_latency(self, label: str, samples: list[float]) -> None:
        cuts = statistics.quantiles(samples, n=100)
        self.stdout.write(
            f"{label}: p50 {cuts[49] * 1000:.1f} ms, p95 {cuts[94] * 1000:.1f} ms "
            f"over {len(samples)} calls"
        )

    def synthetic_swiss(self, entrants: int, rounds: int) -> Tournament:
        """Paired by the real format, results drawn from a fixed generator, no games played."""
        tournament = create_tournament(
            name=f"bench standings {entrants}",
            variant="paulista",
            format="swiss",
            format_options={"rounds": rounds},
            bots=bots_named(["random"] * entrants),
            seeding=Tournament.Seeding.ORDER,
            competitive=False,
        )
        lifecycle.start(tournament, publish=False)
        rng = random.Random(7)
        while True:
            pending = list(Match.objects.filter(tournament=tournament, status="pending"))
            if not pending:
                break
            for m in pending:
                m.wins_a = rng.randint(0, 10)
                m.wins_b = 10 - m.wins_a
                m.points_a, m.points_b = 12 * m.wins_a, 12 * m.wins_b
                m.games_played = 10
                m.winner_id = (
                    None
                    if m.wins_a == m.wins_b
                    else (m.entrant_a_id if m.wins_a > m.wins_b else m.entrant_b_id)
                )
                m.status = Match.Status.DONE
            Match.objects.bulk_update(
                pending,
                ["wins_a", "wins_b", "points_a", "points_b", "games_played", "winner", "status"],
            )
            scheduling.advance(tournament.pk)
        return tournament
