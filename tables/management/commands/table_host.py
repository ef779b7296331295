"""`python manage.py table_host`: a table host (tables/host.py) until stopped: it keeps tables
in play, runs their robots and timers, and pushes their states. Scalable: run as many as the
tables need, on any machine that reaches the database and the channel layer (Redis)."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from tables.host import alive_here, serve_forever


class Command(BaseCommand):
    help = "Run a table host: it keeps tables in play, their robots, timers and push updates."

    def add_arguments(self, parser):
        parser.add_argument(
            "--check",
            action="store_true",
            help="exit 0 if a table host of this machine beat lately, else 1 (health checks)",
        )

    def handle(self, *args, **options):
        if options["check"]:
            if not alive_here():
                raise CommandError("no table host of this machine beat lately", returncode=1)
            self.stdout.write("a table host of this machine is running")
            return
        if not settings.CHANNELS_REDIS_URL:
            raise CommandError(
                "a table host of its own needs the shared channel layer: set CHANNELS_REDIS_URL "
                "(or REDIS_URL); without one the web server runs the host itself",
                returncode=2,
            )
        self.stdout.write("table host: serving tables (Ctrl-C to stop)")
        try:
            serve_forever()
        except KeyboardInterrupt:
            pass
