"""/api/: the REST API, its OpenAPI schema (/api/schema/) and interactive docs (/api/docs/)."""

from __future__ import annotations

from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularSwaggerView
from rest_framework.routers import DefaultRouter

from tournaments.api import views
from tournaments.api.auth import TokenView
from tournaments.api.errors import unknown_api_url
from tournaments.api.schema import SchemaView

router = DefaultRouter()
router.register("variants", views.VariantViewSet, basename="variant")
router.register("bot-plugins", views.BotPluginViewSet, basename="bot-plugin")
router.register("players", views.PlayerViewSet, basename="player")
router.register("bots", views.BotViewSet, basename="bot")
router.register("tournaments", views.TournamentViewSet, basename="tournament")
router.register("entrants", views.EntrantViewSet, basename="entrant")
router.register("rounds", views.RoundViewSet, basename="round")
router.register("matches", views.MatchViewSet, basename="match")
router.register("games", views.GameViewSet, basename="game")
router.register("ratings", views.RatingViewSet, basename="rating")

urlpatterns = [
    path("schema/", SchemaView.as_view(), name="api-schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("auth/token/", TokenView.as_view(), name="api-token"),
    path("play/", include("play.api.urls")),
    path("", include(router.urls)),
    # Last: any other /api/ URL is a JSON 404. Only paths ending in "/", so that a URL missing
    # its slash is still redirected to the endpoint it names (APPEND_SLASH).
    re_path(r"^.*/$", unknown_api_url, name="api-unknown"),
]
