"""The Celery app. Its settings are the `CELERY_*` names in `config.settings`; the broker is Redis
when `CELERY_BROKER_URL` or `REDIS_URL` says so, else a folder under `var/` that needs no server.

Start a worker with `celery -A config worker` (or let `manage.py demo` start one)."""

from __future__ import annotations

import logging
import os

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("truco_arena")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Celery's Django fixup closes every database connection before and after each task unless
# this is set, so each task opened a new one (on PostgreSQL a server process forked and
# authenticated: tens of milliseconds a task). Connections live as Django's CONN_MAX_AGE and
# health checks say instead (`reuse_connections_as_django_does` below); the fixup still closes
# them every this many tasks.
app.conf.CELERY_DB_REUSE_MAX = 10_000

if os.environ.get("TRUCO_PROFILE_DIR"):  # where a worker's time goes (bench_stack --profile)
    from stack.profiling import install

    install(os.environ["TRUCO_PROFILE_DIR"])


@signals.worker_init.connect
def load_plugins_before_forking(**_):
    """Load the plugin registry (every entry point imported: about 60 ms) in the worker's main
    process, before it forks its pool: the children inherit it, and no task pays for it. A
    plugin that fails to load must not stop the worker: its tasks load the registry again and
    report the failure as before, match by match."""
    from engine.plugins import registry

    try:
        registry()
    except Exception:
        logging.getLogger(__name__).exception("the plugins failed to load; tasks will retry")
    # Connected now, after the Django fixup's own handler (connected when the worker started),
    # which closes the connections a pool process inherited: ours runs after it.
    signals.worker_process_init.connect(connect_before_the_first_task, weak=False)


def connect_before_the_first_task(**_):
    """Open a pool process's database connection when it starts, not in its first task (whose
    claim would wait for it). A database that cannot be reached yet is the first task's trouble,
    as before."""
    from django.db import connection

    try:
        connection.ensure_connection()
    except Exception:
        logging.getLogger(__name__).warning("no database connection yet", exc_info=True)


@signals.task_prerun.connect
def reuse_connections_as_django_does(**_):
    """Before each task, what Django does before each request: close a connection that is
    broken or older than CONN_MAX_AGE (the next query opens a new one)."""
    from django.db import close_old_connections

    close_old_connections()
