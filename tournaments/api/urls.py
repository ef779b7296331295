"""/api/: the REST API, its OpenAPI schema (/api/schema/) and interactive docs (/api/docs/)."""

from __future__ import annotations

from django.urls import include, path
from drf_spectacular.views import SpectacularSwaggerView
from rest_framework.routers import DefaultRouter

from . import views
from .auth import TokenView
from .schema import SchemaView

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
]
