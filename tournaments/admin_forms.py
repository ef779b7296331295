"""The admin's forms for tournaments and entrants.

Rule options, format options and metrics are widgets generated from the variant's option schema
and the format's options, not JSON boxes: a choice is a select, an integer a number (a select
where the schema lists the allowed values), a boolean a checkbox, the truco ladder a list of
numbers; the preset is a select of the variants' presets; the metrics are ordered selects. Each
registered variant (and format) gets its own group of fields; the admin shows the group of the
selected one (`static/tournaments/admin_tournament.js`; without JavaScript every group shows and
only the selected one counts).

The fields show the values the games will be played with: choosing a preset fills them in, and
what is saved as `options` is what differs from the preset (or the variant's defaults), so the
saved tournament plays exactly what the form showed. Everything is then checked by the model's
`clean()`, the same checks as the API (`tournaments.checks`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError

from engine.errors import OptionError
from engine.options import Option
from engine.plugins import registry
from formats import METRICS
from formats.base import OptionSpec
from formats.standings import METRIC_LABELS
from tournaments.models import Entrant, Tournament

DEFAULT_VARIANT = "paulista"  # what a new tournament offers first (the demo's variant)


def registry_choices(names) -> list[tuple[str, str]]:
    return [(name, name) for name in sorted(names)]


def rule_field_name(variant: str, option: str) -> str:
    return f"rule__{variant}__{option}"


def format_field_name(fmt: str, option: str) -> str:
    return f"fmt__{fmt}__{option}"


# --- one form field per option ------------------------------------------------------------


class LadderField(forms.CharField):
    """The truco ladder as comma-separated numbers ("2, 4, 8, 12")."""

    def to_python(self, value):
        text = super().to_python(value)
        if not text:
            return None
        try:
            return [int(part) for part in re.split(r"[,\s]+", text.strip()) if part]
        except ValueError:
            raise ValidationError(
                "write whole numbers separated by commas, e.g. 2, 4, 8, 12"
            ) from None

    def prepare_value(self, value):
        if isinstance(value, (list, tuple)):
            return ", ".join(str(v) for v in value)
        return value


def rule_option_field(option: Option) -> forms.Field:
    """The widget of one rule option. Empty (where a field can be) means the base value."""
    common = {"required": False, "label": option.name, "help_text": option.help}
    if option.kind == "bool":
        return forms.BooleanField(**common)
    if option.kind == "ladder":
        return LadderField(**common)
    if option.kind == "int" and not option.choices:
        # The bounds go to the browser; the message for a number outside them is the schema's
        # own (as in the API), from Option.validate.
        bounds = {"min": option.minimum, "max": option.maximum}
        return forms.IntegerField(widget=forms.NumberInput(attrs=bounds), **common)
    choices = [(c, str(c)) for c in option.choices]
    if option.kind == "int":
        return forms.TypedChoiceField(choices=choices, coerce=int, empty_value=None, **common)
    return forms.ChoiceField(choices=choices, **common)


def format_option_field(name: str, spec: OptionSpec) -> forms.Field:
    """A format's option: its specs say only a default and a validity test, so the widget is
    chosen by the default: a checkbox for true/false, else a number (empty: the default)."""
    common = {"required": False, "label": name, "help_text": spec.expected}
    if isinstance(spec.default, bool):
        return forms.BooleanField(**common)
    # No bounds of its own: the format's check gives the message, as in the API.
    return forms.IntegerField(**common)


class MetricsWidget(forms.MultiWidget):
    template_name = "tournaments/widgets/metrics.html"

    def __init__(self, slots: int, choices):
        super().__init__([forms.Select(choices=choices) for _ in range(slots)])

    def decompress(self, value):
        value = list(value or [])
        return value + [""] * (len(self.widgets) - len(value))


class MetricsField(forms.MultiValueField):
    """The standings tiebreaks in order: one select per place (a metric appears at most once,
    so there are as many selects as metrics); blank ones are skipped; none at all means the
    format's defaults."""

    def __init__(self, **kwargs):
        choices = [("", "(not used)")] + [(m, METRIC_LABELS.get(m, m)) for m in METRICS]
        slots = len(METRICS)
        super().__init__(
            fields=[forms.ChoiceField(choices=choices, required=False) for _ in range(slots)],
            widget=MetricsWidget(slots, choices),
            require_all_fields=False,
            required=False,
            **kwargs,
        )

    def compress(self, data_list):
        return [m for m in data_list or [] if m]


def preset_choices() -> list:
    """None, then each variant's presets grouped under its title (a preset fills the option
    fields in, so they show what it sets)."""
    groups: list = [("", "(none: the variant's defaults)")]
    for _, variant in sorted(registry().variants.items()):
        if variant.presets:
            groups.append((variant.title, [(p, p) for p in sorted(variant.presets)]))
    return groups


# --- the tournament form ------------------------------------------------------------------


class TournamentFormBase(forms.ModelForm):
    variant = forms.ChoiceField(help_text="a registered variant")
    format = forms.ChoiceField()

    class Meta:
        model = Tournament
        fields = "__all__"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Absent once the tournament started (they are read-only then).
        reg = registry()
        if "variant" in self.fields:
            self.fields["variant"].choices = registry_choices(reg.variants)
            if DEFAULT_VARIANT in reg.variants:
                self.fields["variant"].initial = DEFAULT_VARIANT
            self.fields["variant"].widget.attrs["data-defaults"] = json.dumps(
                {name: _jsonable(v.schema.defaults()) for name, v in reg.variants.items()}
            )
        if "format" in self.fields:
            self.fields["format"].choices = registry_choices(registry().formats)
            self.fields["format"].initial = Tournament._meta.get_field("format").default
        if "preset" in self.fields:
            self.fields["preset"].widget.attrs["data-presets"] = json.dumps(
                {
                    preset: _jsonable(dict(values))
                    for variant in reg.variants.values()
                    for preset, values in variant.presets.items()
                }
            )
        if "metrics" in self.fields:
            defaults = {
                name: ", ".join(METRIC_LABELS.get(m, m) for m in fmt.default_metrics)
                for name, fmt in registry().formats.items()
            }
            self.fields["metrics"].help_text = (
                "standings tiebreaks in order; none: the format's "
                + "; ".join(f"{k}: {v}" for k, v in defaults.items())
            )
        self._set_initial_options()

    # Initial values: what the games would be played with.
    def _set_initial_options(self) -> None:
        tournament = self.instance
        for name, variant in registry().variants.items():
            try:
                values = variant.resolve_options(
                    tournament.options if name == tournament.variant else None,
                    (tournament.preset or None) if name == tournament.variant else None,
                )
            except OptionError:
                values = variant.resolve_options()
            for option in variant.schema.options:
                field = rule_field_name(name, option.name)
                if field in self.fields:
                    self.initial.setdefault(field, values[option.name])
        for fmt_name, fmt in registry().formats.items():
            saved = tournament.format_options if fmt_name == tournament.format else {}
            if not isinstance(saved, Mapping):
                saved = {}
            for option, spec in fmt.option_specs.items():
                field = format_field_name(fmt_name, option)
                if field in self.fields:
                    self.initial.setdefault(field, saved.get(option, spec.default))

    def clean(self):
        cleaned = super().clean()
        if "variant" in self.fields and cleaned.get("variant"):
            self.instance.options = self._rule_options(cleaned["variant"], cleaned.get("preset"))
        if "format" in self.fields and cleaned.get("format"):
            self.instance.format_options = self._format_options(cleaned["format"])
        return cleaned

    def _rule_options(self, name: str, preset: str | None) -> dict[str, Any]:
        """The selected variant's fields as overrides of its preset (or defaults)."""
        variant = registry().variants[name]
        try:
            base = variant.resolve_options(None, preset or None)
        except OptionError:
            base = variant.resolve_options()  # the preset's own error is reported by clean()
        overrides: dict[str, Any] = {}
        for option in variant.schema.options:
            field = rule_field_name(name, option.name)
            value = self.cleaned_data.get(field)
            if value is None or value == "":
                continue
            try:
                value = option.validate(value)
            except OptionError as exc:
                self.add_error(field, str(exc))
                continue
            if value != base[option.name]:
                overrides[option.name] = _jsonable(value)
        return overrides

    def _format_options(self, name: str) -> dict[str, Any]:
        options: dict[str, Any] = {}
        for option, spec in registry().format(name).option_specs.items():
            value = self.cleaned_data.get(format_field_name(name, option))
            if value is not None and value != spec.default:
                options[option] = value
        return options

    def _update_errors(self, errors):
        """The model's checks name `options` and `format_options`, which are not fields of this
        form: their messages go to the option's own field where the message names it, else to
        the variant (or format) field."""
        if hasattr(errors, "error_dict"):
            variant = self.cleaned_data.get("variant", "")
            fmt = self.cleaned_data.get("format", "")
            moved: dict[str, list] = {}
            for field, messages in errors.error_dict.items():
                target = field
                if field == "options":
                    target = self._named_field(messages, variant, rule_field_name) or "variant"
                elif field == "format_options":
                    target = self._named_field(messages, fmt, format_field_name) or "format"
                if target != NON_FIELD_ERRORS and target not in self.fields:
                    target = NON_FIELD_ERRORS
                moved.setdefault(target, []).extend(messages)
            errors = ValidationError(moved)
        super()._update_errors(errors)

    def _named_field(self, messages, owner: str, naming) -> str | None:
        for message in messages:
            found = re.search(
                r"option '([^']+)'", " ".join(getattr(message, "messages", [str(message)]))
            )
            if found and naming(owner, found.group(1)) in self.fields:
                return naming(owner, found.group(1))
        return None


def _jsonable(value):
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, Mapping):
        return {k: _jsonable(v) for k, v in value.items()}
    return value


def build_tournament_form() -> type[forms.ModelForm]:
    """The form class with a field per option of every registered variant and format (the
    plugins are loaded once per process, so this is built once)."""
    attrs: dict[str, Any] = {
        "preset": forms.ChoiceField(choices=preset_choices, required=False),
        "metrics": MetricsField(),
    }
    for name, variant in registry().variants.items():
        for option in variant.schema.options:
            attrs[rule_field_name(name, option.name)] = rule_option_field(option)
    for fmt_name, fmt in registry().formats.items():
        for option, spec in fmt.option_specs.items():
            attrs[format_field_name(fmt_name, option)] = format_option_field(option, spec)
    attrs["Media"] = type(
        "Media",
        (),
        {
            "js": ("tournaments/admin_tournament.js",),
            "css": {"all": ("tournaments/admin_tournament.css",)},
        },
    )
    return type("TournamentForm", (TournamentFormBase,), attrs)


def option_fieldsets() -> tuple[list, list]:
    """(rule fieldsets, format fieldsets): one group per variant and per format with options,
    classed so that the admin's script shows only the selected one."""
    rules = [
        (
            f"Options of {variant.title}",
            {
                "fields": [rule_field_name(name, o.name) for o in variant.schema.options],
                "classes": ["option-group", "rule-options", f"rule-options-{name}"],
                "description": "the values the games are played with; a preset fills them in",
            },
        )
        for name, variant in sorted(registry().variants.items())
    ]
    formats = [
        (
            f"Options of {fmt.title}",
            {
                "fields": [format_field_name(fmt_name, o) for o in fmt.option_specs],
                "classes": ["option-group", "format-options", f"format-options-{fmt_name}"],
            },
        )
        for fmt_name, fmt in registry().formats.items()
        if fmt.option_specs
    ]
    return rules, formats


# --- entrants -----------------------------------------------------------------------------


class EntrantForm(forms.ModelForm):
    """An entrant's name may be left empty: it is filled from the bot (or the team's players),
    as the API does."""

    class Meta:
        model = Entrant
        fields = "__all__"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "name" in self.fields:
            self.fields["name"].required = False
            self.fields["name"].help_text = "empty: the bot's name, or the players' names"

    def clean(self):
        cleaned = super().clean()
        if "name" in self.fields and not cleaned.get("name"):
            bot, members = cleaned.get("bot"), list(cleaned.get("members") or [])
            if bot:
                cleaned["name"] = bot.label
            elif members:
                cleaned["name"] = " & ".join(m.name for m in members)
        return cleaned
