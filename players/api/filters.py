"""Query filters of the players' and ratings' lists."""

from __future__ import annotations

import django_filters as filters

from players.models import Player, Rating
from restapi.filters import IdFilter, VariantFilter


class PlayerFilter(filters.FilterSet):
    name = filters.CharFilter(lookup_expr="icontains")

    class Meta:
        model = Player
        fields = ["kind"]


class RatingFilter(filters.FilterSet):
    variant = VariantFilter()
    kind = filters.ChoiceFilter(field_name="player__kind", choices=Player.Kind.choices)
    player = IdFilter(field_name="player_id")
    min_matches = filters.NumberFilter(
        field_name="matches", lookup_expr="gte", min_value=0, max_value=10**9
    )

    class Meta:
        model = Rating
        fields = ["variant", "kind", "player"]
