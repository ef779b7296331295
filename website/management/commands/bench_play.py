"""`python manage.py bench_play`: N simulated people at once, each at a table of their own
against one bot, playing whole games through the push channel (or the REST API), on the
embedded default or the production shape started for the run (website/bench/shapes.py).

It prints games ended, errors, actions a second, the time from a person's decision to their next
decision (p50/p95/p99), the server's CPU per action, and the queries and server time of each
kind of request (the meters of stack/metering.py).

    python manage.py bench_play --shape production --people 100 --think 1 --bot js
    python manage.py bench_play --shape embedded --people 20 --think 1 --bot heuristic
    python manage.py bench_play --shape production --people 100 --think 1 --bot people

With `--bot people` the people play each other, two at a table of people: one opens it, the
other sits, the first deals (the writes counted too); a decision is timed to the moment
whoever decides next sees it.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import statistics
import time
import urllib.request
import uuid
import zipfile
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from website.bench import shapes
from website.bench.people import Person, crowd

EXAMPLE_JS_BOT = Path(__file__).resolve().parents[3] / "examples" / "bots" / "node-greedy"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def process_tree_cpu(roots: list[int]) -> float:
    """CPU seconds used by the processes `roots` and everything under them (reaped children's
    included, as the kernel adds them to their parent)."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(entry)
        parents[pid] = int(fields[1])
        times[pid] = sum(int(v) for v in fields[11:15]) / CLOCK_TICKS  # utime stime cu cs
    wanted = set(roots)
    grew = True
    while grew:
        grew = False
        for pid, parent in parents.items():
            if parent in wanted and pid not in wanted:
                wanted.add(pid)
                grew = True
    return sum(times.get(pid, 0.0) for pid in wanted)


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def bundle_zip(folder: Path) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for path in sorted(folder.iterdir()):
            if path.is_file():
                archive.write(path, path.name)
    return out.getvalue()


def upload(base: str, token: str, zipped: bytes) -> dict:
    boundary = uuid.uuid4().hex
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="bundle"; filename="bot.zip"\r\n'
            "Content-Type: application/zip\r\n\r\n"
        ).encode()
        + zipped
        + f"\r\n--{boundary}--\r\n".encode()
    )
    request = urllib.request.Request(f"{base}/api/bots/", data=body, method="POST")
    request.add_header("Authorization", f"Token {token}")
    request.add_header("Content-Type", f"multipart/form-data; boundary={boundary}")
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read())


def wait_ready(base: str, token: str, bot_id: int, seconds: float = 180) -> None:
    deadline = time.monotonic() + seconds
    status = "?"
    while time.monotonic() < deadline:
        request = urllib.request.Request(f"{base}/api/bots/{bot_id}/")
        request.add_header("Authorization", f"Token {token}")
        with urllib.request.urlopen(request, timeout=30) as answer:
            status = json.loads(answer.read()).get("status")
        if status == "ready":
            return
        if status not in ("validating", "pending", "queued"):
            raise CommandError(f"the uploaded bot is {status}, not ready")
        time.sleep(1)
    raise CommandError(f"the uploaded bot was still {status} after {seconds:g} s")


class Command(BaseCommand):
    help = "Load benchmark of the tables: N simulated people at once, whole games, figures."

    def add_arguments(self, parser):
        shapes.add_arguments(parser, table_hosts=2)
        parser.add_argument("--people", type=int, default=20)
        parser.add_argument("--think", type=float, default=1.0, help="seconds a decision")
        parser.add_argument(
            "--bot",
            default="js",
            help="js (an uploaded JavaScript bundle), a built-in bot, or people: the people "
            "play each other, two at a table (one opens it, the other sits, the first deals)",
        )
        parser.add_argument("--transport", choices=["push", "rest"], default="push")
        parser.add_argument(
            "--rest-wait",
            type=float,
            default=5.0,
            help="over REST, while the robots think: GET ?wait= this many seconds, as "
            "docs/api-and-play.md tells scripts to (0: a GET every 50 ms instead)",
        )
        parser.add_argument(
            "--watchers",
            type=int,
            default=0,
            help="signed-out spectators of each person's table (a WebSocket each)",
        )
        parser.add_argument("--variant", default="paulista")
        parser.add_argument("--limit", type=float, default=300.0, help="seconds at most")

    def handle(self, *args, **opts):
        if opts["people"] < 1:
            raise CommandError("--people must be at least 1", returncode=2)
        if opts["bot"] == "people" and (opts["people"] % 2 or opts["transport"] != "push"):
            raise CommandError(
                "--bot people: an even number of people, two at a table, over push (their "
                "pages; a script at a table of people polls: docs/api-and-play.md)",
                returncode=2,
            )
        with shapes.running(opts, self.stdout.write) as shape:
            self.run(shape, opts)

    def run(self, shape: shapes.Shape, opts) -> None:
        names = [f"person{i}" for i in range(opts["people"])] + ["author"]
        rows = shape.people(names)
        author = rows.pop()
        bot: str | int = opts["bot"]
        if bot == "js":
            made = upload(shape.base, author[1], bundle_zip(EXAMPLE_JS_BOT))
            wait_ready(shape.base, author[1], made["id"])
            bot = made["id"]
            self.stdout.write(f"uploaded {made.get('label') or made.get('name')}: ready")
        people = [Person(*row) for row in rows]
        against_people = bot == "people"
        quick = {
            "variant": opts["variant"],
            "bot": "" if against_people else bot,
            "turn_seconds": 60,
        }
        cpu_before = shapes_cpu(shape)
        tally, wall = asyncio.run(
            crowd(
                shape.base,
                shape.ws_base,
                people,
                quick,
                opts["transport"],
                opts["think"],
                opts["limit"],
                opts["rest_wait"],
                opts["watchers"],
                people_tables=against_people,
            )
        )
        cpu = shapes_cpu(shape) - cpu_before
        transport = opts["transport"]
        if transport == "rest":
            wait = opts["rest_wait"]
            transport += f" (GET ?wait={wait:g} while the robots think)" if wait else " (polled)"
        ms = [1000 * s for s in tally.latencies]
        self.stdout.write(
            f"\n{opts['shape']} shape, {len(people)} people, {transport}, bot {opts['bot']}, "
            f"thinking {opts['think']:g} s a decision"
        )
        self.stdout.write(f"games ended        {tally.games_ended}/{len(people)} in {wall:.1f} s")
        self.stdout.write(f"errors             {len(tally.errors)}")
        for error in tally.errors[:5]:
            self.stdout.write(f"  {error[:200]}")
        self.stdout.write(f"actions            {tally.actions} ({tally.actions / wall:.1f}/s)")
        if against_people:
            self.stdout.write(
                "  (at tables of people: from a decision to the moment whoever decides next "
                "sees it)"
            )
        self.stdout.write(
            f"decision -> next   p50 {percentile(ms, 0.5):.0f} ms  p95 {percentile(ms, 0.95):.0f} ms  p99 {percentile(ms, 0.99):.0f} ms  max {max(ms or [0]):.0f} ms"
        )
        steady = [1000 * s for s in tally.once_everyone_plays()]
        self.stdout.write(
            f"  once all play    p50 {percentile(steady, 0.5):.0f} ms  p95 {percentile(steady, 0.95):.0f} ms  p99 {percentile(steady, 0.99):.0f} ms  ({len(steady)} decisions after every person's first)"
        )
        if tally.actions:
            self.stdout.write(
                f"server CPU         {cpu:.1f} s, {1000 * cpu / tally.actions:.1f} ms an action "
                "(robots' processes included)"
            )
        if opts["watchers"]:
            watched = tally.watched or [0]
            self.stdout.write(
                f"spectators         {len(tally.watched)} ({opts['watchers']} a table): "
                f"{tally.watchers_saw_end} saw their table's game end, states received mean "
                f"{statistics.mean(watched):.1f} (min {min(watched)}), "
                f"{len(tally.watcher_errors)} errors"
            )
            for error in tally.watcher_errors[:3]:
                self.stdout.write(f"  {error[:200]}")
        if tally.stages:
            self.write_stages(tally.stages)
        for kind, meters in sorted(tally.meters.items()):
            queries = [m["queries"] for m in meters]
            server = [m["server_ms"] for m in meters]
            self.stdout.write(
                f"{kind:<18} {len(meters)} requests: queries mean {statistics.mean(queries):.1f} "
                f"max {max(queries)}; server time p50 {percentile(server, 0.5):.1f} ms "
                f"p95 {percentile(server, 0.95):.1f} ms"
            )

    def write_stages(self, stages: list[dict[str, float]]) -> None:
        """Where a decision's time goes, stage by stage (the host's stamps, this
        machine's clock): p50, p95 and the mean of each, and each stage's share of the
        slowest twentieth of decisions (what to make faster for the p95)."""
        slow = sorted(stages, key=lambda s: s["total"])[int(0.95 * len(stages)) :]
        self.stdout.write(
            f"stages of a decision ({len(stages)} decisions)   p50     p95    mean  "
            "share of the slowest 5%"
        )
        slow_total = sum(s["total"] for s in slow) or 1.0
        for name in stages[0]:
            values = [s[name] for s in stages]
            share = (
                "" if name == "total" else f"{100 * sum(s[name] for s in slow) / slow_total:5.1f}%"
            )
            self.stdout.write(
                f"  {name:<28} {percentile(values, 0.5):7.1f} {percentile(values, 0.95):7.1f} "
                f"{statistics.mean(values):7.1f}  {share}"
            )


def shapes_cpu(shape: shapes.Shape) -> float:
    return process_tree_cpu([p.pid for p in shape.servers if p.poll() is None])
