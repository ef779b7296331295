"""Deal seeds are secret until their match (or tournament) is over; before, everyone sees a
commitment that the revealed seed must hash to; seeds derive one way, so a revealed one gives
away no other; verify_match checks a finished match's cards against its seeds."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from engine.deal_check import deal_differences
from engine.match import game_seed
from engine.seeds import seed_commitment
from tests.factories import BotFactory, TournamentFactory
from tests.surface import play_until
from tournaments import execution, lifecycle
from tournaments.builders import bots_named
from tournaments.models import Entrant, Game, Match, Tournament
from tournaments.runner import run_in_process
from tournaments.seeds import daily_seed, match_seed

pytestmark = pytest.mark.django_db

PROJECT_DIR = Path(__file__).resolve().parents[2]


def sha256_commitment(seed: int) -> str:
    """The commitment as docs/security.md tells anyone to compute it."""
    return hashlib.sha256(f"truco-seed:{seed}".encode()).hexdigest()


def four_bot_cup(**fields) -> Tournament:
    tournament = TournamentFactory(games_per_match=2, **fields)
    for bot in bots_named(["random"] * 4):
        Entrant.objects.create(tournament=tournament, name=bot.label, bot=bot)
    return tournament


def play_one_match(tournament: Tournament) -> Match:
    match = Match.objects.filter(tournament=tournament, entrant_b__isnull=False).first()
    assert execution.execute(match.pk).kind == "recorded"
    match.refresh_from_db()
    return match


def test_a_running_tournament_shows_its_seed_commitment_but_not_its_seed(api):
    tournament = four_bot_cup()
    lifecycle.start(tournament, publish=False)
    shown = api.get(f"/api/tournaments/{tournament.pk}/").json()
    assert shown["seed"] is None
    assert shown["seed_commitment"] == sha256_commitment(tournament.seed)
    listed = api.get("/api/tournaments/").json()["results"]
    assert [t["seed"] for t in listed] == [None]


def test_match_and_game_seeds_appear_only_once_the_match_is_done(api):
    tournament = four_bot_cup()
    lifecycle.start(tournament, publish=False)
    pending = Match.objects.filter(tournament=tournament).order_by("id")
    before = api.get(f"/api/matches/{pending[0].pk}/").json()
    assert before["seed"] is None
    assert before["seed_commitment"] == sha256_commitment(pending[0].seed)

    done = play_one_match(tournament)
    after = api.get(f"/api/matches/{done.pk}/").json()
    assert after["seed"] == done.seed
    assert sha256_commitment(after["seed"]) == before["seed_commitment"]
    games = api.get(f"/api/games/?match={done.pk}").json()["results"]
    # Two planned games (a drawn elimination match adds deciders, on seeds of their own).
    assert [g["seed"] for g in games[:2]] == [game_seed(done.seed, i) for i in range(2)]
    assert None not in [g["seed"] for g in games]
    # The other match of the round is still to play: its seed stays hidden.
    other = pending.exclude(pk=done.pk).first()
    assert api.get(f"/api/matches/{other.pk}/").json()["seed"] is None
    # ...and so does the tournament's, from which every later match derives.
    assert api.get(f"/api/tournaments/{tournament.pk}/").json()["seed"] is None


def test_a_revealed_game_seed_gives_away_neither_its_match_nor_another_game():
    """The formula of before (match_seed * 1_000_003 + index) was inverted by a bot; now each
    game's seed is a one-way hash of its parent."""
    match = 123_456_789
    first, second = game_seed(match, 0), game_seed(match, 1)
    assert (first - 0) // 1_000_003 != match  # the old inversion
    assert first * 1_000_003 + 1 != second
    assert len({game_seed(match, i) for i in range(1000)}) == 1000
    assert all(0 <= game_seed(match, i) < 2**63 for i in range(100))  # a BIGINT column


def test_a_finished_tournament_reveals_its_seed_and_every_match_derives_from_it(api):
    tournament = four_bot_cup()
    assert run_in_process(tournament) == Tournament.Status.DONE
    shown = api.get(f"/api/tournaments/{tournament.pk}/").json()
    assert shown["seed"] == tournament.seed
    for match in Match.objects.filter(tournament=tournament, entrant_b__isnull=False):
        assert match.seed == match_seed(shown["seed"], match.key)


def test_verify_checks_a_finished_match_against_its_commitment_and_its_cards(api):
    tournament = four_bot_cup()
    lifecycle.start(tournament, publish=False)
    unfinished = Match.objects.filter(tournament=tournament).order_by("id").last()
    commitment = api.get(f"/api/matches/{unfinished.pk}/").json()["seed_commitment"]
    refused = api.get(f"/api/matches/{unfinished.pk}/verify/")
    assert refused.status_code == 400
    assert "secret until it is done" in refused.json()["detail"]

    execution.execute(unfinished.pk)
    report = api.get(f"/api/matches/{unfinished.pk}/verify/", {"commitment": commitment}).json()
    assert report["ok"] is True, report
    names = [c["check"] for c in report["checks"]]
    assert names[:5] == ["commitment", "game 0 seed", "game 0 cards", "game 1 seed", "game 1 cards"]
    assert len(names) == 1 + 2 * report["games"]  # deciders, if any, are checked too

    wrong = api.get(f"/api/matches/{unfinished.pk}/verify/", {"commitment": "00" * 32}).json()
    assert wrong["ok"] is False


def test_verify_finds_a_card_that_its_seed_did_not_deal(api):
    tournament = four_bot_cup()
    lifecycle.start(tournament, publish=False)
    match = play_one_match(tournament)
    game = Game.objects.filter(match=match).order_by("index").first()
    record = game.record
    hand = record["hands"][0]
    hand["cards"][0], hand["cards"][1] = hand["cards"][1], hand["cards"][0]  # swap two hands
    Game.objects.filter(pk=game.pk).update(record=record)
    report = api.get(f"/api/matches/{match.pk}/verify/").json()
    assert report["ok"] is False
    failed = [c for c in report["checks"] if not c["ok"]]
    assert [c["check"] for c in failed] == ["game 0 cards"]
    assert "hand 0 cards" in failed[0]["detail"]


def test_verify_a_decider_and_a_human_table_use_their_own_seeds(user_api, user):
    """A table against a bot is a match too: its seed is hidden while it is played and
    verifiable once it is over."""
    created = user_api.post(
        "/api/play/quick/", {"variant": "paulista", "bot": "random", "games": 1}, format="json"
    )
    assert created.status_code in (200, 201), created.json()
    match_id = created.json()["match"]
    assert user_api.get(f"/api/matches/{match_id}/").json()["seed"] is None
    tournament_id = Match.objects.get(pk=match_id).tournament_id
    assert user_api.get(f"/api/tournaments/{tournament_id}/").json()["seed"] is None
    play_until(user_api, match_id, user_api.get(f"/api/play/matches/{match_id}/").json())
    report = user_api.get(f"/api/matches/{match_id}/verify/").json()
    assert report["ok"] is True, report
    assert user_api.get(f"/api/matches/{match_id}/").json()["seed"] is not None


def test_verify_match_command_exit_codes(capsys):
    tournament = four_bot_cup()
    lifecycle.start(tournament, publish=False)
    match = play_one_match(tournament)
    call_command("verify_match", str(match.pk), "--commitment", seed_commitment(match.seed))
    out = capsys.readouterr().out
    assert "verified" in out and f"seed {match.seed}" in out
    with pytest.raises(SystemExit) as failed:
        call_command("verify_match", str(match.pk), "--commitment", "ab" * 32)
    assert failed.value.code == 1
    pending = Match.objects.filter(tournament=tournament, status=Match.Status.PENDING).first()
    for bad in (str(pending.pk), "99999999", "not-a-number"):
        with pytest.raises(SystemExit) as refused:
            call_command("verify_match", bad)
        assert refused.value.code == 2


def test_the_daily_seed_is_keyed_with_the_server_secret(settings):
    from datetime import date

    day, rules = date(2026, 12, 1), {"deck": "dirty"}
    settings.TRUCO_DEAL_SECRET = "one"
    first = daily_seed(day, "paulista", rules, 2)
    assert daily_seed(day, "paulista", rules, 2) == first  # the same for every table today
    settings.TRUCO_DEAL_SECRET = "another"
    assert daily_seed(day, "paulista", rules, 2) != first  # not computable without the secret


def test_the_admin_shows_a_commitment_until_the_match_is_done(client, staff):
    bot = BotFactory(plugin="random")
    tournament = TournamentFactory(games_per_match=1)
    for name in ("a", "b"):
        Entrant.objects.create(tournament=tournament, name=name, bot=bot)
    lifecycle.start(tournament, publish=False)
    match = Match.objects.get(tournament=tournament)
    client.force_login(staff)
    page = client.get(f"/admin/tournaments/match/{match.pk}/change/").content.decode()
    assert str(match.seed) not in page
    assert seed_commitment(match.seed) in page
    page = client.get(f"/admin/tournaments/tournament/{tournament.pk}/change/").content.decode()
    assert str(tournament.seed) not in page
    execution.execute(match.pk)
    page = client.get(f"/admin/tournaments/match/{match.pk}/change/").content.decode()
    assert str(match.seed) in page


def test_the_engine_match_command_deals_each_game_from_the_same_derived_seed(tmp_path):
    """`python -m engine match --seed S` plays game i on game_seed(S, i), as the server does,
    so a revealed match seed replays (and verifies) the same way on the command line."""
    records = tmp_path / "games.jsonl"
    run = subprocess.run(
        [sys.executable, "-m", "engine", "match", "--bots", "random", "random"]
        + ["--games", "3", "--seed", "5", "--records", str(records)],
        cwd=PROJECT_DIR,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    games = [json.loads(line) for line in records.read_text().splitlines()]
    assert len(games) == 3
    for index, record in enumerate(games):
        assert deal_differences(record, game_seed(5, index)) == []
    assert deal_differences(games[1], game_seed(5, 0)) != []


def test_the_match_page_shows_the_commitment_then_the_seed(client):
    tournament = four_bot_cup()
    lifecycle.start(tournament, publish=False)
    match = Match.objects.filter(tournament=tournament).order_by("id").first()
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert seed_commitment(match.seed) in page and str(match.seed) not in page
    execution.execute(match.pk)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert f"Deal seed {match.seed}" in page and f"/api/matches/{match.pk}/verify/" in page
