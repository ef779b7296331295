"""Starting the web server in a process of its own, for the commands and tests that bring a
whole stack (`demo`, `soak`, the live-stack test fixture): uvicorn serving the ASGI application
(config/asgi.py: the pages, the API and the tables' WebSockets; with no Redis channel layer the
table host runs inside it), answered on /healthz before it is handed over."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from stack.workers import PROJECT_DIR


class WebServerError(RuntimeError):
    pass


def start_web_server(
    port: int,
    log_path: Path,
    *,
    host: str = "127.0.0.1",
    env: dict[str, str] | None = None,
    seconds: float = 30.0,
) -> subprocess.Popen:
    web = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "config.asgi:application",
            "--host",
            host,
            "--port",
            str(port),
            "--lifespan",
            "on",
            "--loop",
            "uvloop",
            "--timeout-graceful-shutdown",
            "5",
            "--no-access-log",
        ],
        cwd=PROJECT_DIR,
        env={**os.environ, **(env or {})},
        stdout=open(log_path, "ab"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if web.poll() is not None:
            raise WebServerError(f"the web server exited; see {log_path}")
        try:
            with urllib.request.urlopen(f"http://{host}:{port}/healthz", timeout=2):
                return web
        except (urllib.error.URLError, OSError):
            time.sleep(0.1)
    stop_web_server(web)
    raise WebServerError(f"the web server did not answer within {seconds:g} s; see {log_path}")


def stop_web_server(web: subprocess.Popen, timeout: float = 10.0) -> None:
    if web.poll() is None:
        web.terminate()
        try:
            web.wait(timeout)
        except subprocess.TimeoutExpired:
            web.kill()
            web.wait()
