"""docker-compose.yml is well formed, and every command it runs exists in the project."""

from __future__ import annotations

import importlib
import shlex
import sys
from pathlib import Path

import pytest
import yaml
from django.core.management import get_commands
from django.urls import resolve

from config.celery import app

from .conftest import PROJECT_DIR

COMPOSE = yaml.safe_load((PROJECT_DIR / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]
VENV_BIN = Path(sys.executable).parent  # where pip installed gunicorn and celery


def command(service: str) -> list[str]:
    value = SERVICES[service]["command"]
    return shlex.split(value) if isinstance(value, str) else value


def test_compose_has_the_database_broker_web_workers_and_sweeper():
    assert set(SERVICES) == {
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


@pytest.mark.parametrize("service", ["db", "redis", "web", "worker", "asgi", "table-host", "beat"])
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
