from django.apps import AppConfig
from django.conf import settings
from django.core.signals import setting_changed

from engine.remote_policy import RemotePolicy, configure

REMOTE_SETTINGS = ("TRUCO_REMOTE_BOTS", "TRUCO_REMOTE_BOT_HOSTS", "TRUCO_REMOTE_BOT_NETWORKS")


def configure_remote_bots(**kwargs) -> None:
    """The engine's remote-bot policy comes from the Django settings in the web and worker
    processes (and again whenever a test overrides one of them)."""
    if kwargs.get("setting") not in (None, *REMOTE_SETTINGS):
        return
    configure(
        RemotePolicy.of(
            settings.TRUCO_REMOTE_BOTS,
            settings.TRUCO_REMOTE_BOT_HOSTS,
            settings.TRUCO_REMOTE_BOT_NETWORKS,
        )
    )


class SubmittedBotsConfig(AppConfig):
    """Bots and their versions: plugin, bundle and remote bots, bundles and their storage, the
    smoke match, names, trust and time budgets, and the one function that turns a saved bot
    into what plays (playing.py). Uses players; tournaments and tables use it."""

    name = "submitted_bots"
    label = "submitted_bots"
    verbose_name = "Bots"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.conf import settings

        from engine.botseed import configure

        configure(settings.TRUCO_BOT_SEED_SECRET)  # every worker derives the same bot seeds
        configure_remote_bots()
        setting_changed.connect(configure_remote_bots, dispatch_uid="truco-remote-bots")
