"""docker-compose.yml is well formed, and every command it runs exists in the project; its
reverse proxy (deploy/nginx.conf) holds what slow clients need and reaches the services it
names."""

from __future__ import annotations

import importlib
import ipaddress
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from django.conf import settings
from django.core.management import get_commands
from django.urls import resolve

from config.celery import app
from config.client_address import parse_trusted_proxies
from tests.nginx_conf import parse, seconds
from website.nginx_config import NGINX_CONF, local_config

from .conftest import PROJECT_DIR

COMPOSE = yaml.safe_load((PROJECT_DIR / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]
VENV_BIN = Path(sys.executable).parent  # where pip installed gunicorn and celery


def command(service: str) -> list[str]:
    value = SERVICES[service]["command"]
    return shlex.split(value) if isinstance(value, str) else value


def test_compose_has_the_database_broker_web_workers_and_sweeper():
    assert set(SERVICES) == {
        "proxy",
        "db",
        "redis",
        "migrate",
        "web",
        "asgi",
        "table-host",
        "worker",
        "beat",
    }
    assert SERVICES["db"]["image"].startswith("postgres:")
    assert SERVICES["redis"]["image"].startswith("redis:")
    for name in ("migrate", "web", "worker", "asgi", "table-host", "beat"):
        assert SERVICES[name]["build"] == "."
        env = SERVICES[name]["environment"]
        assert env["DATABASE_URL"].startswith("postgres://") and "@db:5432/" in env["DATABASE_URL"]
        assert env["REDIS_URL"].startswith("redis://redis:6379/")
        assert env["DJANGO_DEBUG"] == "0"


@pytest.mark.parametrize(
    "service", ["proxy", "db", "redis", "web", "worker", "asgi", "table-host", "beat"]
)
def test_every_long_running_service_has_a_health_check(service):
    check = SERVICES[service]["healthcheck"]
    assert check["test"][0] in ("CMD", "CMD-SHELL") and len(check["test"]) > 1
    assert check["interval"] and check["retries"] >= 3


def test_data_lives_in_named_volumes():
    assert set(COMPOSE["volumes"]) >= {"pgdata", "redisdata"}
    assert "pgdata:/var/lib/postgresql/data" in SERVICES["db"]["volumes"]
    assert "redisdata:/data" in SERVICES["redis"]["volumes"]


def test_workers_can_be_scaled():
    worker = SERVICES["worker"]
    assert "container_name" not in worker and "ports" not in worker
    for dependency in ("db", "redis"):
        assert worker["depends_on"][dependency]["condition"] == "service_healthy"
    assert worker["depends_on"]["migrate"]["condition"] == "service_completed_successfully"


def test_the_web_command_serves_the_projects_wsgi_application_and_health_url():
    web = command("web")
    assert web[0] == "gunicorn" and (VENV_BIN / "gunicorn").exists()
    module, attribute = web[1].split(":")
    assert callable(getattr(importlib.import_module(module), attribute))
    assert "/healthz" in " ".join(SERVICES["web"]["healthcheck"]["test"])
    assert resolve("/healthz").url_name == "healthz"


@pytest.mark.parametrize("service", ["worker", "beat"])
def test_celery_commands_name_the_projects_app_and_tasks(service):
    args = command(service)
    assert args[:3] == ["celery", "-A", "config"] and (VENV_BIN / "celery").exists()
    assert importlib.import_module("config").celery_app is app
    app.loader.import_default_modules()
    assert {"tournaments.run_match", "tournaments.sweep", "play.sweep"} <= set(app.tasks)
    if service == "worker":
        assert args[args.index("--queues") + 1] == app.conf.task_default_queue == "truco"
    else:
        assert {e["task"] for e in app.conf.beat_schedule.values()} <= set(app.tasks)


def test_the_push_server_serves_the_asgi_application_and_table_hosts_run_apart():
    """uvicorn serves config.asgi (the tables' WebSockets) with the Redis channel layer of the
    app's environment, so table hosts are processes of their own (`table_host`); no web-facing
    process runs a bot, so only the table hosts and workers are let out of Docker's defaults."""
    asgi = command("asgi")
    assert asgi[0] == "uvicorn" and (VENV_BIN / "uvicorn").exists()
    module, attribute = asgi[1].split(":")
    assert module == "config.asgi" and attribute == "application"
    assert "REDIS_URL" in SERVICES["asgi"]["environment"]
    assert command("table-host") == ["python", "manage.py", "table_host"]
    assert "table_host" in get_commands()
    for service in ("web", "asgi"):
        assert "security_opt" not in SERVICES[service], service
    for service in ("table-host", "worker"):
        assert "seccomp=unconfined" in SERVICES[service]["security_opt"], service
    assert "play-worker" not in SERVICES


def test_manage_py_commands_in_compose_and_dockerfile_exist():
    used = [command("migrate")]
    dockerfile = (PROJECT_DIR / "Dockerfile").read_text()
    used += [
        line.split("python manage.py", 1)[1].split()
        for line in dockerfile.splitlines()
        if "python manage.py" in line
    ]
    known = get_commands()
    for args in used:
        name = args[args.index("manage.py") + 1] if "manage.py" in args else args[0]
        assert name in known, name
    assert 'CMD ["gunicorn", "config.wsgi:application"' in dockerfile


def test_the_secret_key_must_be_given_rather_than_defaulted():
    for name in ("migrate", "web", "worker", "asgi", "table-host", "beat"):
        assert SERVICES[name]["environment"]["DJANGO_SECRET_KEY"].startswith(
            "${DJANGO_SECRET_KEY:?"
        )


@pytest.mark.parametrize("service", ["table-host", "worker"])
def test_the_services_that_play_untrusted_bots_can_build_the_jail(service):
    """The app runs as an ordinary user: bwrap needs user namespaces and mounts, which Docker's
    default seccomp and AppArmor profiles and its masked /proc forbid; no capability is added,
    and nothing forbids the setuid newuidmap."""
    options = set(SERVICES[service]["security_opt"])
    assert options == {"seccomp=unconfined", "apparmor=unconfined", "systempaths=unconfined"}
    assert "privileged" not in SERVICES[service] and "cap_add" not in SERVICES[service]
    assert not any("no-new-privileges" in option for option in options)
    dockerfile = (PROJECT_DIR / "Dockerfile").read_text()
    assert "USER truco" in dockerfile  # not root: the jail is made in a user namespace


@pytest.mark.parametrize("service", ["table-host", "worker"])
def test_the_services_that_play_untrusted_bots_are_bounded_as_a_whole(service):
    """Kernel memory a jail holds (socket buffers, its tmpfs's files) is seen by no rlimit and,
    without a cgroup of its own, by no watch: the container's limits bound it, swap included."""
    spec = SERVICES[service]
    assert spec["mem_limit"] == spec["memswap_limit"] == "3g"
    assert 0 < spec["pids_limit"] <= 1000


def test_the_image_gives_its_ordinary_user_subordinate_uids_for_the_jails():
    """An ordinary runner's jail runs the bot as one of its subordinate uids (never its own):
    the image installs bwrap and newuidmap, and gives truco a range apart from the uids a root
    runner leases, on the Debian release whose unshare takes --map-users as the jail writes it."""
    from engine.jail import uids

    dockerfile = (PROJECT_DIR / "Dockerfile").read_text()
    base = next(line for line in dockerfile.splitlines() if line.startswith("FROM"))
    assert base == "FROM python:3.11-slim-bookworm"
    install = next(line for line in dockerfile.splitlines() if "apt-get install" in line)
    assert "bubblewrap" in install and "uidmap" in install and "libseccomp2" in install
    for path in ("/etc/subuid", "/etc/subgid"):
        assert f'echo "truco:1300000:65536" > {path}' in dockerfile
    first, count = 1300000, 65536
    root = uids.root_pool()
    assert first + count <= root.first_uid or first >= root.first_uid + root.count
    order = [dockerfile.index(step) for step in ("useradd", "/etc/subuid", "USER truco")]
    assert order == sorted(order)


def test_the_services_that_play_no_bot_keep_dockers_default_confinement():
    for name in ("migrate", "beat", "db", "redis"):
        assert "security_opt" not in SERVICES[name]


def test_the_web_server_and_the_workers_share_the_uploaded_bundles():
    """The web process stores uploads under var/bundles; every process that plays bots (the
    match workers, and the play worker for people's tables) unpacks them from there."""
    assert "bundles" in COMPOSE["volumes"]
    for service in ("web", "worker", "table-host"):
        assert "bundles:/app/var/bundles" in SERVICES[service]["volumes"]


# --- the reverse proxy (issue 16: slow clients held gunicorn's threads) -----------------------

NGINX = parse(NGINX_CONF.read_text())
HTTP = NGINX.one("http")
SERVER = HTTP.one("server")


def test_only_the_proxy_is_published_and_it_runs_the_projects_nginx_config():
    published = {name for name, spec in SERVICES.items() if spec.get("ports")}
    assert published == {"proxy"}
    proxy = SERVICES["proxy"]
    assert proxy["image"].startswith("nginx:")
    assert "./deploy/nginx.conf:/etc/nginx/nginx.conf:ro" in proxy["volumes"]
    assert proxy["ports"] == ["${TRUCO_HTTP_PORT:-8000}:80"] and SERVER.value("listen") == "80"
    assert proxy["depends_on"]["web"]["condition"] == "service_healthy"


def test_the_proxy_reaches_gunicorn_where_the_web_service_listens():
    web = command("web")
    bind = web[web.index("--bind") + 1]
    assert HTTP.one("upstream").args == ["web"]
    assert HTTP.one("upstream").value("server") == "web:" + bind.rsplit(":", 1)[1]
    assert SERVER.location("/").value("proxy_pass") == "http://web"


def test_the_proxy_gives_up_on_slow_clients_and_buffers_both_ways():
    """A header dribbled a line every 5 s is cut off; a body or an answer read slowly waits in
    nginx, never in a gunicorn thread."""
    assert seconds(HTTP.value("client_header_timeout")) <= 15
    assert seconds(HTTP.value("client_body_timeout")) <= 30
    assert seconds(HTTP.value("send_timeout")) <= 30
    assert 0 < seconds(HTTP.value("keepalive_timeout").split()[0]) <= 30
    assert SERVER.value("proxy_request_buffering") == "on"
    assert SERVER.value("proxy_buffering") == "on"
    zone = HTTP.one("limit_conn_zone").args
    assert zone[0] == "$binary_remote_addr" and zone[1].startswith("zone=per_client:")
    for path in ("/", "/ws/"):
        limit = SERVER.location(path).one("limit_conn").args
        assert limit[0] == "per_client" and int(limit[1]) >= 16
    assert seconds(SERVER.value("proxy_read_timeout")) <= 120


def test_an_upload_as_big_as_the_site_allows_passes_the_proxy():
    limit = HTTP.value("client_max_body_size")
    assert limit.endswith("m") and int(limit[:-1]) > settings.TRUCO_BUNDLE_MAX_MB


def test_websockets_go_to_the_asgi_service_with_their_upgrade_and_a_long_timeout():
    """The `asgi` service (uvicorn config.asgi:application on port 8001) is the real-time
    tables' (issue 20): /ws/ is passed there as a WebSocket, held open for a match."""
    ws = SERVER.location("/ws/")
    target = ws.value("set").split()
    assert target == ["$asgi", "asgi:8001"] and ws.value("proxy_pass") == "http://$asgi"
    assert ws.value("proxy_buffering") == "off"
    assert seconds(ws.value("proxy_read_timeout")) >= 600
    headers = {d.args[0]: d.args[1] for d in SERVER.all("proxy_set_header")}
    assert headers["Upgrade"] == "$http_upgrade"
    assert headers["Connection"] == "$connection_upgrade"
    upgrade = HTTP.one("map")
    assert upgrade.args == ["$http_upgrade", "$connection_upgrade"]
    assert upgrade.value("default") == "upgrade"
    assert SERVER.value("proxy_http_version") == "1.1"


def test_every_location_keeps_the_servers_headers():
    """nginx drops all of a level's proxy_set_header where a deeper level sets any: the client's
    address and the Host are set once, on the server, and no location sets its own."""
    headers = {d.args[0]: d.args[1] for d in SERVER.all("proxy_set_header")}
    assert headers["Host"] == "$host"
    assert headers["X-Forwarded-For"] == "$remote_addr"  # replaced, never the client's own
    for location in SERVER.all("location"):
        assert not location.all("proxy_set_header"), location.args


def test_django_trusts_the_proxys_forwarded_for_and_only_the_proxys():
    env = COMPOSE["x-app"]["environment"]
    trusted = parse_trusted_proxies(env["TRUCO_TRUSTED_PROXIES"].split(":-")[1].rstrip("}"))
    address = SERVICES["proxy"]["networks"]["default"]["ipv4_address"]
    assert env["TRUCO_TRUSTED_PROXIES"] == address == "${TRUCO_PROXY_ADDRESS:-172.30.57.10}"
    subnet = COMPOSE["networks"]["default"]["ipam"]["config"][0]["subnet"]
    network = ipaddress.ip_network(subnet.split(":-")[1].rstrip("}"))
    assert trusted == ["172.30.57.10"] and ipaddress.ip_address(trusted[0]) in network
    for name in ("migrate", "web", "worker", "asgi", "table-host", "beat"):
        assert SERVICES[name]["environment"]["TRUCO_TRUSTED_PROXIES"] == address


@pytest.mark.skipif(
    shutil.which("nginx") is None and not Path("/usr/sbin/nginx").exists(),
    reason="nginx is not installed (apt-get install nginx-light)",
)
def test_nginx_accepts_the_config(tmp_path):
    conf = tmp_path / "nginx.conf"
    text = local_config(
        NGINX_CONF.read_text(), listen="127.0.0.1:1", web="127.0.0.1:2", asgi="127.0.0.1:3"
    )
    temp = "".join(f"\n{k}_temp_path {tmp_path / k};" for k in ("client_body", "proxy"))
    conf.write_text(text.replace("http {", "http {" + temp, 1))
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    check = subprocess.run(
        [nginx, "-t", "-p", str(tmp_path), "-c", str(conf), "-g", f"pid {tmp_path / 'pid'};"],
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stderr
