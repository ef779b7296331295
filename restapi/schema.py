"""The OpenAPI schema's own settings, kept with the API rather than in the project settings:
request and response components split (read-only fields do not appear in requests), and names
for the choice sets that share a field name (several models have a `status`).

The schema is built once per process and language, under a lock. drf-spectacular is not safe
for concurrent builds: it loads its extensions lazily on the first build (two threads loading
the same one made the other read `None`: 8 concurrent first requests to a fresh web worker gave
5 to 7 answers 500), and `custom_settings` patch its global settings for the length of a build.
One build at a time, and then none: the schema of a running process does not change (a build
takes about a second of CPU, which an anonymous client could otherwise ask for in a loop)."""

from __future__ import annotations

import threading
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils import translation
from drf_spectacular.views import SpectacularAPIView
from rest_framework.response import Response

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

_BUILDING = threading.Lock()
_BUILT: dict[tuple[str | None, str | None], dict[str, Any]] = {}


@receiver(setting_changed)
def _forget_built_schemas(**kwargs) -> None:
    """A test that changes the settings may change the schema."""
    _BUILT.clear()


class SchemaView(SpectacularAPIView):
    custom_settings = SCHEMA_SETTINGS

    def dispatch(self, request, *args, **kwargs):
        with _BUILDING:  # custom_settings patch the global settings until the build ends
            return super().dispatch(request, *args, **kwargs)

    def _get_schema_response(self, request):
        version = self.api_version or request.version or self._get_version_parameter(request)
        language = translation.get_language()
        key = (language, version)
        schema = _BUILT.get(key)
        if schema is None:
            generator = self.generator_class(
                urlconf=self.urlconf, api_version=version, patterns=self.patterns
            )
            schema = generator.get_schema(request=request, public=self.serve_public)
            if language in dict(settings.LANGUAGES) and version is None:  # a bounded cache
                _BUILT[key] = schema
        filename = self._get_filename(request, version)
        return Response(
            data=schema, headers={"Content-Disposition": f'inline; filename="{filename}"'}
        )
