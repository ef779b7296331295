"""/api/ladders/ and /api/ladder-entries/: the continuous ladder's boards (best first by mu - 3
sigma), each version's place and its rating history on a board, and its owner taking it off or
putting it back. Reading is open to everyone."""

from __future__ import annotations

import django_filters as filters
from django.db.models import Count, F, Q
from drf_spectacular.utils import extend_schema, extend_schema_field, extend_schema_view
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.response import Response

from restapi.filters import IdFilter, VariantFilter
from restapi.views import ApiMixin
from tournaments import ladder
from tournaments.models import Ladder, LadderEntry, LadderPoint

TOP = 5  # versions shown with each ladder of the list


class LadderEntrySerializer(serializers.ModelSerializer):
    """A version's line on a board: its rating on this board (mu with uncertainty sigma),
    `ordinal` (mu - 3 sigma, the board's order) and `interval` (the 95% half-width)."""

    variant = serializers.CharField(source="ladder.variant", read_only=True)
    players = serializers.IntegerField(source="ladder.players", read_only=True)
    bot_label = serializers.CharField(source="bot.label", read_only=True)
    owner = serializers.CharField(source="bot.owner.username", read_only=True, default=None)
    player = serializers.IntegerField(source="bot.player_id", read_only=True)
    ordinal = serializers.FloatField(read_only=True)
    interval = serializers.FloatField(read_only=True)

    class Meta:
        model = LadderEntry
        fields = [
            "id",
            "ladder",
            "variant",
            "players",
            "bot",
            "bot_label",
            "owner",
            "player",
            "mu",
            "sigma",
            "ordinal",
            "interval",
            "matches",
            "on_board",
            "withdrawn",
            "joined_at",
            "left_at",
        ]
        read_only_fields = fields


class RankedEntrySerializer(LadderEntrySerializer):
    rank = serializers.SerializerMethodField()

    class Meta(LadderEntrySerializer.Meta):
        fields = ["rank", *LadderEntrySerializer.Meta.fields]
        read_only_fields = fields

    def get_rank(self, entry) -> int:
        return self.context["ranks"][entry.pk]


class LadderSerializer(serializers.ModelSerializer):
    label = serializers.CharField(read_only=True)
    on_board = serializers.IntegerField(read_only=True, help_text="versions on the board")
    matches_made = serializers.IntegerField(
        read_only=True, help_text="ladder matches started so far (played or in flight)"
    )
    top = serializers.SerializerMethodField(help_text=f"the first {TOP} of the board")

    class Meta:
        model = Ladder
        fields = [
            "id",
            "variant",
            "players",
            "label",
            "paused",
            "games_per_hour",
            "tournament",
            "on_board",
            "matches_made",
            "top",
        ]
        read_only_fields = fields

    @extend_schema_field(RankedEntrySerializer(many=True))
    def get_top(self, board_ladder) -> list:
        return ranked_entries(ladder.board(board_ladder, TOP))


class LadderBoardSerializer(LadderSerializer):
    board = serializers.SerializerMethodField(help_text="every version on it, best first")

    class Meta(LadderSerializer.Meta):
        fields = [*LadderSerializer.Meta.fields, "board"]
        read_only_fields = fields

    @extend_schema_field(RankedEntrySerializer(many=True))
    def get_board(self, board_ladder) -> list:
        return ranked_entries(ladder.board(board_ladder))


class LadderPointSerializer(serializers.ModelSerializer):
    """One point of the history: the rating after a ladder match, with its 95% band."""

    low = serializers.SerializerMethodField()
    high = serializers.SerializerMethodField()

    class Meta:
        model = LadderPoint
        fields = ["at", "mu", "sigma", "low", "high", "matches"]
        read_only_fields = fields

    def get_low(self, point) -> float:
        return point.mu - 2 * point.sigma

    def get_high(self, point) -> float:
        return point.mu + 2 * point.sigma


def ranked_entries(entries: list[LadderEntry]) -> list[dict]:
    ranks = {e.pk: k for k, e in enumerate(entries, start=1)}
    return RankedEntrySerializer(entries, many=True, context={"ranks": ranks}).data


class LadderFilter(filters.FilterSet):
    variant = VariantFilter()

    class Meta:
        model = Ladder
        fields = ["variant", "players", "paused"]


class LadderEntryFilter(filters.FilterSet):
    ladder = IdFilter(field_name="ladder_id")
    bot = IdFilter(field_name="bot_id")
    player = IdFilter(field_name="bot__player_id")
    variant = VariantFilter(field_name="ladder__variant")
    players = filters.NumberFilter(field_name="ladder__players")
    owner = filters.CharFilter(field_name="bot__owner__username")

    class Meta:
        model = LadderEntry
        fields = ["ladder", "bot", "player", "variant", "players", "owner", "on_board"]


class IsVersionOwnerOrStaff(BasePermission):
    message = "only the version's owner (or staff) may take it off the ladder or put it back"

    def has_object_permission(self, request, view, obj) -> bool:
        if request.method in SAFE_METHODS:
            return True
        user = request.user
        return bool(user and (user.is_staff or (obj.bot.owner_id and obj.bot.owner_id == user.pk)))


# --- the views ----------------------------------------------------------------------------


@extend_schema_view(
    list=extend_schema(summary="The ladders (one per variant and player count) with their top"),
    retrieve=extend_schema(summary="A ladder with its whole board, best first by mu - 3 sigma"),
)
class LadderViewSet(ApiMixin, viewsets.ReadOnlyModelViewSet):
    queryset = Ladder.objects.annotate(
        on_board=Count("entries", filter=Q(entries__on_board=True), distinct=True),
    ).order_by("variant", "players")
    filterset_class = LadderFilter
    ordering_fields = ["variant", "players"]

    def get_serializer_class(self):
        return LadderBoardSerializer if self.action == "retrieve" else LadderSerializer


@extend_schema_view(
    list=extend_schema(summary="Versions on the ladders, best first by mu - 3 sigma"),
    retrieve=extend_schema(summary="A version's line on one board"),
)
class LadderEntryViewSet(ApiMixin, viewsets.ReadOnlyModelViewSet):
    queryset = (
        LadderEntry.objects.select_related("ladder", "bot__owner")
        .annotate(conservative=F("mu") - 3 * F("sigma"))
        .order_by("ladder__variant", "ladder__players", "-conservative", "id")
    )
    serializer_class = LadderEntrySerializer
    filterset_class = LadderEntryFilter
    search_fields = ["bot__name", "bot__owner__username"]
    ordering_fields = ["mu", "sigma", "matches", "conservative", "joined_at"]
    permission_classes = [IsVersionOwnerOrStaff]

    @extend_schema(
        summary="The version's rating on this board after each of its ladder matches, oldest "
        "first (mu, sigma and the 95% band low..high)",
        responses=LadderPointSerializer(many=True),
    )
    @action(detail=True, methods=["get"], filter_backends=[])
    def history(self, request, pk=None):
        entry = self.get_object()
        points = entry.history.order_by("at", "id")
        page = self.paginate_queryset(points)
        if page is not None:
            return self.get_paginated_response(LadderPointSerializer(page, many=True).data)
        return Response(LadderPointSerializer(points, many=True).data)

    @extend_schema(
        summary="Its owner takes the version off this board (it keeps its rating and history)",
        request=None,
        responses=LadderEntrySerializer,
    )
    @action(detail=True, methods=["post"], filter_backends=[])
    def withdraw(self, request, pk=None):
        return self._set(request, withdrawn=True)

    @extend_schema(
        summary="Its owner puts the version back on this board (if it is still ready)",
        request=None,
        responses=LadderEntrySerializer,
    )
    @action(detail=True, methods=["post"], filter_backends=[])
    def rejoin(self, request, pk=None):
        return self._set(request, withdrawn=False)

    def _set(self, request, *, withdrawn: bool):
        if not request.user.is_authenticated:
            raise PermissionDenied("sign in as the version's owner")
        entry = self.get_object()
        ladder.set_withdrawn(entry, withdrawn)
        return Response(LadderEntrySerializer(entry).data)
