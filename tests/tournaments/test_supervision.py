"""The demo keeps its worker alive: a worker killed in the middle of the demo tournament is
started again, the console says so, and the tournament still ends (its match is sent again at
once by the sweep: its claim's process is gone)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from stack.supervision import WorkerSupervisor
from tests.e2e_support import free_port

from .conftest import PROJECT_DIR


def test_a_dead_worker_is_restarted_and_the_console_says_so(tmp_path, settings):
    log = tmp_path / "worker.log"
    log.write_text("starting\nUnrecoverable error: JSONDecodeError('Expecting value')\n")
    started: list[subprocess.Popen] = []
    warnings: list[str] = []

    def start():
        started.append(subprocess.Popen(["sleep", "60"]))
        return started[-1]

    supervisor = WorkerSupervisor(start, warnings.append, log, tmp_path / "worker.pid")
    try:
        assert supervisor.check() is False and warnings == []
        assert (tmp_path / "worker.pid").read_text().strip() == str(started[0].pid)
        started[0].kill()
        started[0].wait()
        assert supervisor.check() is True
        assert len(started) == 2 and supervisor.worker is started[1]
        assert supervisor.restarts == 1
        assert "THE WORKER DIED" in warnings[0] and "JSONDecodeError" in warnings[0]
        assert (tmp_path / "worker.pid").read_text().strip() == str(started[1].pid)
    finally:
        for process in started:
            process.kill()
            process.wait()


def running_match(database) -> bool:
    import sqlite3

    try:
        with sqlite3.connect(database, timeout=1) as db:
            return bool(
                db.execute("SELECT 1 FROM tournaments_match WHERE status = 'running'").fetchone()
            )
    except sqlite3.OperationalError:  # not migrated yet, or busy
        return False


def test_the_demo_restarts_a_killed_worker_and_its_tournament_ends(tmp_path):
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "TRUCO_QUEUE")
    }
    env.update(TRUCO_VAR_DIR=str(tmp_path), TRUCO_SWEEP_SECONDS="1")
    args = ["--port", str(free_port()), "--bots", "random*4", "--games", "600", "--workers", "1"]
    demo = subprocess.Popen(
        [sys.executable, "manage.py", "demo", "--exit-when-done", *args],
        cwd=PROJECT_DIR,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        pid_file = tmp_path / "worker.pid"
        deadline = time.monotonic() + 60
        while not (tmp_path / "truco_arena.sqlite3").exists() or not pid_file.exists():
            assert demo.poll() is None, demo.communicate()[1][-2000:]
            assert time.monotonic() < deadline
            time.sleep(0.1)
        while not running_match(tmp_path / "truco_arena.sqlite3"):  # a match is being played
            assert demo.poll() is None, demo.communicate()[1][-2000:]
            assert time.monotonic() < deadline
            time.sleep(0.02)
        first = int(pid_file.read_text().split()[0])  # the matches' worker
        os.killpg(first, signal.SIGKILL)  # the worker and its pool: a crash
        out, err = demo.communicate(timeout=180)
    finally:
        if demo.poll() is None:
            demo.send_signal(signal.SIGTERM)
            demo.wait(30)
    assert demo.returncode == 0, err[-3000:] + out[-2000:]
    assert "WORKER DIED" in err and "restart #1" in err, out[-1500:]
    assert "answered 200" in out  # the tournament ended and its page was served
