from django.apps import AppConfig
from django.core.signals import setting_changed

REMOTE_SETTINGS = ("TRUCO_REMOTE_BOTS", "TRUCO_REMOTE_BOT_HOSTS", "TRUCO_REMOTE_BOT_NETWORKS")


def configure_remote_bots(**kwargs) -> None:
    """The engine's remote-bot policy comes from the Django settings in the web and worker
    processes (and again whenever a test overrides one of them)."""
    if kwargs.get("setting") not in (None, *REMOTE_SETTINGS):
        return
    from django.conf import settings

    from engine.remote_policy import RemotePolicy, configure

    configure(
        RemotePolicy.of(
            settings.TRUCO_REMOTE_BOTS,
            settings.TRUCO_REMOTE_BOT_HOSTS,
            settings.TRUCO_REMOTE_BOT_NETWORKS,
        )
    )


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.conf import settings

        from engine.botseed import configure

        configure(settings.TRUCO_BOT_SEED_SECRET)  # every worker derives the same bot seeds
        configure_remote_bots()
        setting_changed.connect(configure_remote_bots, dispatch_uid="truco-remote-bots")
