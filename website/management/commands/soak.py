"""`python manage.py soak`: the demo's mix for a while, then what it saw.

On the configured database and broker (the embedded default, or PostgreSQL and Redis with
DATABASE_URL and CELERY_BROKER_URL): a supervised Celery worker and a web server of its own,
tournaments of the built-in bots one after another (the demo's: a Swiss of every registered
bot, 10 games a match), and several simulated people at practice tables against a bot, with a
short turn timer, through the HTTP API (tables/simulated_human.py). The sweep runs as in the
demo. It prints worker restarts (target 0), tasks lost (target 0: bot matches never finished,
bot replies that took longer than the stall limit, which means their message was lost) and the
50th/95th percentile of a person's action to the table showing the bots' replies (target p95
at most 150 ms with heuristic bots). It prints numbers; it passes or fails nothing.
"""

from __future__ import annotations

import json
import statistics
import threading
import time
import uuid
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from rest_framework.authtoken.models import Token

from engine.plugins import registry
from stack.supervision import WorkerSupervisor
from stack.web_process import start_web_server, stop_web_server
from stack.workers import wait_until_ready
from tables.services import BOT_STALL_SECONDS
from tables.simulated_human import Habits, SimulatedHuman
from tournaments import lifecycle
from tournaments.builders import bots_named, create_tournament
from tournaments.models import Match, Tournament
from website.management.commands.demo import demo_workers
from website.periodic import periodic_jobs

DEMO_SIZE = 8


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


class Command(BaseCommand):
    help = __doc__.split("\n\n")[0].split(": ", 1)[1]

    def add_arguments(self, parser):
        parser.add_argument("--minutes", type=float, default=10.0)
        parser.add_argument("--tables", type=int, default=4, help="simulated people, a table each")
        parser.add_argument("--turn-seconds", type=int, default=3)
        parser.add_argument("--bot", default="heuristic", help="the people's opponent")
        parser.add_argument("--games", type=int, default=10, help="games a tournament match")
        parser.add_argument("--workers", type=int, default=2, help="worker processes")
        parser.add_argument("--port", type=int, default=8765)
        parser.add_argument("--json", action="store_true", help="also print one JSON line")

    def handle(self, *args, **opts):
        if opts["minutes"] <= 0 or opts["tables"] < 0 or opts["turn_seconds"] < 1:
            raise CommandError(
                "--minutes must be positive, --tables at least 0, --turn-seconds at least 1",
                returncode=2,
            )
        if opts["bot"] not in registry().bots:
            raise CommandError(f"unknown bot {opts['bot']!r}", returncode=2)
        var_dir = Path(settings.VAR_DIR)
        var_dir.mkdir(parents=True, exist_ok=True)
        call_command("migrate", interactive=False, verbosity=0)
        self.say(f"soak: {opts['minutes']:g} min on {self.shape()}")
        supervisor = WorkerSupervisor(
            demo_workers(opts["workers"], var_dir / "soak-worker.log"),
            lambda text: self.stderr.write(text, style_func=self.style.ERROR),
            var_dir / "soak-worker.log",
            periodic=periodic_jobs(),
        )
        web = None
        try:
            for worker in supervisor.workers.values():
                wait_until_ready(worker)
            web = start_web_server(opts["port"], var_dir / "soak-web.log")
            report = self.soak(supervisor, f"http://127.0.0.1:{opts['port']}", opts)
        finally:
            if web is not None:
                stop_web_server(web)
            supervisor.stop()
        self.print_report(report, opts["json"])

    def shape(self) -> str:
        db = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
        broker = settings.CELERY_BROKER_URL.split("://", 1)[0]
        return f"{db} + {'embedded folder broker' if broker == 'filesystem' else broker}"

    def say(self, text: str) -> None:
        self.stdout.write(text)
        self.stdout.flush()

    # --- the mix ---------------------------------------------------------------------------

    def soak(self, supervisor: WorkerSupervisor, url: str, opts) -> dict:
        started = time.monotonic()
        stop_at = started + opts["minutes"] * 60
        habits = Habits(bot=opts["bot"], turn_seconds=opts["turn_seconds"])
        humans = [SimulatedHuman(url, self.token(i), habits, seed=i) for i in range(opts["tables"])]
        threads = [threading.Thread(target=h.run, args=(stop_at,), daemon=True) for h in humans]
        for thread in threads:
            thread.start()
        tournaments: list[int] = []
        resent = 0
        next_line = started + 60
        while time.monotonic() < stop_at:
            supervisor.check()
            resent += supervisor.sweep_if_due()
            if not tournaments or self.finished(tournaments[-1]):
                tournaments.append(self.start_tournament(opts["games"]))
            if time.monotonic() >= next_line:
                next_line += 60
                self.progress_line(started, humans, tournaments, supervisor)
            time.sleep(0.2)
        for thread in threads:
            thread.join(60)
        unfinished = self.drain(tournaments[-1], supervisor) if tournaments else 0
        latencies = [x for h in humans for x in h.stats.latencies]
        requests = [x for h in humans for x in h.stats.requests]
        return {
            "shape": self.shape(),
            "minutes": round((time.monotonic() - started) / 60, 2),
            "worker_restarts": supervisor.restarts,
            "tournaments": len(tournaments),
            "matches_played": Match.objects.filter(
                tournament_id__in=tournaments, status=Match.Status.DONE
            ).count(),
            "matches_unfinished": unfinished,
            "matches_resent_by_sweep": resent,
            "human_actions": len(latencies),
            "human_tables_finished": sum(h.stats.tables for h in humans),
            "turn_timer_plays": sum(h.stats.timers for h in humans),
            "stale_actions_409": sum(h.stats.conflicts for h in humans),
            "bot_replies_stalled": sum(1 for x in latencies if x > BOT_STALL_SECONDS),
            "tasks_lost": unfinished + sum(1 for x in latencies if x > BOT_STALL_SECONDS),
            "reply_ms_p50": round(percentile(latencies, 50) * 1000, 1),
            "reply_ms_p95": round(percentile(latencies, 95) * 1000, 1),
            "reply_ms_max": round(max(latencies, default=float("nan")) * 1000, 1),
            "act_request_ms_p50": round(percentile(requests, 50) * 1000, 1),
            "act_request_ms_p95": round(percentile(requests, 95) * 1000, 1),
            "errors": [e for h in humans for e in h.stats.errors][:10],
        }

    def token(self, index: int) -> str:
        name = f"soak-{index}-{uuid.uuid4().hex[:6]}"
        user = get_user_model().objects.create_user(name, password=uuid.uuid4().hex)
        return Token.objects.create(user=user).key

    def start_tournament(self, games: int) -> int:
        names = sorted(registry().bots)
        names += ["random"] * max(0, DEMO_SIZE - len(names))
        tournament = create_tournament(
            name=f"Soak: swiss of the built-in bots ({time.strftime('%H:%M:%S')})",
            variant="paulista",
            format="swiss",
            bots=bots_named(names),
            games_per_match=games,
        )
        lifecycle.start(tournament)
        return tournament.pk

    def finished(self, tournament_id: int) -> bool:
        status = Tournament.objects.values_list("status", flat=True).get(pk=tournament_id)
        return status != Tournament.Status.RUNNING

    def drain(self, tournament_id: int, supervisor: WorkerSupervisor, seconds: float = 120):
        """Let the last tournament end; the bot matches still unfinished then."""
        deadline = time.monotonic() + seconds
        while not self.finished(tournament_id) and time.monotonic() < deadline:
            supervisor.check()
            supervisor.sweep_if_due()
            time.sleep(0.5)
        return Match.objects.filter(
            tournament_id=tournament_id,
            status__in=Match.UNFINISHED,
            entrant_a__bot__isnull=False,
            entrant_b__bot__isnull=False,
        ).count()

    def progress_line(self, started, humans, tournaments, supervisor) -> None:
        latencies = [x for h in humans for x in h.stats.latencies]
        self.say(
            f"  {(time.monotonic() - started) / 60:4.1f} min: {len(latencies)} actions, "
            f"p95 {percentile(latencies, 95) * 1000:.0f} ms, {len(tournaments)} tournaments, "
            f"{supervisor.restarts} worker restarts"
        )

    def print_report(self, report: dict, as_json: bool) -> None:
        width = max(map(len, report))
        for key, value in report.items():
            if key != "errors":
                self.say(f"{key:<{width}}  {value}")
        for error in report["errors"]:
            self.say(f"error: {error}")
        if as_json:
            self.say(json.dumps(report))
