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
        from tables.api.extensions import register

        register()  # the table section of a tournament, a person's chips (restapi/extensions.py)
