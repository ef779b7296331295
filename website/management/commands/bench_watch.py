"""`python manage.py bench_watch`: N spectators at once on one running bot match's live view
(the page's WebSocket, tournaments/watch.py), and M followers of its tournament's page (its
standings and bracket asked every few seconds, as the page does), on the embedded default or
the production shape started for the run (website/bench/shapes.py), while a worker plays it.

It prints how many spectators connected and saw the match end, the views written and received,
how late a view reached a spectator after the worker wrote it (p50/p95/p99), how long a
follower's look took, and the servers' CPU a second.

    python manage.py bench_watch --shape production --spectators 500
    python manage.py bench_watch --shape production --spectators 0 --followers 500 --games 40
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time

from django.core.management.base import BaseCommand, CommandError

from website.bench import shapes
from website.bench.spectators import Watched, crowd, followers
from website.management.commands.bench_play import percentile, shapes_cpu

RUNNING_SCRIPT = """
from tournaments.models import Match
running = Match.objects.filter(status="running").values_list("pk", "tournament_id").first()
print("RUNNING", *(running or ["None"]))
"""


class Command(BaseCommand):
    help = "Load benchmark of live spectating: N spectators of one running bot match, figures."

    def add_arguments(self, parser):
        shapes.add_arguments(parser, table_hosts=1)
        parser.add_argument("--spectators", type=int, default=100)
        parser.add_argument(
            "--followers", type=int, default=0, help="of the tournament's page (its standings)"
        )
        parser.add_argument(
            "--every", type=float, default=3.0, help="seconds between a follower's looks"
        )
        parser.add_argument("--seconds", type=float, default=120.0, help="of watching, at most")
        parser.add_argument(
            "--bots",
            default="mcts*2",
            help="the match's two bots, as run_tournament takes them (a slow bot: a long match)",
        )
        parser.add_argument("--games", type=int, default=8, help="games of the match")

    def handle(self, *args, **opts):
        if opts["spectators"] < 0 or opts["followers"] < 0:
            raise CommandError("--spectators and --followers may not be negative", returncode=2)
        if opts["spectators"] + opts["followers"] == 0:
            raise CommandError("no spectator and no follower: nothing to measure", returncode=2)
        with shapes.running(opts, self.stdout.write) as shape:
            self.run(shape, opts)

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
        match_id, tournament_id = self.running_match(shape, 120.0)
        self.stdout.write(
            f"match {match_id} running; {opts['spectators']} spectators and "
            f"{opts['followers']} followers of tournament {tournament_id} join"
        )
        cpu_before, start, client_before = shapes_cpu(shape), time.monotonic(), time.process_time()

        async def everyone() -> tuple[Watched, Watched]:
            return await asyncio.gather(
                crowd(shape.ws_base, shape.base, match_id, opts["spectators"], opts["seconds"]),
                followers(
                    shape.base, tournament_id, opts["followers"], opts["seconds"], opts["every"]
                ),
            )

        watched, followed = asyncio.run(everyone())
        wall = time.monotonic() - start
        cpu = shapes_cpu(shape) - cpu_before
        client = time.process_time() - client_before
        self.stdout.write(
            f"\n{opts['shape']} shape, {opts['spectators']} spectators of one match "
            f"({opts['bots']}), {opts['followers']} followers of its tournament, {wall:.1f} s"
        )
        if opts["spectators"]:
            self.write_spectators(watched, opts["spectators"])
        if opts["followers"]:
            looks = [1000 * s for s in followed.follows]
            self.stdout.write(
                f"followers          {len(looks)} looks (standings and bracket in one request, every "
                f"{opts['every']:g} s), {len(followed.follow_errors)} errors; a look p50 "
                f"{percentile(looks, 0.5):.0f} ms  p95 {percentile(looks, 0.95):.0f} ms  "
                f"p99 {percentile(looks, 0.99):.0f} ms"
            )
            for error in followed.follow_errors[:3]:
                self.stdout.write(f"  {error[:200]}")
        self.stdout.write(
            f"server CPU         {cpu:.1f} s in {wall:.0f} s: {cpu / wall:.2f} cores "
            "(the web and push servers, table hosts: not the worker that plays the match)"
        )
        self.stdout.write(
            f"the crowd's CPU    {client:.1f} s: {client / wall:.2f} cores (this process, the "
            "simulated people: on the same machine, they take from the servers)"
        )

    def write_spectators(self, watched: Watched, spectators: int) -> None:
        lags = [1000 * s for s in watched.lags]
        self.stdout.write(f"errors             {len(watched.errors)}")
        for error in watched.errors[:5]:
            self.stdout.write(f"  {error[:200]}")
        self.stdout.write(f"saw the match end  {watched.ended}/{spectators}")
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

    def running_match(self, shape: shapes.Shape, seconds: float) -> tuple[int, int]:
        """(match, tournament) of the first match running."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            found = shape.manage("shell", "-c", RUNNING_SCRIPT).split("RUNNING", 1)[1].split()
            if found != ["None"]:
                return int(found[0]), int(found[1])
            time.sleep(1.0)
        raise CommandError(f"no match was running after {seconds:g} s (logs in {shape.folder})")
