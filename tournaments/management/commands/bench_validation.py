"""`python manage.py bench_validation [--bundle PATH ...] [--runs N]`: how long validating a
small bundle takes on this machine, from the uploaded zip to its verdict: checking the zip (what
the web process does), unpacking it (the worker), and the smoke match against `random` in the
jail in every game setting it lists (TRUCO_VALIDATION_GAMES games each). By default it measures
the examples of examples/bots/. The target is under 5 s for a small bundle. It prints numbers;
it passes or fails nothing. No database is used."""

from __future__ import annotations

import io
import statistics
import tempfile
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from engine.bundles import BundleError, LoadedBundle, bundle_spec, inspect_zip, unpack_zip
from engine.bundles.smoke import smoke_test
from engine.jail.probe import availability
from engine.plugins import registry
from submitted_bots.budgets import server_cap
from submitted_bots.bundles.limits import server_limits
from submitted_bots.bundles.operator import zipped

EXAMPLES = Path(settings.BASE_DIR) / "examples" / "bots"


def budget() -> float:
    """The smoke match's seconds per decision without a database: the setting, else the cap
    (the budget of a tournament with the default time; submitted_bots/smoke_match.py)."""
    fixed = settings.TRUCO_VALIDATION_DECISION_SECONDS
    return float(fixed) if fixed is not None else server_cap()


class Command(BaseCommand):
    help = "Time the validation of small bundles (check, unpack, smoke match in the jail)."

    def add_arguments(self, parser):
        parser.add_argument("--bundle", action="append", default=None, metavar="PATH")
        parser.add_argument("--runs", type=int, default=3, help="validations per bundle")

    def handle(self, *args, **opts):
        jail = availability()
        if not jail.ok:
            raise CommandError(f"the jail cannot be built here: {jail.reason}")
        paths = (
            [Path(p) for p in opts["bundle"]]
            if opts["bundle"]
            else sorted(p for p in EXAMPLES.iterdir() if (p / "bot.toml").exists())
        )
        self.stdout.write(
            f"validation: {settings.TRUCO_VALIDATION_GAMES} games per game setting, "
            f"{budget():g}s per decision, median of "
            f"{opts['runs']} runs"
        )
        self.stdout.write(
            f"  {'bundle':<22} {'zip':>8} {'settings':>8} {'check':>8} {'unpack':>8} "
            f"{'smoke':>8} {'total':>8}  verdict"
        )
        for path in paths:
            try:
                self.measure(path, opts["runs"])
            except BundleError as exc:
                self.stdout.write(f"  {path.name:<22} refused: {exc}")

    def measure(self, path: Path, runs: int) -> None:
        data = zipped(path)
        timings: dict[str, list[float]] = {"check": [], "unpack": [], "smoke": []}
        report = None
        for _ in range(runs):
            with tempfile.TemporaryDirectory() as scratch:
                clock = time.perf_counter()
                contents = inspect_zip(io.BytesIO(data), server_limits())
                timings["check"].append(time.perf_counter() - clock)
                clock = time.perf_counter()
                unpack_zip(io.BytesIO(data), Path(scratch) / "files", server_limits())
                timings["unpack"].append(time.perf_counter() - clock)
                bundle = LoadedBundle(Path(scratch) / "files", contents.manifest, contents)
                clock = time.perf_counter()
                report = smoke_test(
                    bundle_spec(bundle),
                    contents.manifest,
                    registry(),
                    games=settings.TRUCO_VALIDATION_GAMES,
                    decision_seconds=budget(),
                )
                timings["smoke"].append(time.perf_counter() - clock)
        median = {k: statistics.median(v) for k, v in timings.items()}
        total = sum(median.values())
        verdict = "ready" if report.ok else f"rejected: {report.reason}"
        self.stdout.write(
            f"  {contents.manifest.name:<22} {len(data) / 1024:>6.1f}KB {len(report.settings):>8} "
            f"{median['check'] * 1000:>6.1f}ms {median['unpack'] * 1000:>6.1f}ms "
            f"{median['smoke']:>7.2f}s {total:>7.2f}s  {verdict}"
        )
