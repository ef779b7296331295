"""Is a Celery worker consuming this project's queue? Asked of the workers themselves (Celery's
remote control: `active_queues`, a broadcast every worker answers with the queues it
consumes), so that a page with queued work can say "no worker is running" instead of "live".

Only workers consuming this project's queue (TRUCO_QUEUE) count: other projects' workers on the
same broker are ignored. A request never waits for the
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

from celery import current_app as app  # the project's app (config/celery.py)
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


def check_seconds() -> float:
    return float(getattr(settings, "TRUCO_WORKER_CHECK_SECONDS", 5))


@dataclass(frozen=True)
class Answers:
    """What the workers answered to one broadcast: each one's queues; or why nobody could."""

    queues: dict[str, set[str]]
    error: str = ""
    at: float = 0.0

    def health(self, queue: str) -> Health:
        if self.error:
            return Health(False, self.error, (), self.at)
        ours = tuple(sorted(name for name, queues in self.queues.items() if queue in queues))
        if ours:
            return Health(True, f"{len(ours)} worker(s) on queue {queue!r}", ours, self.at)
        return Health(
            False,
            f"no worker is running on queue {queue!r}: queued work waits until one starts "
            "(`celery -A config worker`, or `python manage.py demo`)",
            (),
            self.at,
        )


def ask_workers(timeout: float = REPLY_SECONDS) -> Answers:
    """Broadcast `active_queues` and wait `timeout` for the answers."""

    try:
        replies = app.control.inspect(timeout=timeout).active_queues() or {}
    except Exception as exc:  # the broker itself is unreachable
        return Answers(
            {}, f"the broker cannot be reached ({type(exc).__name__}: {exc})", time.time()
        )
    return Answers(
        {name: {q.get("name") for q in queues or ()} for name, queues in replies.items()},
        at=time.time(),
    )


def probe(timeout: float = REPLY_SECONDS, queue: str | None = None) -> Health:
    """Ask the workers now (waits up to `timeout`) about `queue` (default TRUCO_QUEUE)."""
    return ask_workers(timeout).health(queue or settings.CELERY_TASK_DEFAULT_QUEUE)


class _Monitor:
    """The latest answer, refreshed by a daemon thread of this process."""

    def __init__(self):
        self.latest: Answers | None = None
        self.first = threading.Event()
        self.lock = threading.Lock()
        self.thread: threading.Thread | None = None

    def current(self, queue: str) -> Health:
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
        if self.latest is None:
            return Health(None, "checking for workers")
        return self.latest.health(queue)

    def _run(self, every: float) -> None:
        while True:
            try:
                self.latest = ask_workers()
            except Exception:  # never let the monitor die of a passing fault
                log.exception("worker health: the check failed")
            self.first.set()
            time.sleep(every)


_monitor = _Monitor()


def status(queue: str | None = None) -> dict[str, Any]:
    """`{"alive": bool | None, "detail": str, "workers": [...]}` for payloads: is a worker
    consuming `queue` (default TRUCO_QUEUE)?"""
    return _monitor.current(queue or settings.CELERY_TASK_DEFAULT_QUEUE).to_json()
