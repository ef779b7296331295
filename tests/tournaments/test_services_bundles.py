"""End to end on the real services: a web server and a Celery worker in their own processes, a
Redis broker, a PostgreSQL database, the jail. A user uploads the JavaScript example through the
API and sees it `validating`, then `ready`; a second upload is `v2`, a player of its own; both
versions play a tournament on the worker and are rated apart."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import uuid

import pytest
import requests

from stack.workers import start_worker, stop_worker
from submitted_bots.bundles.operator import zipped
from tests.jail.conftest import jail_or_skip

from .conftest import PROJECT_DIR, parse_json_output, sql

pytestmark = [pytest.mark.services]
EXAMPLE = PROJECT_DIR / "examples" / "bots" / "node-greedy"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def manage(env, *args, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=PROJECT_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        **kw,
    )


@pytest.fixture
def services_env(services_env):
    """The services' environment with the slow built-in bots blocked: the smoke match's opponent
    is drawn among random and heuristic (drawn against mcts, the validation took 16 s of the
    test's 24), which the test does not look at."""
    return {**services_env, "TRUCO_BLOCKED_PLUGINS": "mcts expert"}


@pytest.fixture
def web_server(services_env):
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=PROJECT_DIR,
        env=services_env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                requests.get(f"{url}/healthz", timeout=1)
                break
            except requests.ConnectionError:
                time.sleep(0.2)
        yield url
    finally:
        server.terminate()
        server.wait(10)


def token_for(env, username: str) -> str:
    code = (
        "from django.contrib.auth import get_user_model; "
        "from rest_framework.authtoken.models import Token; "
        f"u = get_user_model().objects.create_user({username!r}, password='x-long-pass-42'); "
        "print(Token.objects.create(user=u).key)"
    )
    done = manage(env, "shell", "-c", code)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def wait_for_status(session, url: str, timeout: float = 60.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        body = session.get(url, timeout=5).json()
        if body["status"] != "validating":
            return body
        time.sleep(0.2)
    raise AssertionError(f"still validating after {timeout}s: {body}")


def test_upload_validate_version_and_play_on_a_real_worker(
    services_env, postgres_url, web_server, tmp_path
):
    jail_or_skip()
    username = f"alice{uuid.uuid4().hex[:6]}"
    session = requests.Session()
    session.headers["Authorization"] = f"Token {token_for(services_env, username)}"
    archive = zipped(EXAMPLE)
    worker = start_worker(1, env=services_env)
    try:
        started = time.perf_counter()
        created = session.post(
            f"{web_server}/api/bots/", files={"bundle": ("node-greedy.zip", archive)}, timeout=30
        )
        assert created.status_code == 201, created.text
        first = created.json()
        assert first["status"] == "validating" and first["label"] == f"{username}/node-greedy v1"
        ready = wait_for_status(session, f"{web_server}/api/bots/{first['id']}/")
        seconds = time.perf_counter() - started
        assert ready["status"] == "ready", ready["status_reason"]
        assert ready["validation"]["settings"][0]["terminations"] == {"normal": 2}
        assert seconds < 30, f"validation took {seconds:.1f}s"

        second = session.post(
            f"{web_server}/api/bots/", files={"bundle": ("again.zip", archive)}, timeout=30
        ).json()
        assert second["version"] == "2" and second["player"] != first["player"]
        assert (
            wait_for_status(session, f"{web_server}/api/bots/{second['id']}/")["status"] == "ready"
        )

        played = manage(
            services_env,
            "run_tournament",
            "--bots",
            f"{username}/node-greedy v1",
            f"{username}/node-greedy v2",
            "random",
            "--format",
            "round-robin",
            "--games",
            "2",
            "--external",
            "--json",
            "--timeout",
            "120",
        )
        assert played.returncode == 0, played.stderr
        report = parse_json_output(played.stdout)
        assert {row["entrant"] for row in report["standings"]} == {
            f"{username}/node-greedy v1",
            f"{username}/node-greedy v2",
            "random",
        }
        rated = sql(
            postgres_url,
            "SELECT player_id, matches FROM tournaments_rating WHERE player_id IN (%s, %s)",
            first["player"],
            second["player"],
        )
        assert sorted(rated) == sorted([(first["player"], 2), (second["player"], 2)])
    finally:
        stop_worker(worker, idle=True)  # its tournament is over: nothing to finish
