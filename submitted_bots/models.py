"""Bots and their versions: what a user or the operator submitted, and what the server learnt
of it (its manifest, its smoke match, its log).

A Bot row is one version: a registered plugin with its parameters, an uploaded bundle
(docs/bots.md), or a remote bot at a URL. How a saved bot plays is decided in one place,
`submitted_bots.playing.spec_for`.

The table keeps the name it had when this model lived in `tournaments` (`db_table`), so that
databases made before the move kept their rows (submitted_bots/migrations/0001_initial.py).
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

from players.models import Player
from submitted_bots.bundles.storage import BundleStorage
from submitted_bots.checks import check_bot, check_remote_bot


def bundle_storage():
    """Where uploaded bundles are kept: the `bundles` entry of settings.STORAGES (a folder under
    var/ by default; any Django storage, e.g. S3-compatible, by setting)."""
    return BundleStorage()


def bundle_path(bot: Bot, filename: str) -> str:
    return f"{bot.owner_id or 'operator'}/{bot.name}/v{bot.version}-{bot.sha256[:16]}.zip"


class BotQuerySet(models.QuerySet):
    def enterable(self):
        """Bots that may be entered in a tournament: active and validated."""
        return self.filter(is_active=True, status=Bot.Status.READY)


class Bot(models.Model):
    """A bot: a registered plugin with its parameters, an uploaded bundle (docs/bots.md), or a
    remote bot at a URL, called over HTTP (docs/remote-bots.md). A new version is a new Bot,
    with a Player of its own, rated apart. A user's bots are known by owner and name
    (`alice/greedy v3`); names of the registered plugins are reserved for the built-ins
    (submitted_bots/names.py)."""

    class Kind(models.TextChoices):
        PLUGIN = "plugin", "registered plugin"
        BUNDLE = "bundle", "uploaded bundle"
        REMOTE = "remote", "remote bot (a URL)"

    class Status(models.TextChoices):
        VALIDATING = "validating", "validating"
        READY = "ready", "ready"
        REJECTED = "rejected", "rejected"
        RETIRED = "retired", "retired"

    objects = BotQuerySet.as_manager()

    name = models.CharField(max_length=100)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.PLUGIN)
    plugin = models.CharField(
        max_length=100, blank=True, help_text="the bot's registered plugin name (plugin bots)"
    )
    url = models.CharField(
        max_length=500,
        blank=True,
        default="",
        help_text="a remote bot's URL, called over HTTP (docs/remote-bots.md); remote bots only",
    )
    params = models.JSONField(default=dict, blank=True, help_text="keyword arguments for the bot")
    version = models.CharField(max_length=40, blank=True, default="")
    description = models.TextField(blank=True, default="")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="bots",
    )
    player = models.OneToOneField(Player, on_delete=models.PROTECT, related_name="bot")
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    # Uploaded bundles (kind "bundle"): the zip as uploaded, and what validation found.
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.READY, db_index=True
    )
    status_reason = models.TextField(
        blank=True, default="", help_text="why it was rejected, in words its owner can act on"
    )
    bundle = models.FileField(storage=bundle_storage, upload_to=bundle_path, blank=True)
    sha256 = models.CharField(max_length=64, blank=True, default="")
    size = models.PositiveIntegerField(null=True, blank=True, help_text="bytes of the zip")
    manifest = models.JSONField(default=dict, blank=True, help_text="its bot.toml")
    validation = models.JSONField(
        default=dict, blank=True, help_text="the smoke match: games and terminations per setting"
    )
    log = models.TextField(
        blank=True, default="", help_text="what the bot wrote to standard error (owner and staff)"
    )
    validated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "tournaments_bot"
        ordering = ["name", "version"]
        constraints = [
            models.UniqueConstraint(
                fields=["name", "version"],
                condition=Q(owner__isnull=True),
                name="bot_name_version_unique",
            ),
            models.UniqueConstraint(
                fields=["owner", "name", "version"],
                condition=Q(owner__isnull=False),
                name="bot_owner_name_version_unique",
            ),
        ]

    def __str__(self) -> str:
        return self.label

    @property
    def label(self) -> str:
        """`alice/greedy v3` for a user's bot, `mcts-fast` for the operator's."""
        name = f"{self.owner.username}/{self.name}" if self.owner_id else self.name
        return f"{name} v{self.version}" if self.version else name

    @property
    def is_bundle(self) -> bool:
        return self.kind == self.Kind.BUNDLE

    @property
    def is_enterable(self) -> bool:
        return self.is_active and self.status == self.Status.READY

    @property
    def is_remote(self) -> bool:
        return bool(self.url)

    def clean(self) -> None:
        if self.is_bundle:
            return  # checked when uploaded (submitted_bots/bundles), validated by a smoke match
        if self.url:
            check_remote_bot(self.url, self.plugin)
        elif not self.plugin:
            raise ValidationError({"plugin": "a bot needs a plugin, or a url for a remote bot"})
        else:
            check_bot(self.plugin, self.params)

    def save(self, *args, **kwargs):
        if self.url:  # a bot with a URL is remote, however it was made (API, admin, shell)
            self.kind = self.Kind.REMOTE
        if self.player_id is None:
            self.player = Player.objects.create(name=self.label, kind=Player.Kind.BOT)
        super().save(*args, **kwargs)
