"""End to end on the real services: a tournament with a hostile untrusted bot (its crash
message carries a fake secret) played by a Celery worker on Redis and PostgreSQL, then read
through a live gunicorn server on that database: the public sees the typed termination and the
seed commitments, never the secret; staff read it at /logs/ with a token; the finished matches
verify against their commitments, by the API and by `manage.py verify_match`."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from tests.entry_points import install_entry_point
from tests.security.leaky_plugin import SECRET
from tests.tournaments.conftest import (  # noqa: F401 (fixtures)
    PROJECT_DIR,
    parse_json_output,
    postgres_url,
    services_env,
    sql,
)

pytestmark = [pytest.mark.services, pytest.mark.django_db]


@pytest.fixture
def leaky_env(tmp_path, monkeypatch, services_env):  # noqa: F811
    install_entry_point(tmp_path, monkeypatch, "leaky", "tests.security.leaky_plugin")
    import os

    return {**services_env, "PYTHONPATH": os.environ["PYTHONPATH"]}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url: str, token: str | None = None) -> tuple[int, str]:
    request = urllib.request.Request(url)
    if token:
        request.add_header("Authorization", f"Token {token}")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def post_json(url: str, body: dict) -> tuple[int, dict]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@pytest.fixture
def web(leaky_env):
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi", "-b", f"127.0.0.1:{port}", "-w", "1"],
        cwd=PROJECT_DIR,
        env=leaky_env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                if get(f"{base}/healthz")[0] == 200:
                    break
            except OSError:
                pass
            time.sleep(0.2)
        else:
            raise AssertionError("gunicorn did not start")
        yield base
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_a_worker_plays_a_leaky_bot_and_the_live_api_keeps_its_secret(leaky_env, postgres_url, web):  # noqa: F811
    run = subprocess.run(
        [sys.executable, "manage.py", "run_tournament", "--bots", "leaky-raises", "random"]
        + ["random", "random", "--games", "2", "--workers", "1", "--json", "--timeout", "120"],
        cwd=PROJECT_DIR,
        env=leaky_env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    tournament = parse_json_output(run.stdout)["tournament"]
    crashed = sql(
        postgres_url,
        "SELECT g.id, g.match_id, g.private::text, g.record::text FROM tournaments_game g "
        "JOIN tournaments_match m ON m.id = g.match_id "
        "WHERE m.tournament_id = %s AND g.termination = 'crash'",
        tournament,
    )
    assert crashed, "the leaky bot never crashed"
    for game_id, match_id, private, record in crashed:
        assert SECRET in private and SECRET not in record
        for path in (
            f"/api/games/{game_id}/",
            f"/api/games/{game_id}/replay/",
            f"/api/matches/{match_id}/",
            f"/matches/{match_id}/",
        ):
            status, body = get(web + path)
            assert status == 200 and "FAKE-SECRET" not in body, path
        assert get(f"{web}/api/games/{game_id}/logs/")[0] in (401, 403)

    subprocess.run(
        [
            sys.executable,
            "manage.py",
            "createsuperuser",
            "--noinput",
            "--username",
            "boss",
            "--email",
            "boss@example.com",
        ],
        cwd=PROJECT_DIR,
        env={**leaky_env, "DJANGO_SUPERUSER_PASSWORD": "a-long-staff-pass-9"},
        check=True,
        capture_output=True,
    )
    status, answer = post_json(
        f"{web}/api/auth/token/", {"username": "boss", "password": "a-long-staff-pass-9"}
    )
    assert status == 200, answer
    status, body = get(f"{web}/api/games/{crashed[0][0]}/logs/", answer["token"])
    assert status == 200 and SECRET in json.loads(body)["fault_message"]

    status, body = get(f"{web}/api/tournaments/{tournament}/")
    shown = json.loads(body)
    assert shown["status"] == "done" and shown["seed"] is not None
    match_id = crashed[0][1]
    status, body = get(f"{web}/api/matches/{match_id}/verify/")
    assert status == 200 and json.loads(body)["ok"] is True, body
    verified = subprocess.run(
        [sys.executable, "manage.py", "verify_match", str(match_id)],
        cwd=PROJECT_DIR,
        env=leaky_env,
        capture_output=True,
        text=True,
    )
    assert verified.returncode == 0 and "verified" in verified.stdout, verified.stderr
