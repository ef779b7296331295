"""Issue 16, item 6: `/api/schema/` answered 500 to concurrent first requests right after a
web worker started (drf-spectacular loads its extensions lazily on the first build, and two
threads loading one made the other read `None`). A fresh gunicorn worker with threads, as in
production, and 8 requests at once, its first ones: all 200, the same schema."""

from __future__ import annotations

import concurrent.futures
import hashlib
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

from tests.e2e_support import free_port
from tests.tournaments.conftest import PROJECT_DIR

CONCURRENT = 8


def schema(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=120) as response:
            return response.status, hashlib.sha256(response.read()).hexdigest()
    except urllib.error.HTTPError as error:
        return error.code, ""


def wait_for_port(port: int, process: subprocess.Popen) -> None:
    for _ in range(200):
        assert process.poll() is None, "gunicorn exited"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise AssertionError("gunicorn did not listen")


def test_concurrent_first_schema_requests_to_a_fresh_worker_all_answer_200(tmp_path):
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "TRUCO_VAR_DIR": str(tmp_path / "var"),
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "a-test-key-" + "x" * 50,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi", "-b", f"127.0.0.1:{port}"]
        + ["--workers", "1", "--threads", str(CONCURRENT)],
        cwd=PROJECT_DIR,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        # The master listens before its worker has loaded the site: the requests wait in the
        # backlog and reach the worker's threads together, the worker's first requests.
        wait_for_port(port, server)
        url = f"http://127.0.0.1:{port}/api/schema/?format=json"
        with concurrent.futures.ThreadPoolExecutor(CONCURRENT) as pool:
            answers = list(pool.map(schema, [url] * CONCURRENT))
    finally:
        server.terminate()
        _, stderr = server.communicate(timeout=20)
    assert [status for status, _ in answers] == [200] * CONCURRENT, stderr.decode()[-3000:]
    assert len({digest for _, digest in answers}) == 1  # one schema, whoever built it
