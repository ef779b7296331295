"""Query filters (django-filter) of the list endpoints."""

from __future__ import annotations

import django_filters as filters
from django.db.models import Q
from django.utils.functional import lazy

from tournaments.models import Bot, Entrant, Game, Match, Player, Rating, Round, Tournament

# A number that fits a 64-bit column: larger ones are a 400 from the filter, not a database error.
MAX_ID = 2**63 - 1


class IdFilter(filters.NumberFilter):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", MAX_ID)
        super().__init__(*args, **kwargs)


def variant_choices() -> list[tuple[str, str]]:
    from engine.plugins import registry

    return [(name, variant.title) for name, variant in sorted(registry().variants.items())]


class VariantFilter(filters.ChoiceFilter):
    """A registered variant name: an unknown one (`?variant=bisca`) is a 400 naming the valid
    ones, not an empty list that reads as "nobody is rated"."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("choices", variant_choices)
        kwargs.setdefault("error_messages", {"invalid_choice": unknown_variant_message()})
        super().__init__(*args, **kwargs)


def _unknown_variant_message() -> str:
    names = ", ".join(name for name, _ in variant_choices()) or "none"
    return f"unknown variant %(value)s; registered variants: {names}"


# Lazy: the plugins are loaded when the first request is checked, not when urls are imported.
unknown_variant_message = lazy(_unknown_variant_message, str)


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


class BotFilter(filters.FilterSet):
    name = filters.CharFilter(lookup_expr="icontains")
    owner = filters.CharFilter(field_name="owner__username")

    class Meta:
        model = Bot
        fields = ["plugin", "is_active", "owner", "kind", "status"]


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
