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
        from submitted_bots.smoke_match import ENTERABLE_BUDGETS
        from tournaments.lifecycle import LifecycleError
        from tournaments.registration import RegistrationError, enterable_budgets

        # The API answers these refusals with their message (restapi/errors.py).
        answer_with(LifecycleError, 400)
        answer_with(RegistrationError, None)  # its own status: 403, 404, 409
        # A new version's smoke match has the time of the tournaments it may enter.
        if enterable_budgets not in ENTERABLE_BUDGETS:
            ENTERABLE_BUDGETS.append(enterable_budgets)
