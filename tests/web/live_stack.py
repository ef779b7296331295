"""The production shape for browser tests: a web server process and a real Celery worker on the
test session's PostgreSQL database and a Redis queue of the test's own (fixtures `postgres_url`
and `services_env` of tests/tournaments/conftest.py). Nothing runs in the test process: the
browser talks to the server, the server hands the bots' turns to the worker, as in production.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass

import pytest

from tests.tournaments.conftest import PROJECT_DIR
from tournaments.workers import start_worker, stop_worker, wait_until_ready


@dataclass
class Stack:
    url: str
    env: dict[str, str]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_http(url: str, process: subprocess.Popen, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the web server exited with code {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"the web server did not answer {url} within {seconds} s")


@pytest.fixture
def live_stack(services_env, tmp_path):
    """A web server (debug on: it serves the static files) and one worker, both on PostgreSQL
    and this test's Redis queue; the bots' turns go through the worker, never in a request."""
    port = free_port()
    env = {**services_env, "DJANGO_DEBUG": "1"}
    log = open(tmp_path / "web.log", "w")
    web = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=PROJECT_DIR,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    worker_log = open(tmp_path / "worker.log", "w")
    worker = start_worker(
        env=env, name=f"{env['TRUCO_QUEUE']}@%h", log_file=worker_log, loglevel="INFO"
    )
    try:
        wait_until_ready(worker)
        wait_for_http(f"http://127.0.0.1:{port}/healthz", web)
        yield Stack(f"http://127.0.0.1:{port}", env)
    finally:
        web.terminate()
        try:
            web.wait(10)
        except subprocess.TimeoutExpired:
            web.kill()
        stop_worker(worker)
        log.close()
        worker_log.close()
