"""Keeping the demo's Celery worker alive, and its sweep running, for as long as it serves.

A worker that dies (an unrecoverable broker error, the OOM killer, a stray `kill`) is started
again at once, and the console says so loudly, with the end of its log: a demo must never sit
at "live" with nobody playing. The periodic work the compose file leaves to Celery beat (the
sweep of tournaments/dispatch.py, given as `periodic`) runs here, so that matches of a dead
worker and messages the broker lost are sent again on the embedded default too. This module
knows processes, not tournaments: what to run periodically is its caller's.
"""

from __future__ import annotations

import logging
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from stack.workers import stop_worker

log = logging.getLogger(__name__)

LOG_LINES = 5  # of a dead worker's log, shown on the console


def last_lines(path: Path | None, count: int = LOG_LINES) -> list[str]:
    if path is None or not path.exists():
        return []
    with open(path, "rb") as log_file:
        log_file.seek(0, 2)
        log_file.seek(max(0, log_file.tell() - 8192))
        tail = log_file.read().decode(errors="replace").splitlines()
    return [line for line in tail if line.strip()][-count:]


class WorkerSupervisor:
    """Owns the worker processes (by name: `start` functions): `check()` restarts one that
    died; `sweep_if_due()` runs the `periodic` jobs ((seconds, function) pairs: what Celery beat
    runs in the production shape), each when it is due. Call both often (the demo does, twice
    a second)."""

    def __init__(
        self,
        start: Callable[[], subprocess.Popen] | dict[str, Callable[[], subprocess.Popen]],
        warn: Callable[[str], None],
        log_path: Path | None = None,
        pid_file: Path | None = None,
        periodic: Sequence[tuple[float, Callable[[], int]]] = (),
    ):
        self.starts = start if isinstance(start, dict) else {"worker": start}
        self.warn = warn
        self.log_path = log_path
        self.pid_file = pid_file  # the running workers' process ids, for operators
        self.workers = {name: begin() for name, begin in self.starts.items()}
        self._write_pids()
        self.restarts = 0
        now = time.monotonic()
        # [every, function, next time due]
        self.jobs = [
            [max(1.0, float(every)), job, now + max(1.0, float(every))] for every, job in periodic
        ]

    @property
    def worker(self) -> subprocess.Popen:
        """The first worker (the only one, for most callers)."""
        return next(iter(self.workers.values()))

    def check(self) -> bool:
        """True if a worker had died (it runs again now)."""
        died = False
        for name, worker in list(self.workers.items()):
            code = worker.poll()
            if code is None:
                continue
            died = True
            self.restarts += 1
            lines = "\n".join(f"        {line}" for line in last_lines(self.log_path))
            where = f" ({self.log_path})" if self.log_path else ""
            label = "THE WORKER" if len(self.workers) == 1 else f"THE {name.upper()} WORKER"
            self.warn(
                f"!!! {label} DIED (exit code {code}); restarting it (restart #{self.restarts})."
                f"\n    The end of its log{where}:\n{lines or '        (empty)'}"
            )
            self.workers[name] = self.starts[name]()
        if died:
            self._write_pids()
        return died

    def _write_pids(self) -> None:
        if self.pid_file is not None:
            self.pid_file.write_text("".join(f"{w.pid}\n" for w in self.workers.values()))

    def sweep_if_due(self) -> int:
        """Run the periodic jobs that are due; the sum of what they returned."""
        now = time.monotonic()
        done = 0
        for entry in self.jobs:
            every, job, due = entry
            if now < due:
                continue
            entry[2] = now + every
            try:
                done += job() or 0
            except Exception:  # the database is busy or gone: the next sweep tries again
                log.exception("the periodic job %s failed", getattr(job, "__qualname__", job))
        return done

    def stop(self, *, idle: bool = False) -> None:
        for worker in self.workers.values():
            stop_worker(worker, idle=idle)
        if self.pid_file is not None:
            self.pid_file.unlink(missing_ok=True)
