"""/api/players/ and /api/ratings/: everyone who is rated, and the leaderboards."""

from __future__ import annotations

from django.db.models import F
from drf_spectacular.utils import extend_schema
from rest_framework import viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

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

    @extend_schema(
        summary="The rating after each of its rated matches, oldest first (mu, sigma and the "
        "95% band low..high)",
        responses=serializers.RatingPointSerializer(many=True),
    )
    @action(detail=True, methods=["get"], filter_backends=[])
    def history(self, request, pk=None):
        points = self.get_object().history.order_by("at", "id")
        page = self.paginate_queryset(points)
        data = serializers.RatingPointSerializer(page if page is not None else points, many=True)
        if page is not None:
            return self.get_paginated_response(data.data)
        return Response(data.data)
