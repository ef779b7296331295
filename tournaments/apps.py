from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from django.conf import settings

        from engine.botseed import configure

        configure(settings.TRUCO_BOT_SEED_SECRET)  # every worker derives the same bot seeds
