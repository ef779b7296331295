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
