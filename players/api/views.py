"""/api/players/ and /api/ratings/: everyone who is rated, and the leaderboards."""

from __future__ import annotations

from django.db.models import F
from rest_framework import viewsets

from players.api import filters, serializers
from players.models import Player, Rating
from restapi.views import ApiMixin


class PlayerViewSet(ApiMixin, viewsets.ReadOnlyModelViewSet):
    """Everyone who is rated: human players and bots. `?ordering=-ranking_points&kind=human` is
    the ranking-points ladder."""

    # "bot": the reverse one-to-one of a bot version's player (submitted_bots).
    queryset = Player.objects.select_related("bot").prefetch_related("ratings").order_by("name")
    serializer_class = serializers.PlayerSerializer
    filterset_class = filters.PlayerFilter
    search_fields = ["name"]

    @property
    def ordering_fields(self) -> list[str]:
        return ["name", "created_at", *serializers.PLAYER_FIELDS.ordering_fields()]

    def get_queryset(self):
        return serializers.PLAYER_FIELDS.annotate(super().get_queryset())


class RatingViewSet(ApiMixin, viewsets.ReadOnlyModelViewSet):
    """The leaderboard: ratings per variant, best first by the conservative ordinal."""

    queryset = (
        Rating.objects.select_related("player")
        .annotate(conservative=F("mu") - 3 * F("sigma"))
        .order_by("variant", "-conservative", "player__name")
    )
    serializer_class = serializers.RatingSerializer
    filterset_class = filters.RatingFilter
    search_fields = ["player__name"]
    ordering_fields = ["mu", "sigma", "matches", "conservative"]
