"""A database made by the migrations of before the move to an app per concern, filled, then
migrated to today's and checked (tests/tournaments/test_migrations.py runs it in a process of
its own, on SQLite and on PostgreSQL):

    python -m tests.tournaments.migration_story old     # migrate to the old state, fill it
    python -m tests.tournaments.migration_story check   # after `manage.py migrate`: check, play

The rows are made with the historical models of the old state (what those migrations knew),
and read back with today's models."""

from __future__ import annotations

import json
import sys

import django

# The last migrations before players, submitted_bots and tables took their models.
OLD_STATE = [("tournaments", "0006_registration"), ("play", "0003_robot_logs")]


def fill_old() -> dict:
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor
    from django.utils import timezone

    executor = MigrationExecutor(connection)
    executor.migrate(OLD_STATE)
    apps = executor.loader.project_state(OLD_STATE).apps
    User = apps.get_model("auth", "User")
    Player = apps.get_model("tournaments", "Player")
    Bot = apps.get_model("tournaments", "Bot")
    Tournament = apps.get_model("tournaments", "Tournament")
    TableSettings = apps.get_model("tournaments", "TableSettings")
    Entrant = apps.get_model("tournaments", "Entrant")
    Round = apps.get_model("tournaments", "Round")
    Match = apps.get_model("tournaments", "Match")
    Game = apps.get_model("tournaments", "Game")
    Rating = apps.get_model("tournaments", "Rating")
    ChipTransfer = apps.get_model("tournaments", "ChipTransfer")
    LiveMatch = apps.get_model("play", "LiveMatch")
    Presence = apps.get_model("play", "Presence")
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model in ("player", "rating", "bot", "tablesettings", "chiptransfer", "tournament"):
        ContentType.objects.get_or_create(app_label="tournaments", model=model)

    alice = User.objects.create(username="alice", password="!")
    ana = Player.objects.create(name="ana", kind="human", user=alice, chips=1234, ranking_points=45)
    bots = []
    for version in ("1", "2"):
        player = Player.objects.create(name=f"alice/greedy v{version}", kind="bot")
        bots.append(
            Bot.objects.create(
                name="greedy",
                version=version,
                kind="plugin",
                plugin="random",
                owner=alice,
                player=player,
                status="ready",
            )
        )
    house = Bot.objects.create(
        name="heuristic",
        plugin="heuristic",
        player=Player.objects.create(name="heuristic", kind="bot"),
    )
    Rating.objects.create(player=bots[0].player, variant="paulista", mu=27.5, sigma=6.1, matches=3)
    cup = Tournament.objects.create(
        name="Old Cup", variant="paulista", format="round-robin", games_per_match=2, seed=77
    )
    TableSettings.objects.create(tournament=cup, turn_seconds=12, competitive=False)
    entrants = [
        Entrant.objects.create(tournament=cup, name=b.name + b.version, bot=b) for b in bots
    ]
    entrants.append(Entrant.objects.create(tournament=cup, name="house", bot=house))
    round_ = Round.objects.create(tournament=cup, number=1)
    done = Match.objects.create(
        tournament=cup,
        round=round_,
        key="R1-1",
        entrant_a=entrants[0],
        entrant_b=entrants[1],
        seed=5,
        status="done",
        winner=entrants[0],
        wins_a=2,
        games_played=2,
    )
    for index in range(2):
        Game.objects.create(
            match=done,
            index=index,
            a_team=index % 2,
            seed=100 + index,
            record={"format": "truco-record/1", "variant": "paulista", "players": 2, "hands": []},
            score_a=12,
            score_b=3,
            winner_side="a",
        )
    table = Tournament.objects.create(
        name="Practice: ana v heuristic",
        variant="paulista",
        format="single-elimination",
        games_per_match=1,
        status="running",
        seed=99,
    )
    TableSettings.objects.create(
        tournament=table, turn_seconds=60, competitive=True, stake=10, master=ana
    )
    human = Entrant.objects.create(tournament=table, name="ana", seed=1)
    human.members.add(ana)
    robot = Entrant.objects.create(tournament=table, name="heuristic", bot=house, seed=2)
    live = Match.objects.create(
        tournament=table,
        round=Round.objects.create(tournament=table, number=1),
        key="W1-1",
        entrant_a=human,
        entrant_b=robot,
        seed=123,
        status="running",
        to_act=0,
        live_record={"hands": []},
    )
    LiveMatch.objects.create(match=live, waiting="bots")
    Presence.objects.create(live_id=live.pk, player=ana, last_seen=timezone.now(), ips=["10.0.0.1"])
    ChipTransfer.objects.create(player=ana, amount=234, balance_after=1234, kind="adjust")
    return {
        "ana": ana.pk,
        "bots": [b.pk for b in bots],
        "cup": cup.pk,
        "table": table.pk,
        "live": live.pk,
    }


def check(ids: dict) -> dict:
    """What today's models read of the old rows, and a game played on them."""
    from django.contrib.contenttypes.models import ContentType

    from players.models import Player, Rating
    from submitted_bots.models import Bot
    from submitted_bots.playing import spec_for
    from tables.models import ChipTransfer, LiveMatch, Presence, TableSettings, Wallet, settings_of
    from tournaments import execution, lifecycle
    from tournaments.models import Entrant, Game, Match, Tournament

    ana = Player.objects.get(pk=ids["ana"])
    wallet = Wallet.objects.get(player=ana)
    bots = [Bot.objects.get(pk=pk) for pk in ids["bots"]]
    cup = Tournament.objects.get(pk=ids["cup"])
    table = Tournament.objects.get(pk=ids["table"])
    report = {
        "ana": [ana.name, ana.user.username, wallet.chips, wallet.ranking_points],
        "bots": [b.label for b in bots],
        "bot players": [b.player.name for b in bots],
        "rating": list(Rating.objects.filter(player=bots[0].player).values_list("mu", "matches")),
        "cup": [cup.name, cup.turn_seconds, cup.competitive, cup.kind],
        "cup table settings": TableSettings.objects.filter(tournament=cup).count(),
        "table": [table.kind, table.turn_seconds, table.competitive],
        "table settings": [settings_of(table).stake, settings_of(table).master.name],
        "entrants": sorted(Entrant.objects.filter(tournament=cup).values_list("name", flat=True)),
        "games": list(
            Game.objects.filter(match__tournament=cup).values_list("score_a", "winner_side")
        ),
        "live": LiveMatch.objects.get(pk=ids["live"]).waiting,
        "presence": list(Presence.objects.values_list("player__name", "ips")),
        "ledger": list(ChipTransfer.objects.values_list("player__name", "amount")),
        "content types": sorted(
            f"{ct.app_label}.{ct.model}"
            for ct in ContentType.objects.filter(
                model__in=["player", "rating", "bot", "tablesettings", "chiptransfer"]
            )
        ),
        "specs": [spec_for(b, cup.turn_seconds).name for b in bots],
    }
    # Playable: the old round robin starts and its matches are played and recorded.
    Match.objects.filter(tournament=cup).delete()
    cup.rounds.all().delete()
    lifecycle.start(cup, publish=False)
    for match in Match.objects.filter(tournament=cup):
        execution.execute(match.pk)
    report["played"] = sorted(
        set(Match.objects.filter(tournament=cup).values_list("status", flat=True))
    )
    return report


if __name__ == "__main__":
    django.setup()
    if sys.argv[1] == "old":
        print(json.dumps(fill_old()))
    else:
        print(json.dumps(check(json.loads(sys.argv[2]))))
