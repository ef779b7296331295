"""Players and ratings (players), bot versions (submitted_bots), table settings and the chips
ledger (tables, label play) now live in their own apps, which adopted their tables: here their
state goes, and the entrants' foreign keys point to the new models (nothing changes in the
database). The live columns of a match (its game in progress, who is to act, the turn's
deadline) leave it: the table's live match holds them."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0007_tournament_settings"),
        ("players", "0001_initial"),
        ("submitted_bots", "0001_initial"),
        ("play", "0004_from_tournaments"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="entrant",
                    name="bot",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="entries",
                        to="submitted_bots.bot",
                    ),
                ),
                migrations.AlterField(
                    model_name="entrant",
                    name="members",
                    field=models.ManyToManyField(
                        blank=True,
                        help_text="the human players of a team",
                        related_name="entries",
                        to="players.player",
                    ),
                ),
                migrations.DeleteModel(name="TableSettings"),
                migrations.DeleteModel(name="ChipTransfer"),
                migrations.DeleteModel(name="Rating"),
                migrations.DeleteModel(name="Bot"),
                migrations.DeleteModel(name="Player"),
            ],
            database_operations=[],
        ),
        migrations.RemoveField(model_name="match", name="live_record"),
        migrations.RemoveField(model_name="match", name="to_act"),
        migrations.RemoveField(model_name="match", name="turn_deadline"),
    ]
