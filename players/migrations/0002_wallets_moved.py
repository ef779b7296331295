"""A person's chips and ranking points now live in their Wallet (the tables app, play 0004,
which copied them): the columns leave the player."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("players", "0001_initial"), ("play", "0004_from_tournaments")]

    operations = [
        migrations.RemoveField(model_name="player", name="chips"),
        migrations.RemoveField(model_name="player", name="ranking_points"),
    ]
