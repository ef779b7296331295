"""/api/: the REST API, assembled from every app's endpoints, its OpenAPI schema (/api/schema/)
and interactive docs (/api/docs/)."""

from __future__ import annotations

from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularSwaggerView
from rest_framework.routers import DefaultRouter

from players.api.token import TokenView
from players.api.views import PlayerViewSet, RatingViewSet
from restapi.errors import unknown_api_url
from restapi.schema import SchemaView
from submitted_bots.api.views import BotPluginViewSet, BotViewSet
from tournaments.api import views as tournaments
from tournaments.api.ladder import LadderEntryViewSet, LadderViewSet

router = DefaultRouter()
router.register("variants", tournaments.VariantViewSet, basename="variant")
router.register("bot-plugins", BotPluginViewSet, basename="bot-plugin")
router.register("players", PlayerViewSet, basename="player")
router.register("bots", BotViewSet, basename="bot")
router.register("tournaments", tournaments.TournamentViewSet, basename="tournament")
router.register("entrants", tournaments.EntrantViewSet, basename="entrant")
router.register("rounds", tournaments.RoundViewSet, basename="round")
router.register("matches", tournaments.MatchViewSet, basename="match")
router.register("games", tournaments.GameViewSet, basename="game")
router.register("ratings", RatingViewSet, basename="rating")
router.register("ladders", LadderViewSet, basename="ladder")
router.register("ladder-entries", LadderEntryViewSet, basename="ladder-entry")

urlpatterns = [
    path("schema/", SchemaView.as_view(), name="api-schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("auth/token/", TokenView.as_view(), name="api-token"),
    path("play/", include("tables.api.urls")),
    path("", include(router.urls)),
    # Last: any other /api/ URL is a JSON 404. Only paths ending in "/", so that a URL missing
    # its slash is still redirected to the endpoint it names (APPEND_SLASH).
    re_path(r"^.*/$", unknown_api_url, name="api-unknown"),
]
