from django.apps import AppConfig


class PlayersConfig(AppConfig):
    """Who is who: a player is whoever gets a rating (a user account or a bot version), and the
    ratings themselves (openskill per variant, with their history). The lowest of the apps:
    every other one may use it; it uses none of them."""

    name = "players"
    label = "players"
    default_auto_field = "django.db.models.BigAutoField"
