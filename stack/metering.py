"""What a request or a table host's command costs the server (TRUCO_BENCH_METRICS=1, for the
load benchmarks: `manage.py bench_play`): SQL queries counted on the connection, wall time.
Off by default: counting wraps every query."""

from __future__ import annotations

import time
from contextlib import contextmanager
from dataclasses import dataclass

from django.conf import settings
from django.db import connection


@dataclass
class Meter:
    queries: int = 0
    seconds: float = 0.0

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
        return {"queries": self.queries, "server_ms": round(self.seconds * 1000, 3)}


def enabled() -> bool:
    return bool(getattr(settings, "TRUCO_BENCH_METRICS", False))


class QueryCountMiddleware:
    """With TRUCO_BENCH_METRICS: each answer says its queries (X-Queries) and server time
    (X-Server-Ms)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        meter = Meter()
        with meter.measuring():
            response = self.get_response(request)
        response["X-Queries"] = str(meter.queries)
        response["X-Server-Ms"] = f"{meter.seconds * 1000:.3f}"
        return response
