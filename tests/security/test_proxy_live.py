"""The production shape of issue 16's proxy: the project's nginx config in front of a live
gunicorn (on PostgreSQL), Django trusting only that proxy. Two clients on two addresses
(127.0.0.2 and 127.0.0.3: loopback takes any 127/8 source) reach the login through the proxy:
one guessing passwords with a made-up X-Forwarded-For each time is locked out as itself, and
the other, for the same username, is not."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import time

import pytest

from tests.e2e_support import free_port
from tests.tournaments.conftest import PROJECT_DIR
from website.nginx_config import nginx_binary, start_nginx

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(nginx_binary() is None, reason="nginx is not installed"),
]

ATTACKER, VICTIM = "127.0.0.2", "127.0.0.3"


def post_token(port: int, source: str, username: str, forged: str | None = None) -> int:
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=20, source_address=(source, 0)
    )
    headers = {"Content-Type": "application/json", "Host": "127.0.0.1"}
    if forged:
        headers["X-Forwarded-For"] = forged
    body = json.dumps({"username": username, "password": "wrong"})
    connection.request("POST", "/api/auth/token/", body, headers)
    status = connection.getresponse().status
    connection.close()
    return status


def wait_ready(port: int, process: subprocess.Popen, what: str) -> None:
    for _ in range(150):
        assert process.poll() is None, f"{what} exited"
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/healthz", headers={"Host": "127.0.0.1"})
            if connection.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"{what} did not answer")


def test_through_the_real_proxy_a_forged_address_is_locked_out_as_itself(postgres_url, tmp_path):
    web_port, proxy_port = free_port(), free_port()
    env = {
        **os.environ,
        "DATABASE_URL": postgres_url,
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "proxy-test-" + "k" * 50,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "TRUCO_TRUSTED_PROXIES": "127.0.0.1",  # nginx, as compose trusts its proxy
        "TRUCO_LOGIN_FAILURE_LIMIT": "3",
        "TRUCO_VAR_DIR": str(tmp_path / "var"),
    }
    web = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi", "-b", f"127.0.0.1:{web_port}"]
        + ["--workers", "1", "--threads", "4"],
        cwd=PROJECT_DIR,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    proxy = None
    try:
        wait_ready(web_port, web, "gunicorn")
        proxy = start_nginx(
            nginx_binary(),
            tmp_path / "nginx",
            listen=f"127.0.0.1:{proxy_port}",
            web=f"127.0.0.1:{web_port}",
            asgi=f"127.0.0.1:{free_port()}",
            log=open(tmp_path / "nginx.log", "ab"),
        )
        wait_ready(proxy_port, proxy, "nginx")
        guesses = [
            post_token(proxy_port, ATTACKER, "victim", forged=f"198.51.100.{i}") for i in range(5)
        ]
        assert guesses == [400, 400, 400, 429, 429]  # a made-up address each time: no escape
        assert post_token(proxy_port, VICTIM, "victim") == 400  # not locked out: another client
        assert post_token(proxy_port, ATTACKER, "victim", forged=VICTIM) == 429
    finally:
        for process in (proxy, web):
            if process is not None:
                process.terminate()
                process.wait(timeout=10)
