"""TableSettings and ChipTransfer move here from `tournaments`, keeping their tables (state only:
their rows stay where they are, under the old names); a person's chips and ranking points move
from the player to their new Wallet (copied here; players 0002 drops the old columns)."""

import django.db.models.deletion
from django.db import migrations, models

from players.model_moves import relabel_content_types

forwards, backwards = relabel_content_types(
    [("tablesettings", "tournaments", "play"), ("chiptransfer", "tournaments", "play")]
)


def fill_wallets(apps, schema_editor):
    Player = apps.get_model("players", "Player")
    Wallet = apps.get_model("play", "Wallet")
    Wallet.objects.bulk_create(
        [
            Wallet(player_id=pk, chips=chips, ranking_points=points)
            for pk, chips, points in Player.objects.filter(kind="human").values_list(
                "pk", "chips", "ranking_points"
            )
        ],
        batch_size=1000,
    )


def empty_wallets(apps, schema_editor):
    Player = apps.get_model("players", "Player")
    Wallet = apps.get_model("play", "Wallet")
    for wallet in Wallet.objects.all().iterator():
        Player.objects.filter(pk=wallet.player_id).update(
            chips=wallet.chips, ranking_points=wallet.ranking_points
        )


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0003_robot_logs"),
        ("players", "0001_initial"),
        ("tournaments", "0007_tournament_settings"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="chatmessage",
                    name="author",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="players.player",
                    ),
                ),
                migrations.AlterField(
                    model_name="presence",
                    name="player",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="players.player",
                    ),
                ),
                migrations.CreateModel(
                    name="TableSettings",
                    fields=[
                        (
                            "tournament",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                primary_key=True,
                                related_name="table_settings",
                                serialize=False,
                                to="tournaments.tournament",
                            ),
                        ),
                        (
                            "stake",
                            models.PositiveIntegerField(
                                default=0, help_text="chips per player per game"
                            ),
                        ),
                        (
                            "private",
                            models.BooleanField(
                                default=False, help_text="only invited players may sit"
                            ),
                        ),
                        (
                            "spectators",
                            models.BooleanField(default=True, help_text="others may watch"),
                        ),
                        (
                            "disconnect_grace_seconds",
                            models.PositiveIntegerField(
                                default=180,
                                help_text="a disconnected human is replaced by a robot after this long",
                            ),
                        ),
                        ("turn_seconds", models.PositiveIntegerField(default=30)),
                        ("competitive", models.BooleanField(default=True)),
                        (
                            "daily",
                            models.BooleanField(
                                default=False,
                                help_text="today's deals: the same for every daily table of these rules",
                            ),
                        ),
                        (
                            "invited",
                            models.ManyToManyField(
                                blank=True, related_name="invitations", to="players.player"
                            ),
                        ),
                        (
                            "master",
                            models.ForeignKey(
                                blank=True,
                                help_text="the table master (first seated) of a player's table; none for tournaments",
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="tables_mastered",
                                to="players.player",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "table settings",
                        "verbose_name_plural": "table settings",
                        "db_table": "tournaments_tablesettings",
                    },
                ),
                migrations.CreateModel(
                    name="ChipTransfer",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "amount",
                            models.BigIntegerField(
                                help_text="chips in (positive) or out (negative)"
                            ),
                        ),
                        ("balance_after", models.PositiveBigIntegerField(blank=True, null=True)),
                        (
                            "kind",
                            models.CharField(
                                choices=[
                                    ("stake", "stake put in the pot"),
                                    ("win", "share of the pot won"),
                                    ("cut", "the bank's quarter of the pot"),
                                    ("forfeit", "stake lost by abandoning a game ended amicably"),
                                    ("adjust", "set by staff"),
                                ],
                                max_length=8,
                            ),
                        ),
                        ("game_index", models.PositiveIntegerField(blank=True, null=True)),
                        ("note", models.CharField(blank=True, default="", max_length=200)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        (
                            "match",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="chip_transfers",
                                to="tournaments.match",
                            ),
                        ),
                        (
                            "player",
                            models.ForeignKey(
                                blank=True,
                                help_text="empty: the bank",
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="chip_transfers",
                                to="players.player",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tournaments_chiptransfer",
                        "ordering": ["-created_at", "-id"],
                        "indexes": [
                            models.Index(fields=["match", "game_index"], name="chips_match_game")
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.CreateModel(
            name="Wallet",
            fields=[
                (
                    "player",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="wallet",
                        serialize=False,
                        to="players.player",
                    ),
                ),
                (
                    "chips",
                    models.PositiveBigIntegerField(
                        default=1000, help_text="chips to stake at competitive tables"
                    ),
                ),
                (
                    "ranking_points",
                    models.PositiveIntegerField(
                        default=0, help_text="+20 per competitive game won, +5 per game lost"
                    ),
                ),
            ],
        ),
        migrations.RunPython(fill_wallets, empty_wallets),
        migrations.RunPython(forwards, backwards),
    ]
