"""`python manage.py bench_slow_clients`: what slow clients do to another client, with gunicorn
alone (as compose published it before) and behind the site's nginx (deploy/nginx.conf, run here
as it is, only its addresses changed). It starts gunicorn in the production shape (2 workers of
4 threads, the configured database), then, for each way in: another client's /healthz
latencies alone, then while `--connections` slow clients send a header line every
`--interval` seconds (reconnecting whenever they are closed). It prints the 50th and 95th
percentiles and the failures (no answer within `--timeout`); it passes or fails nothing. Needs
`nginx` on the PATH for the proxied run (Debian: apt-get install nginx-light)."""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from website.nginx_config import nginx_binary, start_nginx
from website.slow_clients import Attack, measure

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def wait_for(url: str, process: subprocess.Popen, what: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise CommandError(f"{what} exited (code {process.returncode})")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise CommandError(f"{what} did not answer {url} within {seconds:g} s")


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class Command(BaseCommand):
    help = "Another client's latencies while slow clients hold connections, direct and via nginx."

    def add_arguments(self, parser):
        parser.add_argument("--connections", type=int, default=200)
        parser.add_argument("--interval", type=float, default=5.0, help="seconds between lines")
        parser.add_argument("--seconds", type=float, default=20.0, help="of each measurement")
        parser.add_argument("--rate", type=float, default=10.0, help="the other client's GET/s")
        parser.add_argument("--timeout", type=float, default=5.0, help="of the other's GET")
        parser.add_argument("--workers", type=int, default=2)
        parser.add_argument("--threads", type=int, default=4)
        parser.add_argument(
            "--through", choices=["both", "gunicorn", "nginx"], default="both", help="ways in"
        )

    def handle(self, *args, **options):
        ways = ["gunicorn", "nginx"] if options["through"] == "both" else [options["through"]]
        nginx = nginx_binary()
        if "nginx" in ways and nginx is None:
            if options["through"] == "nginx":
                raise CommandError("nginx is not installed (Debian: apt-get install nginx-light)")
            self.stdout.write("nginx is not installed: gunicorn alone only")
            ways.remove("nginx")
        with tempfile.TemporaryDirectory(prefix="bench-slow-") as tmp:
            web_port = free_port()
            gunicorn = self.start_gunicorn(web_port, Path(tmp), options)
            try:
                for way in ways:
                    if way == "gunicorn":
                        self.run_way("gunicorn alone", web_port, options)
                        continue
                    proxy_port = free_port()
                    proxy = self.start_nginx(nginx, proxy_port, web_port, Path(tmp))
                    try:
                        self.run_way("behind nginx (deploy/nginx.conf)", proxy_port, options)
                    finally:
                        stop(proxy)
            finally:
                stop(gunicorn)

    def start_gunicorn(self, port: int, tmp: Path, options) -> subprocess.Popen:
        env = {
            **os.environ,
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY": os.environ.get("DJANGO_SECRET_KEY") or secrets.token_hex(32),
            "DJANGO_ALLOWED_HOSTS": HOST,
            "TRUCO_TRUSTED_PROXIES": HOST,  # the local nginx, as compose trusts its proxy
        }
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.wsgi:application"]
            + ["--bind", f"{HOST}:{port}", "--workers", str(options["workers"])]
            + ["--threads", str(options["threads"]), "--log-level", "warning"],
            cwd=settings.BASE_DIR,
            env=env,
            stdout=open(tmp / "gunicorn.log", "ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        wait_for(f"http://{HOST}:{port}/healthz", process, "gunicorn")
        self.stdout.write(
            f"gunicorn: {options['workers']} workers x {options['threads']} threads on :{port}"
        )
        return process

    def start_nginx(self, nginx: str, port: int, web_port: int, tmp: Path) -> subprocess.Popen:
        process = start_nginx(
            nginx,
            tmp / "nginx",
            listen=f"{HOST}:{port}",
            web=f"{HOST}:{web_port}",
            asgi=f"{HOST}:{free_port()}",
            log=open(tmp / "nginx.log", "ab"),
        )
        wait_for(f"http://{HOST}:{port}/healthz", process, "nginx")
        return process

    def run_way(self, label: str, port: int, options) -> None:
        args = (HOST, port, "/healthz", options["seconds"], options["rate"], options["timeout"])
        alone = measure(*args)
        attack = Attack(HOST, port, options["connections"], options["interval"])
        attack.start()
        time.sleep(min(2.0, options["interval"]))  # the slow clients connect first
        try:
            during = measure(*args)
        finally:
            attack.stop()
        self.stdout.write(f"{label}:")
        self.stdout.write(f"  another client alone:         {alone.line()}")
        self.stdout.write(f"  with {options['connections']} slow clients: {during.line()}")
        self.stdout.write(
            f"  slow connections opened {attack.opened}, closed by the server "
            f"{attack.closed_by_server}"
        )
