"""Bots in the admin: a plugin bot with its parameters, or an uploaded bundle that becomes the
next version of its owner's bot (validated by a worker like any upload)."""

from __future__ import annotations

import re

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db.models import Count, Q

from engine.plugins import registry
from submitted_bots.bundles.uploads import check_bundle, read_upload, upload_version
from submitted_bots.models import Bot


class BotForm(forms.ModelForm):
    """A plugin bot with its parameters, or (when adding) an uploaded bundle: the next version
    of its owner's bot named in its bot.toml, validated by a worker like any upload."""

    plugin = forms.ChoiceField(
        required=False, help_text="a registered bot strategy (empty for a remote bot)"
    )
    upload = forms.FileField(
        required=False,
        label="Bundle",
        help_text="a bundle zip (docs/bots.md): becomes the next version of the owner's bot "
        "(you, when no owner is chosen); leave the plugin empty",
    )

    class Meta:
        model = Bot
        fields = [
            "name",
            "version",
            "plugin",
            "url",
            "params",
            "description",
            "owner",
            "is_active",
        ]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["plugin"].choices = [
            ("", "---"),
            *[(name, name) for name in sorted(registry().bots)],
        ]
        self.fields["name"].required = False
        if self.instance.pk is not None:
            del self.fields["upload"]  # a version is what was uploaded: upload a new one

    def clean(self):
        data = super().clean()
        upload = data.get("upload")
        if upload is not None:
            try:
                check_bundle(read_upload(upload))
            except ValidationError as exc:
                raise ValidationError({"upload": exc.messages}) from None
            upload.seek(0)
        elif not self.instance.is_bundle:
            if not data.get("plugin") and not data.get("url"):
                self.add_error(
                    "plugin", "choose a plugin, or upload a bundle (or give a remote bot's URL)"
                )
            if not data.get("name"):
                self.add_error("name", "a bot needs a name")
        return data

    def _post_clean(self):
        if self.cleaned_data.get("upload") is None:
            super()._post_clean()


LABEL = re.compile(r"^(?:(?P<owner>[\w.@+-]+)/)?(?P<name>[^/\s]*?)(?:\s+v(?P<version>\w+))?$")


def label_query(term: str) -> Q | None:
    """The bots a label as the site writes it names; None when the term is not one."""
    found = LABEL.match(term)
    if found is None or ("/" not in term and found["version"] is None):
        return None  # a bare word: the plain search already looked for it
    query = Q()
    if found["owner"]:
        query &= Q(owner__username__iexact=found["owner"])
    if found["name"]:
        query &= Q(name__istartswith=found["name"])
    if found["version"] is not None:
        query &= Q(version=found["version"])
    return query


@admin.register(Bot)
class BotAdmin(admin.ModelAdmin):
    form = BotForm
    list_display = [
        "name",
        "version",
        "kind",
        "status",
        "plugin",
        "owner",
        "is_active",
        "entries_count",
        "created_at",
    ]
    list_filter = ["kind", "status", "plugin", "is_active"]
    search_fields = ["name", "plugin", "description", "owner__username"]
    autocomplete_fields = ["owner"]
    # The entrants' bot picker pages these results: in an order, or a page may repeat a bot.
    ordering = ["name", "version", "pk"]
    readonly_fields = [
        "player",
        "kind",
        "status",
        "status_reason",
        "sha256",
        "size",
        "bundle",
        "manifest",
        "validation",
        "log",
        "validated_at",
        "created_at",
    ]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("owner").annotate(n=Count("entries"))

    def get_search_results(self, request, queryset, search_term):
        """Also the label the site shows: `alice/firstcard v1`, `alice/firstcard` (every
        version), `alice/` (every bot of hers), `firstcard v1`; the entrants' bot picker
        searches here too."""
        results, duplicates = super().get_search_results(request, queryset, search_term)
        labelled = label_query(search_term.strip())
        if labelled is not None:
            results = results | queryset.filter(labelled)
        return results, duplicates

    @admin.display(description="tournaments", ordering="n")
    def entries_count(self, bot: Bot) -> int:
        return bot.n

    def get_fields(self, request, obj=None):
        fields = super().get_fields(request, obj)
        return [f for f in fields if f != "upload"] if obj is not None else fields

    def save_form(self, request, form, change):
        upload = form.cleaned_data.get("upload")
        if upload is None or change:
            return super().save_form(request, form, change)
        owner = form.cleaned_data.get("owner") or request.user
        bot = upload_version(owner, upload, description=form.cleaned_data.get("description", ""))
        bot.uploaded_here = True
        return bot

    def save_model(self, request, obj, form, change):
        if not getattr(obj, "uploaded_here", False):  # an upload is saved already
            super().save_model(request, obj, form, change)

    def save_related(self, request, form, formsets, change):
        if hasattr(form, "save_m2m"):  # an upload saved no form (a Bot has no many-to-many)
            super().save_related(request, form, formsets, change)
