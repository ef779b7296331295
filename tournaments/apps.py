from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """Competition: tournaments, entrants, rounds, matches and games; scheduling through the
    format plugins, standings, the lifecycle, registration, the workers' matches and the ladder.
    Uses submitted_bots and players; tables use it."""

    name = "tournaments"
    verbose_name = "Tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from restapi.errors import answer_with
        from tournaments.lifecycle import LifecycleError
        from tournaments.registration import RegistrationError

        # The API answers these refusals with their message (restapi/errors.py).
        answer_with(LifecycleError, 400)
        answer_with(RegistrationError, None)  # its own status: 403, 404, 409
