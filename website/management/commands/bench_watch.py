"""`python manage.py bench_watch`: N spectators at once on one running bot match's live view
(the page's WebSocket, tournaments/watch.py), on the embedded default or the production shape
started for the run (website/bench/shapes.py), while a worker plays the match.

It prints how many spectators connected and saw the match end, the views written and received,
how late a view reached a spectator after the worker wrote it (p50/p95/p99), and the servers'
CPU a second of watching.

    python manage.py bench_watch --shape production --spectators 500
    python manage.py bench_watch --shape embedded --spectators 100
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time

from django.core.management.base import BaseCommand, CommandError

from website.bench import shapes
from website.bench.spectators import crowd
from website.management.commands.bench_play import percentile, shapes_cpu

RUNNING_SCRIPT = """
from tournaments.models import Match
print("RUNNING", Match.objects.filter(status="running").values_list("pk", flat=True).first())
"""


class Command(BaseCommand):
    help = "Load benchmark of live spectating: N spectators of one running bot match, figures."

    def add_arguments(self, parser):
        parser.add_argument("--shape", choices=["embedded", "production"], default="embedded")
        parser.add_argument("--spectators", type=int, default=100)
        parser.add_argument("--seconds", type=float, default=120.0, help="of watching, at most")
        parser.add_argument(
            "--bots",
            default="mcts*2",
            help="the match's two bots, as run_tournament takes them (a slow bot: a long match)",
        )
        parser.add_argument("--games", type=int, default=8, help="games of the match")
        parser.add_argument("--table-hosts", type=int, default=1)
        parser.add_argument(
            "--database-url", default="postgres://postgres@127.0.0.1:5432/truco_bench"
        )
        parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/7")

    def handle(self, *args, **opts):
        if opts["spectators"] < 1:
            raise CommandError("--spectators must be at least 1", returncode=2)
        self.stdout.write(f"starting the {opts['shape']} shape...")
        if opts["shape"] == "embedded":
            shape = shapes.embedded()
        else:
            shape = shapes.production(opts["table_hosts"], opts["database_url"], opts["redis_url"])
        try:
            self.run(shape, opts)
        finally:
            shape.stop()
            self.stdout.write(f"logs in {shape.folder}")

    def run(self, shape: shapes.Shape, opts) -> None:
        # The tournament of one match, played by the shape's worker (--external).
        shape.spawn(
            [
                sys.executable,
                "manage.py",
                "run_tournament",
                "--bots",
                *opts["bots"].split(),
                "--games",
                str(opts["games"]),
                "--format",
                "round-robin",
                "--practice",
                "--external",
                "--timeout",
                str(int(opts["seconds"]) + 600),
            ],
            "tournament.log",
            server=False,
        )
        match_id = self.running_match(shape, 120.0)
        self.stdout.write(f"match {match_id} running; {opts['spectators']} spectators join")
        cpu_before, start = shapes_cpu(shape), time.monotonic()
        watched = asyncio.run(
            crowd(shape.ws_base, shape.base, match_id, opts["spectators"], opts["seconds"])
        )
        wall = time.monotonic() - start
        cpu = shapes_cpu(shape) - cpu_before
        lags = [1000 * s for s in watched.lags]
        self.stdout.write(
            f"\n{opts['shape']} shape, {opts['spectators']} spectators of one match "
            f"({opts['bots']}), {wall:.1f} s"
        )
        self.stdout.write(f"errors             {len(watched.errors)}")
        for error in watched.errors[:5]:
            self.stdout.write(f"  {error[:200]}")
        self.stdout.write(f"saw the match end  {watched.ended}/{opts['spectators']}")
        received = watched.views or [0]
        self.stdout.write(
            f"views              {len(watched.written)} written and seen; each spectator "
            f"received min {min(received)}, mean {statistics.mean(received):.1f}"
        )
        self.stdout.write(
            f"written -> seen    p50 {percentile(lags, 0.5):.0f} ms  p95 "
            f"{percentile(lags, 0.95):.0f} ms  p99 {percentile(lags, 0.99):.0f} ms  "
            f"max {max(lags or [0]):.0f} ms  ({len(lags)} views delivered)"
        )
        self.stdout.write(
            f"server CPU         {cpu:.1f} s in {wall:.0f} s: {cpu / wall:.2f} cores "
            "(the web and push servers, table hosts: not the worker that plays the match)"
        )

    def running_match(self, shape: shapes.Shape, seconds: float) -> int:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            found = shape.manage("shell", "-c", RUNNING_SCRIPT).split("RUNNING", 1)[1].strip()
            if found != "None":
                return int(found)
            time.sleep(1.0)
        raise CommandError(f"no match was running after {seconds:g} s (logs in {shape.folder})")
