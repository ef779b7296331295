"""The shapes the load benchmark starts, each in a folder of its own (and, for production, a
database and a Redis database of its own), stopped at the end:

- `embedded`: what `make run` starts: one uvicorn process serving the site, the API and the
  WebSockets with the table host inside it (no Redis: the in-memory channel layer), SQLite, the
  folder broker and one Celery worker (the uploaded bot's smoke match).
- `production`: docker-compose.yml's processes on this machine: gunicorn (6 workers x 8
  threads) for the pages and the API, uvicorn (2 workers) for the WebSockets, table hosts of
  their own on the Redis channel layer, PostgreSQL, Redis, one Celery worker; DJANGO_DEBUG=0
  with collected static files.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
import redis

from stack.web_process import start_web_server, stop_web_server
from stack.workers import PROJECT_DIR, start_worker, stop_worker

PEOPLE_SCRIPT = """
import json, sys
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore
from rest_framework.authtoken.models import Token
users = get_user_model()
out = []
for name in sys.stdin.read().split():
    user = users.objects.create_user(name)
    token = Token.objects.create(user=user)
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    out.append([name, token.key, session.session_key])
print("PEOPLE" + json.dumps(out))
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_healthy(url: str, process: subprocess.Popen, log: Path, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{url} exited; see {log}")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer in {seconds:g} s; see {log}")


@dataclass
class Shape:
    name: str
    folder: Path
    env: dict[str, str]
    base: str = ""
    ws_base: str = ""
    servers: list[subprocess.Popen] = field(default_factory=list)  # measured for CPU
    others: list[subprocess.Popen] = field(default_factory=list)

    def manage(self, *args: str, stdin: str | None = None) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=PROJECT_DIR,
            env=self.env,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=600,
        )
        if done.returncode != 0:
            raise RuntimeError(f"manage.py {' '.join(args)}: {done.stderr[-2000:]}")
        return done.stdout

    def people(self, names: list[str]) -> list[list[str]]:
        out = self.manage("shell", "-c", PEOPLE_SCRIPT, stdin=" ".join(names))
        return json.loads(out.split("PEOPLE", 1)[1])

    def spawn(self, args: list[str], log: str, *, server: bool = True, **env: str):
        process = subprocess.Popen(
            args,
            cwd=PROJECT_DIR,
            env={**self.env, **env},
            stdout=open(self.folder / log, "ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        (self.servers if server else self.others).append(process)
        return process

    def stop(self) -> None:
        for process in self.servers + self.others:
            if process.poll() is None:
                try:
                    os.killpg(process.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        for process in self.servers + self.others:
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)


def embedded() -> Shape:
    folder = Path(tempfile.mkdtemp(prefix="truco-bench-embedded-"))
    env = {**os.environ, "TRUCO_VAR_DIR": str(folder), "TRUCO_BENCH_METRICS": "1"}
    for name in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "CHANNELS_REDIS_URL"):
        env.pop(name, None)
    env["DJANGO_DEBUG"] = "1"
    shape = Shape("embedded", folder, env)
    shape.manage("migrate", "--noinput", "-v0")
    port = free_port()
    web = start_web_server(port, folder / "web.log", env=env, seconds=60)
    shape.servers.append(web)
    shape.others.append(start_worker(1, env=env, log_file=open(folder / "worker.log", "ab")))
    shape.base = f"http://127.0.0.1:{port}"
    shape.ws_base = f"ws://127.0.0.1:{port}"
    return shape


WEB_THREADS = 8  # gunicorn's threads a process, as docker-compose.yml runs it


def production(
    table_hosts: int, database_url: str, redis_url: str, web_threads: int = WEB_THREADS
) -> Shape:
    folder = Path(tempfile.mkdtemp(prefix="truco-bench-production-"))
    env = {
        **os.environ,
        "TRUCO_VAR_DIR": str(folder),
        "TRUCO_STATIC_ROOT": str(folder / "static"),
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "CELERY_BROKER_URL": redis_url,
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(40),
        "TRUCO_BENCH_METRICS": "1",
        "TRUCO_QUEUE": f"bench-{secrets.token_hex(4)}",
        # Redis' pub/sub ignores database numbers: runs at once must not hear each other's
        # table commands (a run's hosts answered another run's people).
        "TRUCO_CHANNEL_PREFIX": f"bench{secrets.token_hex(4)}",
    }
    env.pop("CHANNELS_REDIS_URL", None)
    shape = Shape("production", folder, env)
    reset_database(database_url)
    reset_redis(redis_url)
    shape.manage("migrate", "--noinput", "-v0")
    shape.manage("collectstatic", "--noinput", "-v0")
    port, ws_port = free_port(), free_port()
    bin_dir = Path(sys.executable).parent
    web = shape.spawn(
        [
            str(bin_dir / "gunicorn"),
            "config.wsgi:application",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "6",
            "--threads",
            str(web_threads),
        ],
        "web.log",
    )
    push = shape.spawn(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "config.asgi:application",
            "--host",
            "127.0.0.1",
            "--port",
            str(ws_port),
            "--workers",
            "2",
            "--loop",
            "uvloop",
            "--no-access-log",
        ],
        "asgi.log",
    )
    for number in range(table_hosts):
        shape.spawn(
            [sys.executable, "manage.py", "table_host"],
            f"table-host-{number}.log",
            TRUCO_HOST_NAME=f"bench-host-{number}",
        )
    shape.others.append(start_worker(1, env=env, log_file=open(folder / "worker.log", "ab")))
    shape.base = f"http://127.0.0.1:{port}"
    shape.ws_base = f"ws://127.0.0.1:{ws_port}"
    wait_healthy(shape.base, web, folder / "web.log")
    wait_healthy(f"http://127.0.0.1:{ws_port}", push, folder / "asgi.log")
    return shape


def reset_database(url: str) -> None:
    name = url.rsplit("/", 1)[1]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')


def reset_redis(url: str) -> None:
    client = redis.Redis.from_url(url)
    client.flushdb()
    client.close()


def stop_embedded_web(shape: Shape) -> None:
    for process in shape.servers:
        stop_web_server(process)
    for process in shape.others:
        stop_worker(process, timeout=5)


def add_arguments(parser, table_hosts: int = 2) -> None:
    """The options of the shape a benchmark starts (`manage.py bench_play`, `bench_watch`)."""
    parser.add_argument("--shape", choices=["embedded", "production"], default="embedded")
    parser.add_argument("--table-hosts", type=int, default=table_hosts)
    parser.add_argument(
        "--web-threads",
        type=int,
        default=WEB_THREADS,
        help="gunicorn's threads in each of its 6 processes (production shape)",
    )
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/truco_bench")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/7")


@contextmanager
def running(opts: dict, say: Callable[[str], object]) -> Iterator[Shape]:
    """The shape `opts` asks for, started, and stopped after (where its logs are, said)."""
    say(f"starting the {opts['shape']} shape...")
    if opts["shape"] == "embedded":
        shape = embedded()
    else:
        shape = production(
            opts["table_hosts"], opts["database_url"], opts["redis_url"], opts["web_threads"]
        )
    try:
        yield shape
    finally:
        shape.stop()
        say(f"logs in {shape.folder}")
