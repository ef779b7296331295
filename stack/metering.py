"""What a request or a table host's command costs the server (TRUCO_BENCH_METRICS=1, for the
load benchmarks: `manage.py bench_play`): SQL queries counted on the connection, wall time.
Off by default: counting wraps every query."""

from __future__ import annotations

import time
from contextlib import contextmanager
from dataclasses import dataclass, field

from django.conf import settings
from django.db import connection


@dataclass
class Meter:
    queries: int = 0
    seconds: float = 0.0
    # Where a decision's time went, for the benchmark's stages (`bench_play`): wall-clock
    # stamps (time.time(), comparable across this machine's processes) and durations, seconds.
    stamps: dict[str, float] = field(default_factory=dict)
    spent: dict[str, float] = field(default_factory=dict)

    def stamp(self, name: str) -> None:
        self.stamps[name] = time.time()

    @contextmanager
    def spending(self, name: str):
        """Add the block's wall time to `spent[name]` (a robot's thinking, say)."""
        start = time.perf_counter()
        try:
            yield
        finally:
            self.spent[name] = self.spent.get(name, 0.0) + time.perf_counter() - start

    @contextmanager
    def measuring(self):
        """Count this thread's queries and time into the meter while the block runs."""

        def count(execute, sql, params, many, context):
            self.queries += 1
            return execute(sql, params, many, context)

        start = time.perf_counter()
        try:
            with connection.execute_wrapper(count):
                yield self
        finally:
            self.seconds += time.perf_counter() - start

    def to_json(self) -> dict:
        out = {"queries": self.queries, "server_ms": round(self.seconds * 1000, 3)}
        if self.stamps:
            out["stamps"] = dict(self.stamps)
        if self.spent:
            out["spent_ms"] = {k: round(v * 1000, 3) for k, v in self.spent.items()}
        return out


def enabled() -> bool:
    return bool(getattr(settings, "TRUCO_BENCH_METRICS", False))


class QueryCountMiddleware:
    """With TRUCO_BENCH_METRICS: each answer says its queries (X-Queries), server time
    (X-Server-Ms) and when the server began it (X-Server-Start, time.time(): what the request
    waited before, for a thread of the server, is the benchmark's to tell)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        started = time.time()
        meter = Meter()
        with meter.measuring():
            response = self.get_response(request)
        response["X-Queries"] = str(meter.queries)
        response["X-Server-Ms"] = f"{meter.seconds * 1000:.3f}"
        response["X-Server-Start"] = f"{started:.6f}"
        return response
