"""`python manage.py demo`: the main job, from a fresh clone to a tournament you can watch.

Migrates the database, loads the plugins (a Bot for every registered bot), creates the `admin`
account and prints how to log in, starts a Celery worker and the web server, then runs a
tournament of the built-in bots on the workers and prints its standings. With the defaults
(no DATABASE_URL, no broker) everything lives under var/ and nothing else needs installing.
The server keeps running until Ctrl-C, unless `--exit-when-done`.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from engine.plugins import registry
from engine.progress import progress_bar
from stack.database import is_new_database, pending_migrations
from stack.supervision import WorkerSupervisor
from stack.web_process import WebServerError, start_web_server, stop_web_server
from stack.workers import start_worker, wait_until_ready
from submitted_bots.models import Bot
from tournaments import lifecycle, scheduling
from tournaments.builders import bots_named, create_tournament, parse_bot_items
from tournaments.models import Tournament
from tournaments.reports import standings_text
from tournaments.runner import wait_for_workers
from website.periodic import periodic_jobs

ADMIN_USERNAME = "admin"
DEMO_SIZE = 8  # entrants: every built-in bot, then copies of the random bot up to this many
DEMO_MARKER = "demo-tournament.txt"  # in var/: the id of the demo's own tournament


def _interrupt(signum, frame):
    raise KeyboardInterrupt


class Command(BaseCommand):
    help = __doc__.split("\n\n")[1].replace("\n", " ")

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--variant", default="paulista")
        parser.add_argument("--format", default="swiss", choices=sorted(registry().formats))
        parser.add_argument(
            "--bots", nargs="+", default=None, help="default: every registered bot, 8 entrants"
        )
        parser.add_argument("--games", type=int, default=10, help="games per match")
        parser.add_argument("--workers", type=int, default=2, help="worker processes")
        parser.add_argument(
            "--exit-when-done", action="store_true", help="stop everything once it is over"
        )

    def handle(self, *args, **opts):
        # Stopped by `kill` or a closed terminal rather than Ctrl-C, it must still stop the
        # worker, which runs in a session of its own and would otherwise outlive it.
        for signum in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, _interrupt)
        var_dir = Path(settings.VAR_DIR)
        var_dir.mkdir(parents=True, exist_ok=True)
        self.check_port(opts["host"], opts["port"])
        self.say("1/5 database")
        self.migrate()
        self.say("2/5 plugins")
        self.load_plugins()
        self.say("3/5 admin account")
        login = self.ensure_admin(var_dir)
        self.say(f"4/5 worker ({_broker_label()}) and web server")
        self.supervisor = self.supervise_worker(opts["workers"], var_dir)
        web = None
        finished = False
        try:
            for worker in self.supervisor.workers.values():
                wait_until_ready(worker)
            web = self.start_web(opts["host"], opts["port"], var_dir)
            url = f"http://{opts['host']}:{opts['port']}/"
            self.say(f"    serving {url} (admin: {url}admin/, API: {url}api/docs/)")
            self.say("5/5 demo tournament")
            self.replace_previous_demo(var_dir)
            tournament = self.create_demo(opts)
            self.remember_demo(var_dir, tournament)
            page = f"{url}tournaments/{tournament.pk}/"
            self.say(f"    watch it at {page} ({login})")
            self.run(tournament)
            finished = True
            self.stdout.write(standings_text(scheduling.standings(tournament)))
            if opts["exit_when_done"]:
                self.check_page(page)
                self.check_page(url + "admin/login/")
                return
            self.say(f"\nThe server keeps running at {url}; press Ctrl-C to stop.")
            self.serve(web)
        except KeyboardInterrupt:
            self.say("\nstopping the web server and the worker")
        finally:
            if web is not None:
                stop_web_server(web)
            self.supervisor.stop(idle=finished)

    def supervise_worker(self, concurrency: int, var_dir: Path) -> WorkerSupervisor:
        """The workers, restarted (loudly) whenever one dies; their process ids in
        var/worker.pid. One plays the matches, one the bots' replies at people's tables (so
        that nobody waits behind a match). Their names stay the same across restarts, so that a
        restarted worker takes over its remote-control queue."""
        return WorkerSupervisor(
            demo_workers(concurrency, var_dir / "worker.log"),
            self.warn,
            var_dir / "worker.log",
            var_dir / "worker.pid",
            periodic=periodic_jobs(),
        )

    def serve(self, web: subprocess.Popen) -> None:
        """Until the web server stops (or Ctrl-C): keep the worker alive and sweep."""
        while web.poll() is None:
            self.supervisor.check()
            self.supervisor.sweep_if_due()
            time.sleep(0.5)

    def warn(self, text: str) -> None:
        self.stderr.write(text, style_func=self.style.ERROR)
        self.stderr.flush()

    def migrate(self) -> None:
        """Migrate, saying what happened: a new database set up, migrations applied, or
        nothing to do."""
        new, pending = is_new_database(), len(pending_migrations())
        call_command("migrate", interactive=False, verbosity=0)
        if new:
            self.say(f"    {_database_label()}: new, set up ({pending} migrations applied)")
        elif pending:
            self.say(f"    {_database_label()}: {pending} new migrations applied")
        else:
            self.say(f"    {_database_label()} is up to date")

    def say(self, text: str) -> None:
        self.stdout.write(text)
        self.stdout.flush()

    def check_port(self, host: str, port: int) -> None:
        with socket.socket() as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind((host, port))
            except OSError as exc:
                raise CommandError(
                    f"cannot serve on {host}:{port} ({exc.strerror}); choose another with --port",
                    returncode=2,
                ) from None

    def load_plugins(self) -> None:
        reg = registry()
        for name in sorted(reg.bots):
            if not Bot.objects.filter(name=name, version="").exists():
                Bot.objects.create(name=name, plugin=name, description="built-in plugin")
        self.say(f"    variants: {', '.join(sorted(reg.variants))}")
        self.say(f"    bots: {', '.join(sorted(reg.bots))}")

    def ensure_admin(self, var_dir: Path) -> str:
        """Create `admin` with a password kept in var/admin-password.txt (readable by the owner
        only), so that every later run can still say how to log in."""
        users = get_user_model()
        secret_file = var_dir / "admin-password.txt"
        user = users.objects.filter(username=ADMIN_USERNAME).first()
        if user is None:
            password = os.environ.get("DEMO_ADMIN_PASSWORD") or secrets.token_urlsafe(12)
            users.objects.create_superuser(ADMIN_USERNAME, "", password)
            secret_file.write_text(password + "\n")
            secret_file.chmod(0o600)
            self.say(f"    created the superuser {ADMIN_USERNAME!r}")
        saved = secret_file.read_text().strip() if secret_file.exists() else ""
        user = users.objects.get(username=ADMIN_USERNAME)
        if saved and user.check_password(saved):
            login = f"log in as {ADMIN_USERNAME} / {saved}"
        else:
            login = (
                f"log in as {ADMIN_USERNAME} with the password you set "
                f"(python manage.py changepassword {ADMIN_USERNAME} sets a new one)"
            )
        self.say(f"    {login}")
        return login

    def start_web(self, host: str, port: int, var_dir: Path) -> subprocess.Popen:
        try:
            return start_web_server(port, var_dir / "web.log", host=host)
        except WebServerError as exc:
            raise CommandError(str(exc)) from None

    def check_page(self, url: str) -> None:
        with urllib.request.urlopen(url, timeout=10) as page:
            self.say(f"    {url} answered {page.status}")

    def replace_previous_demo(self, var_dir: Path) -> None:
        """Each run replaces the demo's own tournament (its id is kept in var/), so that the
        list does not fill up with demos; no other tournament is touched."""
        marker = var_dir / DEMO_MARKER
        try:
            previous = int(marker.read_text().strip())
        except (OSError, ValueError):
            return
        deleted, _ = Tournament.objects.filter(pk=previous).delete()
        if deleted:
            self.say(f"    replaced the previous demo tournament (#{previous})")
        marker.unlink(missing_ok=True)

    def remember_demo(self, var_dir: Path, tournament: Tournament) -> None:
        (var_dir / DEMO_MARKER).write_text(f"{tournament.pk}\n")

    def create_demo(self, opts) -> Tournament:
        if opts["bots"]:
            names = parse_bot_items(opts["bots"])
        else:
            names = sorted(registry().bots)
            names += ["random"] * max(0, DEMO_SIZE - len(names))
        try:
            tournament = create_tournament(
                name=f"Demo: {opts['format']} of the built-in bots",
                variant=opts["variant"],
                format=opts["format"],
                bots=bots_named(names),
                games_per_match=opts["games"],
            )
            try:
                lifecycle.start(tournament)
            except lifecycle.LifecycleError:
                tournament.delete()  # the demo's own draft, never started: not left behind
                raise
        except (ValidationError, lifecycle.LifecycleError) as exc:
            messages = exc.messages if isinstance(exc, ValidationError) else [str(exc)]
            raise CommandError("; ".join(messages), returncode=2) from None
        games = f"{opts['games']} game{'s' if opts['games'] != 1 else ''}"
        self.say(f"    {tournament.label}: {len(names)} entrants, {games} a match")
        return tournament

    def run(self, tournament: Tournament) -> None:
        total = scheduling.expected_matches(tournament, tournament.entrants.count())
        with progress_bar(total, tournament.name) as advance:
            shown = 0

            def on_progress(state):
                nonlocal shown
                self.supervisor.check()
                for _ in range(state.done - shown):
                    advance(f"{state.games} games")
                shown = max(shown, state.done)

            status = wait_for_workers(tournament, on_progress)
        if status != Tournament.Status.DONE:
            raise CommandError(f"the demo tournament stopped: it is {status}", returncode=1)


def demo_workers(concurrency: int, log_path: Path) -> dict:
    """How to start the demo's workers: the matches' (`concurrency` processes). People's tables
    are played by the table host inside the web server (config/asgi.py)."""
    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    return {
        "matches": lambda: start_worker(
            concurrency,
            log_file=open(log_path, "ab"),
            loglevel="INFO",
            name=f"demo-{queue}@%h",
            queues=[queue],
        )
    }


def _database_label() -> str:
    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("sqlite3"):
        return f"SQLite database {db['NAME']}"
    return f"{db['ENGINE'].rsplit('.', 1)[-1]} database {db['NAME']} on {db.get('HOST') or 'localhost'}"


def _broker_label() -> str:
    url = settings.CELERY_BROKER_URL
    if url.startswith("filesystem://"):
        return f"broker in {settings.BROKER_DIR}"
    return f"broker {url.split('@')[-1]}"
