"""Query filters (django-filter) of the list endpoints."""

from __future__ import annotations

import django_filters as filters
from django.db.models import Q

from restapi.filters import IdFilter, VariantFilter
from tournaments.models import Entrant, Game, Match, Round, Tournament


class TournamentFilter(filters.FilterSet):
    name = filters.CharFilter(lookup_expr="icontains")
    variant = VariantFilter()
    player = IdFilter(method="filter_player", label="tournaments a player (or bot) entered")

    class Meta:
        model = Tournament
        fields = ["status", "variant", "format", "players"]

    def filter_player(self, queryset, name, value):
        return queryset.filter(
            Q(entrants__members__id=value) | Q(entrants__bot__player_id=value)
        ).distinct()


class EntrantFilter(filters.FilterSet):
    tournament = IdFilter(field_name="tournament_id")
    bot = IdFilter(field_name="bot_id")
    member = IdFilter(field_name="members__id")

    class Meta:
        model = Entrant
        fields = ["tournament", "bot", "member"]


class RoundFilter(filters.FilterSet):
    tournament = IdFilter(field_name="tournament_id")

    class Meta:
        model = Round
        fields = ["tournament", "status", "number"]


class MatchFilter(filters.FilterSet):
    tournament = IdFilter(field_name="tournament_id")
    round = filters.NumberFilter(field_name="round__number", min_value=1, max_value=10**6)
    entrant = IdFilter(method="filter_entrant", label="matches an entrant plays in")

    class Meta:
        model = Match
        fields = ["tournament", "round", "status", "key"]

    def filter_entrant(self, queryset, name, value):
        return queryset.filter(Q(entrant_a_id=value) | Q(entrant_b_id=value))


class GameFilter(filters.FilterSet):
    match = IdFilter(field_name="match_id")
    tournament = IdFilter(field_name="match__tournament_id")

    class Meta:
        model = Game
        fields = ["match", "tournament", "termination", "winner_side"]
