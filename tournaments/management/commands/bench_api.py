"""`python manage.py bench_api`: how fast the API answers for a big tournament.

Builds a 256-entrant, 8-round Swiss (paired by the real format, results drawn from a fixed
generator, no games played) in a throwaway test database (SQLite in memory, or a test database
next to the configured PostgreSQL one), then times requests through Django's whole request
stack with its test client and prints the 50th and 95th percentiles:

- the standings endpoint, cold (the cache emptied before every request: full computation) and
  warm (cached until the next result);
- the tournament's bracket, its detail with entrants, a page of its matches, and its web page.

The target is the standings under 50 ms at the 95th percentile. It prints numbers; it passes or
fails nothing.
"""

from __future__ import annotations

import random
import statistics
import time

from django.core.cache import cache
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.test import Client
from django.test.utils import setup_test_environment, teardown_test_environment
from django.utils import timezone

from players.models import Player
from submitted_bots.models import Bot
from tournaments import lifecycle, scheduling
from tournaments.models import Entrant, Match, Tournament


class Command(BaseCommand):
    help = "Time the standings endpoint (and a few others) of a 256-entrant, 8-round Swiss."

    def add_arguments(self, parser):
        parser.add_argument("--entrants", type=int, default=256)
        parser.add_argument("--rounds", type=int, default=8)
        parser.add_argument("--requests", type=int, default=200, help="per endpoint")

    def handle(self, *args, **opts):
        if opts["entrants"] < 2 or opts["rounds"] < 1 or opts["requests"] < 2:
            raise CommandError("--entrants needs 2 or more, --rounds 1 or more, --requests 2+")
        setup_test_environment()
        old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
        try:
            self.bench(opts)
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)
            teardown_test_environment()

    def bench(self, opts) -> None:
        started = time.perf_counter()
        tournament = build_swiss(opts["entrants"], opts["rounds"])
        matches = Match.objects.filter(tournament=tournament).count()
        self.stdout.write(
            f"built a {opts['entrants']}-entrant, {opts['rounds']}-round Swiss with {matches} "
            f"matches in {time.perf_counter() - started:.1f} s "
            f"({connection.vendor} test database)"
        )
        client = Client()
        n = opts["requests"]
        base = f"/api/tournaments/{tournament.pk}/"
        self.report(
            "GET standings, cold (cache emptied each time)",
            client,
            base + "standings/",
            n,
            cold=True,
        )
        self.report(
            "GET standings, warm (cached until the next result)", client, base + "standings/", n
        )
        self.report("GET bracket, every round", client, base + "bracket/", n)
        self.report(
            "GET bracket, the last round (what the page polls)",
            client,
            base + f"bracket/?round={opts['rounds']}",
            n,
        )
        self.report("GET tournament with its entrants", client, base, n)
        self.report(
            "GET a page of 50 matches", client, f"/api/matches/?tournament={tournament.pk}", n
        )
        self.report("GET the tournament's web page", client, f"/tournaments/{tournament.pk}/", n)

    def report(self, label: str, client: Client, url: str, n: int, cold: bool = False) -> None:
        samples = []
        for _ in range(n):
            if cold:
                cache.clear()
            began = time.perf_counter()
            response = client.get(url)
            samples.append(time.perf_counter() - began)
            if response.status_code != 200:
                raise CommandError(f"GET {url} answered {response.status_code}")
        cuts = statistics.quantiles(samples, n=100)
        self.stdout.write(
            f"{label:<52} p50 {cuts[49] * 1000:6.1f} ms   p95 {cuts[94] * 1000:6.1f} ms   "
            f"max {max(samples) * 1000:6.1f} ms   ({n} requests, {len(response.content)} bytes)"
        )


def build_swiss(entrants: int, rounds: int) -> Tournament:
    """A Swiss tournament played round by round with drawn results (no games)."""
    tournament = Tournament.objects.create(
        name=f"bench swiss {entrants}",
        variant="paulista",
        format="swiss",
        format_options={"rounds": rounds},
        games_per_match=10,
        seeding=Tournament.Seeding.ORDER,
        seed=7,
        competitive=False,
    )
    players = Player.objects.bulk_create(
        [Player(name=f"bench bot {i}", kind=Player.Kind.BOT) for i in range(entrants)]
    )
    bots = Bot.objects.bulk_create([Bot(name=p.name, plugin="random", player=p) for p in players])
    Entrant.objects.bulk_create([Entrant(tournament=tournament, name=b.name, bot=b) for b in bots])
    lifecycle.start(tournament, publish=False)
    rng = random.Random(7)
    while True:
        pending = list(Match.objects.filter(tournament=tournament, status=Match.Status.PENDING))
        if not pending:
            break
        now = timezone.now()
        for m in pending:
            m.wins_a = rng.randint(0, 10)
            m.wins_b = 10 - m.wins_a
            m.points_a, m.points_b = 12 * m.wins_a, 12 * m.wins_b
            m.games_played = 10
            if m.wins_a != m.wins_b:
                m.winner_id = m.entrant_a_id if m.wins_a > m.wins_b else m.entrant_b_id
            m.status = Match.Status.DONE
            m.finished_at = now
        Match.objects.bulk_update(
            pending,
            [
                "wins_a",
                "wins_b",
                "points_a",
                "points_b",
                "games_played",
                "winner",
                "status",
                "finished_at",
            ],
        )
        scheduling.advance(tournament.pk)
    return tournament
