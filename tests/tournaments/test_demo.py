"""The main job (`manage.py demo`) on the embedded default: a SQLite file and a broker in a
folder, so it runs with no database or broker server installed."""

from __future__ import annotations

import os
import re
import socket
import sqlite3
import subprocess
import sys

from .conftest import PROJECT_DIR


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def demo(var_dir, *args):
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "TRUCO_QUEUE")
    }
    env["TRUCO_VAR_DIR"] = str(var_dir)
    return subprocess.run(
        [sys.executable, "manage.py", "demo", "--exit-when-done", *args],
        cwd=PROJECT_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )


def test_the_demo_runs_the_whole_main_job_with_no_server_installed(tmp_path):
    port = free_port()
    result = demo(
        tmp_path,
        "--port",
        str(port),
        "--bots",
        "random*3",
        "heuristic",
        "--games",
        "2",
        "--workers",
        "1",
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    out = result.stdout
    database = f"SQLite database {tmp_path / 'truco_arena.sqlite3'}"
    assert re.search(rf"{re.escape(database)}: new, set up \(\d+ migrations applied\)", out)
    assert "is up to date" not in out
    assert f"broker in {tmp_path / 'broker'}" in out
    password = re.search(r"log in as admin / (\S+)", out).group(1)
    assert (tmp_path / "admin-password.txt").read_text().strip() == password
    page = re.search(rf"watch it at (http://127\.0\.0\.1:{port}/tournaments/\d+/)", out).group(1)
    assert f"{page} answered 200" in out
    assert f"http://127.0.0.1:{port}/admin/login/ answered 200" in out
    assert re.search(r"^1\s+\S+", out, re.MULTILINE)  # the standings' first row

    with sqlite3.connect(tmp_path / "truco_arena.sqlite3") as db:
        (status,) = db.execute("SELECT status FROM tournaments_tournament").fetchone()
        workers = {
            w
            for (w,) in db.execute(
                "SELECT DISTINCT worker FROM tournaments_match WHERE entrant_b_id IS NOT NULL"
            )
        }
        plugins = {p for (p,) in db.execute("SELECT plugin FROM tournaments_bot")}
    assert status == "done"
    assert workers and "" not in workers  # every match was played by a worker process
    assert {"random", "heuristic"} <= plugins

    again = demo(
        tmp_path, "--port", str(port), "--bots", "random*2", "--games", "1", "--workers", "1"
    )
    assert again.returncode == 0, again.stderr[-3000:]
    assert f"log in as admin / {password}" in again.stdout  # the same account, still usable
    assert f"{database} is up to date" in again.stdout
    # The second demo replaced the first one's tournament instead of adding another.
    first_id = int(re.search(r"/tournaments/(\d+)/", out).group(1))
    assert f"replaced the previous demo tournament (#{first_id})" in again.stdout
    with sqlite3.connect(tmp_path / "truco_arena.sqlite3") as db:
        ids = [i for (i,) in db.execute("SELECT id FROM tournaments_tournament")]
    assert len(ids) == 1 and ids[0] != first_id


def test_the_demo_refuses_a_port_in_use_with_exit_code_2(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        result = demo(tmp_path, "--port", str(busy.getsockname()[1]))
    assert result.returncode == 2
    assert "choose another with --port" in result.stderr


def test_the_demo_stopped_with_sigterm_stops_its_worker_and_web_server(tmp_path):
    import signal
    import time

    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "TRUCO_QUEUE")
    }
    env["TRUCO_VAR_DIR"] = str(tmp_path)
    port = free_port()
    args = ["--port", str(port), "--bots", "random*2", "--games", "1", "--workers", "1"]
    demo_process = subprocess.Popen(
        [sys.executable, "manage.py", "demo", *args],
        cwd=PROJECT_DIR,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    for line in demo_process.stdout:  # wait until it serves and plays
        if "keeps running" in line:
            break
    demo_process.send_signal(signal.SIGTERM)
    assert demo_process.wait(30) == 0

    def leftovers():
        found = []
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/environ", "rb") as handle:
                    if f"TRUCO_VAR_DIR={tmp_path}".encode() in handle.read():
                        found.append(pid)
            except OSError:
                continue
        return found

    deadline = time.monotonic() + 20
    while leftovers() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert leftovers() == [], "the demo left processes running after SIGTERM"
