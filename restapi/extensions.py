"""Extension points: fields a higher app adds to a lower app's serializer, so that the arrows of
imports keep pointing one way. The tables app, say, adds a tournament's `table` section (its
stake, privacy, spectators) to the tournaments app's serializers and a person's `chips` to the
players app's: the lower app declares the point and uses it, the higher app fills it in its
AppConfig.ready(), and neither imports the other the wrong way round.

A field is given as a factory (a new serializer field per serializer instance), optionally with
a `save(instance, value)` for writable ones and a queryset annotation for ordering."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rest_framework import serializers


@dataclass
class Extension:
    name: str
    make: Callable[[], serializers.Field]
    # For a writable field: validate(serializer, value, attrs) -> value (raise a
    # ValidationError to refuse) and save(instance, value) after the instance is saved.
    validate: Callable[[Any, Any, dict], Any] | None = None
    save: Callable[[Any, Any], None] | None = None
    # For a field a list may be ordered by: the queryset annotation that computes it.
    annotation: Any = None
    # A relation to fetch with the list's own query (select_related), so that the field costs
    # no query per row.
    related: str | None = None


@dataclass
class ExtensionPoint:
    """Where other apps add fields (by name) to the serializers that use this point."""

    name: str
    extensions: dict[str, Extension] = field(default_factory=dict)

    def add(self, extension: Extension) -> None:
        self.extensions[extension.name] = extension

    def annotate(self, queryset):
        """`queryset` with the annotations the extensions order by and their relations."""
        annotations = {
            name: e.annotation for name, e in self.extensions.items() if e.annotation is not None
        }
        related = [e.related for e in self.extensions.values() if e.related]
        if related:
            queryset = queryset.select_related(*related)
        return queryset.annotate(**annotations) if annotations else queryset

    def ordering_fields(self) -> list[str]:
        return [name for name, e in self.extensions.items() if e.annotation is not None]


class Extensible:
    """A serializer mixin: the fields of its `extension_point`, after its own."""

    extension_point: ExtensionPoint

    def get_fields(self):
        fields = super().get_fields()
        for name, extension in self.extension_point.extensions.items():
            fields[name] = extension.make()
        return fields

    def validate_extensions(self, attrs: dict) -> dict:
        """Each extension's check of its value (it may also set the serializer's own fields
        from it: a table section's time per decision is the tournament's)."""
        for name, extension in self.extension_point.extensions.items():
            if extension.validate is not None and name in attrs:
                attrs[name] = extension.validate(self, attrs[name], attrs)
        return attrs

    def pop_extensions(self, validated_data: dict) -> dict:
        """The extensions' values taken out of `validated_data` (the model has no such field)."""
        return {
            name: validated_data.pop(name)
            for name in list(self.extension_point.extensions)
            if name in validated_data
        }

    def save_extensions(self, instance, values: dict) -> None:
        for name, value in values.items():
            extension = self.extension_point.extensions[name]
            if extension.save is not None:
                extension.save(instance, value)
