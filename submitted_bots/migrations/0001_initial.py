"""Bot (a bot version) moves here from `tournaments`, keeping its table (state only: the rows
stay where they are, under the old table name)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import submitted_bots.models
from players.model_moves import relabel_content_types

forwards, backwards = relabel_content_types([("bot", "tournaments", "submitted_bots")])


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("players", "0001_initial"),
        ("tournaments", "0007_tournament_settings"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Bot",
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
                        ("name", models.CharField(max_length=100)),
                        (
                            "kind",
                            models.CharField(
                                choices=[
                                    ("plugin", "registered plugin"),
                                    ("bundle", "uploaded bundle"),
                                    ("remote", "remote bot (a URL)"),
                                ],
                                default="plugin",
                                max_length=10,
                            ),
                        ),
                        (
                            "plugin",
                            models.CharField(
                                blank=True,
                                help_text="the bot's registered plugin name (plugin bots)",
                                max_length=100,
                            ),
                        ),
                        (
                            "url",
                            models.CharField(
                                blank=True,
                                default="",
                                help_text="a remote bot's URL, called over HTTP (docs/remote-bots.md); remote bots only",
                                max_length=500,
                            ),
                        ),
                        (
                            "params",
                            models.JSONField(
                                blank=True, default=dict, help_text="keyword arguments for the bot"
                            ),
                        ),
                        ("version", models.CharField(blank=True, default="", max_length=40)),
                        ("description", models.TextField(blank=True, default="")),
                        ("is_active", models.BooleanField(default=True)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("validating", "validating"),
                                    ("ready", "ready"),
                                    ("rejected", "rejected"),
                                    ("retired", "retired"),
                                ],
                                db_index=True,
                                default="ready",
                                max_length=10,
                            ),
                        ),
                        (
                            "status_reason",
                            models.TextField(
                                blank=True,
                                default="",
                                help_text="why it was rejected, in words its owner can act on",
                            ),
                        ),
                        (
                            "bundle",
                            models.FileField(
                                blank=True,
                                storage=submitted_bots.models.bundle_storage,
                                upload_to=submitted_bots.models.bundle_path,
                            ),
                        ),
                        ("sha256", models.CharField(blank=True, default="", max_length=64)),
                        (
                            "size",
                            models.PositiveIntegerField(
                                blank=True, help_text="bytes of the zip", null=True
                            ),
                        ),
                        (
                            "manifest",
                            models.JSONField(blank=True, default=dict, help_text="its bot.toml"),
                        ),
                        (
                            "validation",
                            models.JSONField(
                                blank=True,
                                default=dict,
                                help_text="the smoke match: games and terminations per setting",
                            ),
                        ),
                        (
                            "log",
                            models.TextField(
                                blank=True,
                                default="",
                                help_text="what the bot wrote to standard error (owner and staff)",
                            ),
                        ),
                        ("validated_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "owner",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="bots",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "player",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="bot",
                                to="players.player",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tournaments_bot",
                        "ordering": ["name", "version"],
                        "constraints": [
                            models.UniqueConstraint(
                                condition=models.Q(("owner__isnull", True)),
                                fields=("name", "version"),
                                name="bot_name_version_unique",
                            ),
                            models.UniqueConstraint(
                                condition=models.Q(("owner__isnull", False)),
                                fields=("owner", "name", "version"),
                                name="bot_owner_name_version_unique",
                            ),
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(forwards, backwards),
    ]
