"""The ladder on the embedded default, end to end: `manage.py demo` (a SQLite file, the
filesystem broker, a real worker, the supervisor's periodic jobs), three bundles uploaded
through the API by three people, and nobody starting anything: within a minute of being ready
they play each other on the ladder, and their boards and rating histories fill in."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
import requests

from .conftest import PROJECT_DIR
from .test_demo import free_port

BUNDLES = ["examples/bots/python-greedy", "examples/bots/node-greedy", "kit"]


def environment(var_dir) -> dict:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "TRUCO_QUEUE")
    }
    env["TRUCO_VAR_DIR"] = str(var_dir)
    # The scheduler every second rather than every 10 (Celery beat's default): the test waits
    # for its ticks, not a user. A ladder match of one duplicate pair (2 games) rather than two:
    # the bundles still meet on the ladder, in half the time a match against the house's slow
    # built-in bots (expert, mcts) holds a worker.
    env["TRUCO_LADDER_SECONDS"] = "1"
    env["TRUCO_LADDER_PAIRS"] = "1"
    # One game per setting in the smoke match rather than two: a validation still plays every
    # setting, and one drawn against mcts (chance: its opponent is drawn) took 42 s on a busy
    # machine.
    env["TRUCO_VALIDATION_GAMES"] = "1"
    # And mcts blocked: the smoke opponent is drawn among random and heuristic (with three
    # uploads, mcts was drawn for one of them seven times in ten). The house's expert, as slow,
    # stays on the boards: the uploads must still meet each other first.
    env["TRUCO_BLOCKED_PLUGINS"] = "mcts"
    return env


def engine(*args, cwd=PROJECT_DIR):
    done = subprocess.run([sys.executable, "-m", "engine", *args], cwd=cwd, capture_output=True)
    assert done.returncode == 0, done.stdout.decode() + done.stderr.decode()


def zipped(tmp_path) -> list:
    """Each bundle checked and zipped by the kit's check-bot, the three at once (each plays its
    smoke match: seconds apiece on a busy machine)."""
    zips, checks = [], []
    for source in BUNDLES:
        if source == "kit":  # the kit's own first command
            engine("new-bot", str(tmp_path / "kitbot"), "--language", "python")
            source = str(tmp_path / "kitbot")
        target = tmp_path / f"{len(zips)}.zip"
        checks.append(
            subprocess.Popen(
                [sys.executable, "-m", "engine", "check-bot", source, "--zip", str(target)],
                cwd=PROJECT_DIR,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
            )
        )
        zips.append(target)
    for check in checks:
        out, _ = check.communicate(timeout=120)
        assert check.returncode == 0, out.decode()
    return zips


def start_tokens(env, names) -> subprocess.Popen:
    """The database migrated and three people with their API tokens, before the demo starts
    (it then finds the database up to date): uploads go as soon as its server answers."""
    code = (
        "from django.core.management import call_command\n"
        "call_command('migrate', interactive=False, verbosity=0)\n"
        "from django.contrib.auth import get_user_model\n"
        "from rest_framework.authtoken.models import Token\n"
        f"for n in {names!r}:\n"
        "    u, _ = get_user_model().objects.get_or_create(username=n)\n"
        "    print('TOKEN', n, Token.objects.get_or_create(user=u)[0].key)\n"
    )
    return subprocess.Popen(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=PROJECT_DIR,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def tokens(started: subprocess.Popen) -> dict[str, str]:
    out, err = started.communicate(timeout=120)
    assert started.returncode == 0, out + err
    return {p[1]: p[2] for p in (line.split() for line in out.splitlines()) if p[:1] == ["TOKEN"]}


def ladder_matches(url, ours) -> list:
    """What the ladder of our entries played, for the message of a failure."""
    if not ours:
        return []
    board = requests.get(f"{url}/api/ladders/{ours[0]['ladder']}/", timeout=10).json()
    matches = requests.get(
        f"{url}/api/matches/",
        params={"tournament": board["tournament"], "limit": 200},
        timeout=10,
    ).json()["results"]
    return [
        (m["key"], m["status"], m["entrant_a"]["name"], m["entrant_b"]["name"]) for m in matches
    ]


@pytest.mark.skipif(not os.path.exists("/usr/bin/node"), reason="Node is not installed")
def test_three_uploaded_bundles_play_each_other_on_the_ladder_within_a_minute(tmp_path):
    env = environment(tmp_path / "var")
    people = ["ana", "bruno", "carla"]
    preparing = start_tokens(env, people)
    zips = zipped(tmp_path)  # meanwhile
    keys = tokens(preparing)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    output_path = tmp_path / "demo.out"
    output = output_path.open("w")
    demo = subprocess.Popen(
        [
            sys.executable,
            "manage.py",
            "demo",
            "--port",
            str(port),
            "--bots",
            "random*2",
            "--games",
            "1",
            "--workers",
            "2",
        ],
        cwd=PROJECT_DIR,
        env=env,
        # A file, not a pipe: the demo keeps printing (its supervisor's periodic jobs), and a
        # pipe nobody reads would block it once full.
        stdout=output,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        # Uploaded as soon as the server answers, while the demo's own tournament plays: the
        # ladder waits for it and for the validations (others go first), so its first matches
        # are the uploads' (uploaded once the demo's tournament is over, the scheduler's first
        # tick could start matches of the house's bots alone, holding both workers).
        waited = time.monotonic() + 120
        while "    serving http" not in output_path.read_text() and time.monotonic() < waited:
            time.sleep(0.1)
        for person, archive in zip(people, zips, strict=True):
            with open(archive, "rb") as handle:
                answer = requests.post(
                    f"{url}/api/bots/",
                    headers={"Authorization": f"Token {keys[person]}"},
                    files={"bundle": handle},
                    timeout=30,
                )
            assert answer.status_code == 201, answer.text
        ready_at = None
        deadline = time.monotonic() + 120
        bundle_matches = []
        while time.monotonic() < deadline:
            bots = requests.get(f"{url}/api/bots/", params={"limit": 50}, timeout=10).json()
            mine = [b for b in bots["results"] if b.get("owner") in people]
            if ready_at is None and len(mine) == 3 and all(b["status"] == "ready" for b in mine):
                ready_at = time.monotonic()
            entries = requests.get(
                f"{url}/api/ladder-entries/",
                params={"variant": "paulista", "players": 2},
                timeout=10,
            ).json()["results"]
            ours = [e for e in entries if e["owner"] in people]
            played = {e["owner"] for e in ours if e["matches"] > 0}
            if played == set(people):
                board = requests.get(f"{url}/api/ladders/{ours[0]['ladder']}/", timeout=10).json()
                tournament = board["tournament"]
                matches = requests.get(
                    f"{url}/api/matches/",
                    params={"tournament": tournament, "limit": 200},
                    timeout=10,
                ).json()["results"]
                names = {e["bot_label"] for e in ours}
                bundle_matches = [
                    m
                    for m in matches
                    if m["status"] == "done"
                    and {m["entrant_a"]["name"], m["entrant_b"]["name"]} <= names
                ]
                if bundle_matches:
                    break
            time.sleep(0.5)
        assert ready_at is not None, "the bundles were not validated in time"
        assert bundle_matches, (
            "the three bundles did not play each other on the ladder: "
            f"{ready_at and time.monotonic() - ready_at} s after ready; entries {ours}; "
            f"ladder matches {ladder_matches(url, ours)}"
        )
        assert time.monotonic() - ready_at < 60 + 30  # a minute to start, a little to finish
        # their history fills in: as many points as matches, for the chart
        for entry in ours:
            history = requests.get(
                f"{url}/api/ladder-entries/{entry['id']}/history/", timeout=10
            ).json()
            assert history["count"] >= 1
        front = requests.get(url + "/", timeout=10).text
        assert "ana/" in front or "bruno/" in front or "carla/" in front  # tops of the ladders
    finally:
        demo.send_signal(signal.SIGTERM)
        demo.wait(60)
        output.close()
