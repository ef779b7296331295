"""The Django project: settings from the environment, migrations in step with the models, the
health check."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from types import SimpleNamespace

import pytest
from django.core.management import call_command

from .conftest import PROJECT_DIR

SHOW = (
    "import json, django; django.setup(); from django.conf import settings as s; "
    "print(json.dumps({'db': s.DATABASES['default']['ENGINE'], "
    "'name': str(s.DATABASES['default']['NAME']), 'broker': s.CELERY_BROKER_URL, "
    "'transport': s.CELERY_BROKER_TRANSPORT_OPTIONS, 'queue': s.CELERY_TASK_DEFAULT_QUEUE, "
    "'acks_late': s.CELERY_TASK_ACKS_LATE, 'reject': s.CELERY_TASK_REJECT_ON_WORKER_LOST}))"
)
SERVICE_VARS = ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "TRUCO_QUEUE", "TRUCO_VAR_DIR")


def settings_with(**env) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in (*SERVICE_VARS, "DJANGO_SECRET_KEY")}
    return subprocess.run(
        [sys.executable, "-c", SHOW],
        cwd=PROJECT_DIR,
        env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
    )


def test_with_no_environment_the_database_is_sqlite_and_the_broker_a_folder_under_var(tmp_path):
    shown = json.loads(settings_with(TRUCO_VAR_DIR=str(tmp_path)).stdout)
    assert shown["db"] == "django.db.backends.sqlite3"
    assert shown["name"] == str(tmp_path / "truco_arena.sqlite3")
    assert shown["broker"].startswith("filesystem://")
    assert shown["transport"]["data_folder_in"] == str(tmp_path / "broker" / "queue")
    assert (tmp_path / "broker" / "queue").is_dir()
    assert shown["acks_late"] and shown["reject"] and shown["queue"] == "truco"


def test_database_url_and_redis_url_select_postgresql_and_redis(tmp_path):
    shown = json.loads(
        settings_with(
            TRUCO_VAR_DIR=str(tmp_path),
            DATABASE_URL="postgres://u:p@db.example:5432/arena",
            REDIS_URL="redis://cache.example:6379/2",
            CELERY_VISIBILITY_TIMEOUT="45",
        ).stdout
    )
    assert shown["db"] == "django.db.backends.postgresql" and shown["name"] == "arena"
    assert shown["broker"] == "redis://cache.example:6379/2"
    assert shown["transport"]["visibility_timeout"] == 45


def test_celery_broker_url_wins_over_redis_url(tmp_path):
    shown = json.loads(
        settings_with(
            TRUCO_VAR_DIR=str(tmp_path),
            REDIS_URL="redis://a:6379/0",
            CELERY_BROKER_URL="redis://b:6379/1",
        ).stdout
    )
    assert shown["broker"] == "redis://b:6379/1"


KEYS = (
    "import json, django; django.setup(); from django.conf import settings as s; "
    "print(json.dumps([s.SECRET_KEY, s.TRUCO_DEAL_SECRET]))"
)


def keys_with(**env) -> list[str]:
    clean = {k: v for k, v in os.environ.items() if k not in (*SERVICE_VARS, "DJANGO_SECRET_KEY")}
    done = subprocess.run(
        [sys.executable, "-c", KEYS],
        cwd=PROJECT_DIR,
        env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_development_site_without_a_key_makes_its_own_and_keeps_it(tmp_path):
    """The fallback key was a constant in this file, so anyone could compute the daily tables'
    deals (keyed with it) from the source: each site now draws its own, once."""
    first = keys_with(TRUCO_VAR_DIR=str(tmp_path))
    assert first == keys_with(TRUCO_VAR_DIR=str(tmp_path))  # the web server's is the worker's
    assert first != keys_with(TRUCO_VAR_DIR=str(tmp_path / "another-site"))
    kept = tmp_path / "secret-key.txt"
    assert kept.read_text().strip() == first[0] and len(first[0]) >= 50
    assert kept.stat().st_mode & 0o077 == 0  # its owner's only
    assert "insecure" not in first[0]
    assert keys_with(TRUCO_VAR_DIR=str(tmp_path), DJANGO_SECRET_KEY="given")[0] == "given"


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DJANGO_DEBUG": "0"}, "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off"),
        ({"TRUCO_MATCH_LEASE_SECONDS": "soon"}, "TRUCO_MATCH_LEASE_SECONDS must be an integer"),
    ],
)
def test_bad_settings_stop_with_a_clear_message(tmp_path, env, message):
    result = settings_with(TRUCO_VAR_DIR=str(tmp_path), **env)
    assert result.returncode != 0
    assert message in result.stderr


def test_with_debug_off_every_command_runs_before_the_static_files_are_collected(tmp_path):
    """The production shape: DJANGO_DEBUG=0, the static files not collected yet (a fresh
    image's first `migrate`). Every command loaded the URLs, which looked up the favicon's
    hashed name in a manifest that did not exist yet: "Missing staticfiles manifest entry"
    before `migrate` or `collectstatic` could run. Then the collected site answers."""
    clean = {k: v for k, v in os.environ.items() if k not in (*SERVICE_VARS, "DJANGO_SECRET_KEY")}
    env = {
        **clean,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "x" * 60,
        "DJANGO_ALLOWED_HOSTS": "localhost",
        "TRUCO_VAR_DIR": str(tmp_path / "var"),
        "TRUCO_STATIC_ROOT": str(tmp_path / "static"),
    }

    def manage(*args):
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=PROJECT_DIR,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )

    for command in (["check"], ["migrate", "--noinput"], ["showmigrations"]):
        done = manage(*command)
        assert done.returncode == 0, (command, done.stderr[-2000:])
    collected = manage("collectstatic", "--noinput")
    assert collected.returncode == 0, collected.stderr[-2000:]
    favicon = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); from django.test import Client; "
            "r = Client().get('/favicon.ico', HTTP_HOST='localhost'); "
            "print(r.status_code, r['Location'])",
        ],
        cwd=PROJECT_DIR,
        env=env,
        capture_output=True,
        text=True,
    )
    status, location = favicon.stdout.split()
    assert (
        status == "301"
        and location.startswith("/static/website/favicon.")
        and location != ("/static/website/favicon.svg")
    ), favicon.stderr  # the hashed name of the collected file


@pytest.mark.django_db
def test_the_migrations_match_the_models():
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


@pytest.mark.django_db
def test_the_health_check_answers_when_the_database_does(client):
    response = client.get("/healthz")
    assert response.status_code == 200 and response.json() == {"status": "ok"}


def test_a_worker_loads_the_plugins_before_it_forks_its_pool():
    """Loading every plugin's entry point takes tens of milliseconds: a worker's main process
    pays it once when it starts (celery's worker_init), so that no task of a forked child
    does (bench_stack, 1-game matches: it was a fifth of a worker's task time)."""
    from celery import signals

    from config.celery import load_plugins_before_forking
    from engine import plugins

    # Called as the signal calls it (sending worker_init itself would run Celery's Django
    # fixup, which wants a real worker).
    assert load_plugins_before_forking in [ref() for _, ref in signals.worker_init.receivers]
    plugins.reset()
    assert plugins._default.cache_info().currsize == 0
    load_plugins_before_forking(sender=None)
    assert plugins._default.cache_info().currsize == 1
    assert "random" in plugins.registry().bots


def test_a_plugin_that_fails_to_load_does_not_stop_the_worker(monkeypatch, caplog):
    from config.celery import load_plugins_before_forking
    from engine import plugins

    def broken():
        raise ImportError("a plugin's module is missing")

    plugins.reset()
    monkeypatch.setattr(plugins, "make_plugin_manager", broken)
    load_plugins_before_forking(sender=None)  # logs, does not raise
    assert "the plugins failed to load" in caplog.text
    monkeypatch.undo()
    plugins.reset()
    assert "random" in plugins.registry().bots  # the next task loads them


@pytest.mark.postgres  # SQLite's in-memory test database is never closed
def test_a_worker_keeps_its_database_connection_from_one_task_to_the_next(monkeypatch):
    """Celery's Django fixup closes every connection before and after each task unless told to
    reuse them: a new PostgreSQL connection a task, tens of milliseconds of a one-game match's
    task. The project tells it to, and closes what Django would close before a request."""
    from celery.fixups.django import DjangoWorkerFixup
    from django.db import connection

    from config.celery import app, reuse_connections_as_django_does

    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 60)  # the project's default
    connection.close()
    connection.ensure_connection()
    opened = connection.connection
    fixup = DjangoWorkerFixup(app)
    task = SimpleNamespace(request=SimpleNamespace(is_eager=False))  # as a worker runs it
    fixup.on_task_prerun(sender=task)
    fixup.on_task_postrun(sender=task)
    reuse_connections_as_django_does()
    assert connection.connection is opened  # the same connection serves the next task


@pytest.mark.postgres  # SQLite's in-memory test database is never closed
def test_a_connection_older_than_its_age_is_closed_before_the_next_task():
    from django.db import connection

    from config.celery import reuse_connections_as_django_does

    connection.close()
    connection.ensure_connection()
    connection.close_at = 0  # past CONN_MAX_AGE
    reuse_connections_as_django_does()
    assert connection.connection is None  # the task's first query opens a new one


@pytest.mark.django_db(transaction=True)
def test_a_pool_process_connects_to_the_database_before_its_first_task():
    from django.db import connection

    from config.celery import connect_before_the_first_task

    connection.close()
    connect_before_the_first_task()
    assert connection.connection is not None
    connection.close()
