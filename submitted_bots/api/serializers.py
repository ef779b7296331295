"""What the API shows of bots and bot strategies, and the checks on what it accepts."""

from __future__ import annotations

import sys
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import transaction
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from engine.plugins import registry
from players.models import Player
from restapi.errors import django_errors
from submitted_bots.checks import check_bot, check_remote_bot
from submitted_bots.models import Bot
from submitted_bots.names import check_user_bot_name


class BotPluginSerializer(serializers.Serializer):
    """A registered bot strategy that a Bot names as its `plugin`."""

    name = serializers.CharField()
    summary = serializers.CharField()
    plugin = serializers.CharField(help_text="the package (entry point) that registered it")


def bot_plugin_json(name: str) -> dict[str, Any]:
    reg = registry()
    return {
        "name": name,
        "summary": plugin_summary(reg.bots[name]),
        "plugin": reg.origin[("bot", name)],
    }


def plugin_summary(factory) -> str:
    """The first paragraph of the bot's docstring, else of its module's (where plugins commonly
    describe themselves), on one line. A class's __doc__ is its own (docstrings are not
    inherited), so a bot without one does not show the Bot base class's."""
    module = sys.modules.get(getattr(factory, "__module__", None) or "")
    for doc in (getattr(factory, "__doc__", None), getattr(module, "__doc__", None)):
        if isinstance(doc, str) and doc.strip():
            return " ".join(doc.strip().split("\n\n")[0].split())
    return ""


class BotSerializer(serializers.ModelSerializer):
    """A bot: a registered plugin with its parameters, an uploaded bundle version
    (docs/bots.md), or a remote bot at a `url` that the server calls over HTTP
    (docs/remote-bots.md). Owners change their own bots; a bot that has played keeps its plugin,
    parameters and URL (make a new version instead). Why a version was rejected, its smoke
    match, its log and a remote bot's URL are shown to its owner and staff only (`null` to
    others)."""

    owner = serializers.CharField(source="owner.username", read_only=True, default=None)
    player = serializers.PrimaryKeyRelatedField(read_only=True)
    label = serializers.CharField(read_only=True)
    params = serializers.JSONField(required=False, help_text="keyword arguments for the bot")
    url = serializers.CharField(
        max_length=2000,
        required=False,
        allow_blank=True,
        help_text="a remote bot's URL (instead of a plugin), when the server allows them",
    )
    status_reason = serializers.SerializerMethodField()
    validation = serializers.SerializerMethodField()
    log = serializers.SerializerMethodField()

    class Meta:
        model = Bot
        fields = [
            "id",
            "name",
            "version",
            "label",
            "kind",
            "plugin",
            "url",
            "params",
            "description",
            "owner",
            "player",
            "is_active",
            "status",
            "status_reason",
            "sha256",
            "size",
            "manifest",
            "validation",
            "validated_at",
            "log",
            "created_at",
        ]
        read_only_fields = [
            "kind",
            "status",
            "sha256",
            "size",
            "manifest",
            "validated_at",
        ]
        extra_kwargs = {"plugin": {"required": False}}

    def _private(self, bot: Bot) -> bool:
        request = self.context.get("request")
        user = getattr(request, "user", None)
        return bool(user and (user.is_staff or (bot.owner_id and bot.owner_id == user.id)))

    @extend_schema_field(OpenApiTypes.STR)
    def get_status_reason(self, bot: Bot) -> str | None:
        return bot.status_reason if self._private(bot) else None

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_validation(self, bot: Bot) -> dict | None:
        return bot.validation if self._private(bot) else None

    @extend_schema_field(OpenApiTypes.STR)
    def get_log(self, bot: Bot) -> str | None:
        return bot.log if self._private(bot) else None

    def to_representation(self, bot: Bot) -> dict[str, Any]:
        data = super().to_representation(bot)
        if bot.url and not self._private(bot):  # it may hold a token; not for others to call
            data["url"] = None
        return data

    def validate_plugin(self, value: str) -> str:
        if value and value not in registry().bots:
            known = ", ".join(sorted(registry().bots)) or "none"
            raise serializers.ValidationError(f"unknown bot {value!r}; registered bots: {known}")
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        instance: Bot | None = self.instance
        if instance is not None and instance.is_bundle:
            return self.validate_bundle_change(instance, attrs)
        plugin = attrs.get("plugin", instance.plugin if instance else "")
        url = attrs.get("url", instance.url if instance else "")
        if not plugin and not url:
            raise serializers.ValidationError(
                {
                    "plugin": [
                        "give a registered plugin, a remote bot's `url`, "
                        "or upload a bundle as `bundle`"
                    ]
                }
            )
        params = attrs.get("params", instance.params if instance else {})
        if params is None:
            params = attrs["params"] = {}
        try:
            if url:
                check_remote_bot(url, plugin)
                if params:
                    raise serializers.ValidationError(
                        {"params": ["a remote bot has no parameters: its server has its own"]}
                    )
            else:
                check_bot(plugin, params)
            if "name" in attrs and (instance is None or attrs["name"] != instance.name):
                check_user_bot_name(attrs["name"])
        except DjangoValidationError as exc:
            raise serializers.ValidationError(django_errors(exc)) from None
        if instance is not None and instance.entries.exists():
            changed = [
                field
                for field in ("plugin", "url", "params")
                if field in attrs and attrs[field] != getattr(instance, field)
            ]
            if changed:
                raise serializers.ValidationError(
                    {
                        f: ["this bot has played in a tournament: create a new version"]
                        for f in changed
                    }
                )
        name = attrs.get("name", instance.name if instance else "")
        version = attrs.get("version", instance.version if instance else "")
        owner = instance.owner if instance else getattr(self.context.get("request"), "user", None)
        label = Bot(name=name, version=version, owner=owner if owner and owner.pk else None).label
        taken = Player.objects.filter(name=label)
        if instance is not None:
            taken = taken.exclude(pk=instance.player_id)
        if taken.exists():
            raise serializers.ValidationError({"name": [f"the player name {label!r} is taken"]})
        if instance is None:
            attrs["kind"] = Bot.Kind.REMOTE if url else Bot.Kind.PLUGIN
        return attrs

    def validate_bundle_change(self, instance: Bot, attrs: dict[str, Any]) -> dict[str, Any]:
        """A bundle version is what was uploaded: only its description and whether it is
        active change (upload a new version for anything else)."""
        fixed = [f for f in ("name", "version", "plugin", "params") if f in attrs]
        fixed = [f for f in fixed if attrs[f] != getattr(instance, f)]
        if fixed:
            raise serializers.ValidationError(
                {f: ["an uploaded version cannot change: upload a new version"] for f in fixed}
            )
        return attrs

    def update(self, instance: Bot, validated_data: dict[str, Any]) -> Bot:
        with transaction.atomic():
            bot = super().update(instance, validated_data)
            if bot.player.name != bot.label:
                bot.player.name = bot.label
                bot.player.save(update_fields=["name"])
        return bot


class BundleUploadSerializer(serializers.Serializer):
    """A bundle upload (multipart): the zip, and optionally a description of this version."""

    bundle = serializers.FileField(help_text="the bundle zip, with bot.toml at its top")
    description = serializers.CharField(required=False, allow_blank=True, max_length=2000)
