"""Query filters of the bots' list."""

from __future__ import annotations

import django_filters as filters

from submitted_bots.models import Bot


class BotFilter(filters.FilterSet):
    name = filters.CharFilter(lookup_expr="icontains")
    owner = filters.CharFilter(field_name="owner__username")

    class Meta:
        model = Bot
        fields = ["plugin", "is_active", "owner", "kind", "status"]
