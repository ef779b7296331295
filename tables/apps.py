from django.apps import AppConfig


class TablesConfig(AppConfig):
    """Tables where people sit: table settings, live matches, presence, chat, chips and ranking
    points, the play page. Uses tournaments (a table's match is a tournament's), submitted_bots
    and players; nothing uses it.

    Its label stays `play`, the name under which its first tables were created, so that the
    databases and migration histories made before the move carry on unchanged."""

    name = "tables"
    label = "play"
    verbose_name = "Tables"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models.signals import post_save

        from tables.api.extensions import register
        from tables.models import LiveMatch
        from tables.signals import live_match_saved

        register()  # the table section of a tournament, a person's chips (restapi/extensions.py)
        # A table changed outside its host: the host hears it once committed (tables/signals.py).
        post_save.connect(live_match_saved, sender=LiveMatch, dispatch_uid="truco-live-changed")
