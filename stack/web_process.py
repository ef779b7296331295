"""Starting the web server in a process of its own, for the commands and tests that bring a
whole stack (`soak`, the live-stack test fixture): `runserver` (threaded; static files served
while DEBUG is on), answered on /healthz before it is handed over."""

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
        [sys.executable, "manage.py", "runserver", f"{host}:{port}", "--noreload"],
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
