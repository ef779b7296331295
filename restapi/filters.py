"""Query filters (django-filter) that every app's lists share: ids that fit the database and
registered variant names."""

from __future__ import annotations

import django_filters as filters
from django.utils.functional import lazy

from engine.plugins import registry

# A number that fits a 64-bit column: larger ones are a 400 from the filter, not a database error.
MAX_ID = 2**63 - 1


class IdFilter(filters.NumberFilter):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", MAX_ID)
        super().__init__(*args, **kwargs)


def variant_choices() -> list[tuple[str, str]]:
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
