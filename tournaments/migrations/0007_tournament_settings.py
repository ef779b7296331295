"""The time control and `competitive` become the tournament's own (bots play by them too; they
were the table settings' turn_seconds and competitive), with a bank and an increment per
decision; and a tournament says what kind it is (a competition, a player's own table, the
ladder's matches). Existing tournaments keep their table's values."""

from django.db import migrations, models


def copy_from_table_settings(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    TableSettings = apps.get_model("tournaments", "TableSettings")
    for table in TableSettings.objects.all().iterator():
        Tournament.objects.filter(pk=table.tournament_id).update(
            turn_seconds=table.turn_seconds,
            competitive=table.competitive,
            kind="table" if table.master_id is not None else "competition",
        )


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0006_registration")]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="kind",
            field=models.CharField(
                choices=[
                    ("competition", "a competition (organised)"),
                    ("table", "a player's own table (opened from the play page)"),
                    ("ladder", "the ladder's matches (tournaments/ladder)"),
                ],
                db_index=True,
                default="competition",
                max_length=12,
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="turn_seconds",
            field=models.PositiveIntegerField(
                default=30,
                help_text="thinking time per decision; past it the game plays for the seat "
                "(auto-play)",
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="bank_seconds",
            field=models.PositiveIntegerField(
                blank=True,
                null=True,
                help_text="a bot's bank of thinking time per game, on top of which each decision "
                "adds the increment; a bot that empties it loses the game by timeout (empty: no "
                "bank)",
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="increment_seconds",
            field=models.FloatField(
                default=0, help_text="seconds added to a bot's bank per decision"
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="competitive",
            field=models.BooleanField(
                default=True,
                help_text="counts for ratings (and at tables, chips and ranking points)",
            ),
        ),
        migrations.RunPython(copy_from_table_settings, migrations.RunPython.noop),
    ]
