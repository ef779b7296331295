"""Is a Celery worker consuming this project's queue? Asked of the workers themselves (Celery's
remote control: `active_queues`, a broadcast every worker answers with the queues it
consumes), so that a page with queued work can say "no worker is running" instead of "live".

Only workers consuming this project's queue (`CELERY_TASK_DEFAULT_QUEUE`, i.e. TRUCO_QUEUE)
count: other projects' workers on the same broker are ignored. A request never waits for the
broadcast: a daemon thread of the process asks every TRUCO_WORKER_CHECK_SECONDS (default 5;
0 turns the check off) and requests read its latest answer; only the very first request of a
process waits for one answer (at most REPLY_SECONDS).
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings

log = logging.getLogger(__name__)

REPLY_SECONDS = 1.0  # how long a broadcast waits for the workers' answers


@dataclass(frozen=True)
class Health:
    alive: bool | None  # None: not checked (the check is off)
    detail: str
    workers: tuple[str, ...] = ()
    checked_at: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"alive": self.alive, "detail": self.detail, "workers": list(self.workers)}


NOT_CHECKED = Health(None, "worker health is not checked (TRUCO_WORKER_CHECK_SECONDS=0)")


def queue_name() -> str:
    return settings.CELERY_TASK_DEFAULT_QUEUE


def check_seconds() -> float:
    return float(getattr(settings, "TRUCO_WORKER_CHECK_SECONDS", 5))


def probe(timeout: float = REPLY_SECONDS) -> Health:
    """Ask the workers now (waits up to `timeout`)."""
    from config.celery import app

    queue = queue_name()
    try:
        replies = app.control.inspect(timeout=timeout).active_queues() or {}
    except Exception as exc:  # the broker itself is unreachable
        return Health(False, f"the broker cannot be reached ({type(exc).__name__}: {exc})")
    ours = sorted(
        name
        for name, queues in replies.items()
        if any(q.get("name") == queue for q in queues or ())
    )
    now = time.time()
    if ours:
        return Health(True, f"{len(ours)} worker(s) on queue {queue!r}", tuple(ours), now)
    return Health(
        False,
        f"no worker is running on queue {queue!r}: queued work waits until one starts "
        "(`celery -A config worker`, or `python manage.py demo`)",
        (),
        now,
    )


class _Monitor:
    """The latest answer, refreshed by a daemon thread of this process."""

    def __init__(self):
        self.latest: Health | None = None
        self.first = threading.Event()
        self.lock = threading.Lock()
        self.thread: threading.Thread | None = None

    def current(self) -> Health:
        every = check_seconds()
        if every <= 0:
            return NOT_CHECKED
        with self.lock:
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(
                    target=self._run, args=(every,), name="worker-health", daemon=True
                )
                self.thread.start()
        self.first.wait(REPLY_SECONDS + 1.0)  # only the first request of a process waits
        return self.latest or Health(None, "checking for workers")

    def _run(self, every: float) -> None:
        while True:
            try:
                self.latest = probe()
            except Exception:  # never let the monitor die of a passing fault
                log.exception("worker health: the check failed")
            self.first.set()
            time.sleep(every)


_monitor = _Monitor()


def status() -> dict[str, Any]:
    """`{"alive": bool | None, "detail": str, "workers": [...]}` for payloads."""
    return _monitor.current().to_json()
