"""Starting and stopping Celery worker processes for the commands that bring their own
(`demo`, `run_tournament --workers N`, `bench_stack`) and for the tests."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

from django.conf import settings

PROJECT_DIR = Path(settings.BASE_DIR)


def worker_command(
    concurrency: int = 1,
    name: str | None = None,
    loglevel: str = "WARNING",
    pool: str = "prefork",
    queues: list[str] | None = None,
):
    """`queues`: only these (default: every queue of the settings, matches and play)."""
    return [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "config",
        "worker",  # consumes the queue of its own settings (TRUCO_QUEUE)
        "--concurrency",
        str(concurrency),
        "--pool",
        pool,
        "--hostname",
        name or f"truco-{uuid.uuid4().hex[:8]}@%h",
        "--without-gossip",
        "--without-mingle",
        "--loglevel",
        loglevel,
        *(["--queues", ",".join(queues)] if queues else []),
    ]


def start_worker(
    concurrency: int = 1,
    *,
    env: dict[str, str] | None = None,
    name: str | None = None,
    loglevel: str = "WARNING",
    log_file=None,
    pool: str = "prefork",
    queues: list[str] | None = None,
) -> subprocess.Popen:
    """A worker in its own process group (so that stopping it stops its pool processes too)."""
    return subprocess.Popen(
        worker_command(concurrency, name, loglevel, pool, queues),
        cwd=PROJECT_DIR,
        env={**os.environ, **(env or {})},
        stdout=log_file or subprocess.DEVNULL,
        stderr=subprocess.STDOUT if log_file else subprocess.DEVNULL,
        start_new_session=True,
    )


def stop_worker(process: subprocess.Popen, timeout: float = 15.0, *, idle: bool = False) -> None:
    """Warm shutdown (SIGTERM: finish the current match, give prefetched messages back), then
    SIGKILL if it takes longer than `timeout`. `idle`: the caller knows no match is in flight
    (its tournament is over), so there is nothing to wait for: a second at most. (Winding down
    the broker loop takes seconds, longest on the folder broker.)"""
    if idle:
        timeout = min(timeout, 1.0)
    if process.poll() is not None:
        return
    try:  # the main process only: it stops its pool processes itself
        os.kill(process.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        kill_worker(process)


def kill_worker(process: subprocess.Popen) -> None:
    """SIGKILL the worker and its pool processes at once, as a crash would."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()


def wait_until_ready(process: subprocess.Popen, seconds: float = 0.5) -> None:
    """Give the worker a moment to connect; fail early if it exited at once."""
    time.sleep(seconds)
    if process.poll() is not None:
        raise RuntimeError(f"the Celery worker exited at once with code {process.returncode}")
