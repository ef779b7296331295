"""A table's time per decision and whether it is competitive are its tournament's now
(tournaments 0007 copied them): the table settings drop theirs."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("play", "0004_from_tournaments"), ("tournaments", "0008_moved_out")]

    operations = [
        migrations.RemoveField(model_name="tablesettings", name="turn_seconds"),
        migrations.RemoveField(model_name="tablesettings", name="competitive"),
    ]
