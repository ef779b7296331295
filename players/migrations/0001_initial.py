"""Player and Rating move here from `tournaments`, keeping their tables (state only: the rows
stay where they are, under their old table names); the ratings' history is new.

Player keeps, for now, the chips and ranking points columns that the tables app's Wallet takes
over (play 0004 copies them, players 0002 drops them)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from players.model_moves import relabel_content_types

forwards, backwards = relabel_content_types(
    [("player", "tournaments", "players"), ("rating", "tournaments", "players")]
)


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("tournaments", "0007_tournament_settings"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Player",
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
                        ("name", models.CharField(max_length=200, unique=True)),
                        (
                            "kind",
                            models.CharField(
                                choices=[("human", "human"), ("bot", "bot")],
                                default="human",
                                max_length=5,
                            ),
                        ),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        (
                            "user",
                            models.OneToOneField(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="player",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        ("chips", models.PositiveBigIntegerField(default=1000)),
                        ("ranking_points", models.PositiveIntegerField(default=0)),
                    ],
                    options={
                        "db_table": "tournaments_player",
                        "ordering": ["name"],
                        "constraints": [
                            models.CheckConstraint(
                                condition=models.Q(
                                    models.Q(("kind", "bot"), ("user__isnull", True)),
                                    ("kind", "human"),
                                    _connector="OR",
                                ),
                                name="player_bot_has_no_user",
                            )
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="Rating",
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
                        ("variant", models.CharField(max_length=50)),
                        ("mu", models.FloatField()),
                        ("sigma", models.FloatField()),
                        ("matches", models.PositiveIntegerField(default=0)),
                        ("updated_at", models.DateTimeField(auto_now=True)),
                        (
                            "player",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="ratings",
                                to="players.player",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tournaments_rating",
                        "ordering": ["variant", "-mu"],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("player", "variant"), name="rating_player_variant"
                            )
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.CreateModel(
            name="RatingPoint",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("mu", models.FloatField()),
                ("sigma", models.FloatField()),
                ("matches", models.PositiveIntegerField(help_text="rated matches so far")),
                ("at", models.DateTimeField()),
                (
                    "rating",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="history",
                        to="players.rating",
                    ),
                ),
            ],
            options={
                "ordering": ["rating", "at", "id"],
                "indexes": [models.Index(fields=["rating", "at"], name="rating_point_at")],
            },
        ),
        migrations.RunPython(forwards, backwards),
    ]
