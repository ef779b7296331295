"""Hosts that share nothing but the services (issue 19): a web host and two worker hosts, each a
process of its own with its own TRUCO_VAR_DIR and machine name, sharing only PostgreSQL, Redis
and an object store (a moto S3 server in a process of its own: tests/s3_support.py). A bundle
uploaded through the web host's REST API is kept in the object store, validated on a worker host
(which fetched it from there) and played on the worker hosts; a worker host killed in the middle
of a match loses no match, and no match is recorded twice."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests
from django.db.models import Q
from rest_framework.authtoken.models import Token

from stack.web_process import start_web_server, stop_web_server
from stack.workers import kill_worker, start_worker, stop_worker, wait_until_ready
from submitted_bots.bundles.operator import zipped
from submitted_bots.models import Bot
from tests.e2e_support import (
    drop_queue,
    free_port,
    ping_redis,
    require_service,
    services_environment,
)
from tests.factories import BotFactory, StaffFactory, TournamentFactory
from tests.jail.conftest import jail_or_skip
from tournaments.models import Entrant, Game, Match, Tournament

from .conftest import PROJECT_DIR

pytestmark = [pytest.mark.services, pytest.mark.postgres]

EXAMPLE = PROJECT_DIR / "examples" / "bots" / "python-greedy"
LEASE_SECONDS = 4


@dataclass
class Host:
    name: str
    var_dir: Path
    env: dict[str, str]

    @property
    def cache(self) -> Path:
        return self.var_dir / "bundle-cache"


@pytest.fixture
def hosts(postgres_orm_url, s3_process, tmp_path):
    """The environment of each host: the same services, a folder and a name of its own."""
    require_service("Redis", ping_redis)
    shared = services_environment(
        postgres_orm_url,
        tmp_path / "unused",
        # A killed host's unacknowledged message goes to another host after 2 s; its claim
        # is taken over once its lease ran out (another machine: its pids mean nothing here).
        CELERY_VISIBILITY_TIMEOUT="2",
        CELERY_RESTORE_INTERVAL="1",
        TRUCO_MATCH_LEASE_SECONDS=str(LEASE_SECONDS),
        # The smoke match's opponent is drawn among the quick built-in bots (against mcts, a
        # validation takes 15 s more); the tournament's bots are random and heuristic anyway.
        TRUCO_BLOCKED_PLUGINS="mcts expert",
        **s3_process.environment(),
    )
    made = {}
    for name in ("web-host", "host-a", "host-b"):
        var_dir = tmp_path / name
        var_dir.mkdir()
        env = {**shared, "TRUCO_VAR_DIR": str(var_dir), "TRUCO_MACHINE_NAME": name}
        made[name] = Host(name, var_dir, env)
    yield made
    drop_queue(shared)


def wait_for(condition, seconds: float, what: str):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"not within {seconds:g} s: {what}")


def test_a_bundle_uploaded_on_the_web_host_is_validated_and_played_on_worker_hosts_that_survive_a_kill(  # noqa: E501
    hosts, s3_process
):
    jail_or_skip()
    web_host, host_a, host_b = hosts["web-host"], hosts["host-a"], hosts["host-b"]
    workers = {
        host.name: start_worker(
            1,
            env=host.env,
            name=f"matches@{host.name}",
            loglevel="INFO",
            log_file=open(host.var_dir / "worker.log", "ab"),
        )
        for host in (host_a, host_b)
    }
    web = None
    try:
        for worker in workers.values():
            wait_until_ready(worker)
        port = free_port()
        web = start_web_server(port, web_host.var_dir / "web.log", env=web_host.env)
        site = f"http://127.0.0.1:{port}"
        session = requests.Session()
        session.headers["Authorization"] = f"Token {Token.objects.create(user=StaffFactory()).key}"

        created = session.post(
            f"{site}/api/bots/",
            files={"bundle": ("py-greedy.zip", zipped(EXAMPLE))},
            timeout=30,
        )
        assert created.status_code == 201, created.text[:500]
        uploaded = created.json()
        decided = wait_for(
            lambda: (
                (body := session.get(f"{site}/api/bots/{uploaded['id']}/", timeout=10).json())
                and body["status"] != "validating"
                and body
            ),
            90,
            "the upload was validated",
        )
        assert decided["status"] == "ready", decided["status_reason"]
        # Kept in the object store only; the web host holds no copy, the host that validated
        # it fetched its own.
        assert [key for key in s3_process.object_keys() if uploaded["sha256"][:16] in key]
        assert not (web_host.var_dir / "bundles").exists()
        assert not (web_host.cache / uploaded["sha256"]).exists()
        assert any((host.cache / uploaded["sha256"]).is_dir() for host in (host_a, host_b))

        bundle_bot = Bot.objects.get(pk=uploaded["id"])
        cup = TournamentFactory(name="Far Cup", format="round-robin", games_per_match=40)
        rivals = [
            BotFactory(name="house-random"),
            BotFactory(name="house-heur", plugin="heuristic"),
        ]
        for bot in (bundle_bot, *rivals):
            Entrant.objects.create(tournament=cup, name=bot.label, bot=bot)
        started = session.post(f"{site}/api/tournaments/{cup.pk}/start/", timeout=30)
        assert started.status_code == 200, started.text[:500]

        # A host in the middle of a match of the bundle (which host takes it is the broker's
        # choice): kill the whole host (its worker and its pool process, as a machine lost
        # would be).
        of_bundle = Q(entrant_a__bot=bundle_bot) | Q(entrant_b__bot=bundle_bot)
        mid_match = wait_for(
            lambda: (
                Match.objects.filter(of_bundle, tournament=cup, status=Match.Status.RUNNING)
                .filter(Q(worker__startswith="host-a:") | Q(worker__startswith="host-b:"))
                .first()
            ),
            120,
            "a worker host played a match of the bundle",
        )
        holder = mid_match.worker.split(":")[0]
        (survivor,) = set(workers) - {holder}
        kill_worker(workers[holder])
        assert Match.objects.get(pk=mid_match.pk).status == Match.Status.RUNNING

        wait_for(
            lambda: Tournament.objects.get(pk=cup.pk).status == Tournament.Status.DONE,
            120,
            f"the tournament ended: {list(Match.objects.filter(tournament=cup).values('status', 'worker', 'error'))}",  # noqa: E501
        )
        taken_over = Match.objects.get(pk=mid_match.pk)
        assert taken_over.worker.startswith(f"{survivor}:") and taken_over.attempts >= 2
        for match in Match.objects.filter(tournament=cup, entrant_b__isnull=False):
            games = Game.objects.filter(match=match)
            assert match.status == Match.Status.DONE
            assert games.count() == games.values("index").distinct().count()
            assert games.count() == match.games_played >= 40
        bundle_games = Game.objects.filter(
            match__in=Match.objects.filter(of_bundle, tournament=cup)
        )
        assert set(bundle_games.values_list("termination", flat=True)) == {"normal"}
        rows = requests.get(f"{site}/api/tournaments/{cup.pk}/standings/", timeout=30).json()
        assert {row["entrant"]["name"] for row in rows["rows"]} == {
            bundle_bot.label,
            "house-random",
            "house-heur",
        }
    finally:
        if web is not None:
            stop_web_server(web)
        for worker in workers.values():
            stop_worker(worker, idle=True)  # the tournament is over (or the test failed)
