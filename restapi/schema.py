"""The OpenAPI schema's own settings, kept with the API rather than in the project settings:
request and response components split (read-only fields do not appear in requests), and names
for the choice sets that share a field name (several models have a `status`)."""

from __future__ import annotations

from drf_spectacular.views import SpectacularAPIView

SCHEMA_SETTINGS = {
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "MatchStatusEnum": "tournaments.models.Match.Status",
        "RoundStatusEnum": "tournaments.models.Round.Status",
        "SeedingEnum": "tournaments.models.Tournament.Seeding",
        "PlayerKindEnum": "players.models.Player.Kind",
        "BotKindEnum": "submitted_bots.models.Bot.Kind",
        "BotStatusEnum": "submitted_bots.models.Bot.Status",
        "TournamentKindEnum": "tournaments.models.Tournament.Kind",
    },
}


class SchemaView(SpectacularAPIView):
    custom_settings = SCHEMA_SETTINGS
