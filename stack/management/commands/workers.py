"""`python manage.py workers`: is a Celery worker consuming this project's queue? Prints what
the workers answered (Celery's remote control) and exits 0 if one is, 1 if none is."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from stack import worker_health


class Command(BaseCommand):
    help = __doc__.split("\n\n")[0].split(": ", 1)[1].replace("\n", " ")

    def add_arguments(self, parser):
        parser.add_argument(
            "--timeout",
            type=float,
            default=worker_health.REPLY_SECONDS,
            help="seconds to wait for the workers' answers",
        )
        parser.add_argument("--json", action="store_true", help="print it as one JSON line")

    def handle(self, *args, **opts):
        if opts["timeout"] <= 0:
            raise CommandError("--timeout must be a positive number of seconds", returncode=2)
        health = worker_health.probe(opts["timeout"])
        if opts["json"]:
            self.stdout.write(json.dumps(health.to_json()))
        else:
            self.stdout.write(health.detail)
            for name in health.workers:
                self.stdout.write(f"  {name}")
        if not health.alive:
            raise SystemExit(1)
