"""The tables in the admin: live matches, presences, paid games and chats (read-only: they
change through play), table settings (also inline in their tournament's page), people's wallets
(a balance set by staff is written to the ledger) and the chips ledger; and an action on matches
that starts the ones people play now."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.urls import reverse
from django.utils.html import format_html

from players.models import Player
from tables import chips
from tables.checks import check_table_settings
from tables.models import (
    ChatMessage,
    ChipTransfer,
    LiveMatch,
    Presence,
    SettledGame,
    TableSettings,
    Wallet,
)
from tables.services import PlayError, start_match
from tournaments.admin import MATCH_ACTIONS, TOURNAMENT_INLINES


class PresenceInline(admin.TabularInline):
    model = Presence
    readonly_fields = ["player", "last_seen", "ips"]
    extra = 0
    can_delete = False


@admin.register(LiveMatch)
class LiveMatchAdmin(admin.ModelAdmin):
    list_display = ["match", "waiting", "game_no", "ply", "to_act", "turn_deadline", "updated_at"]
    list_filter = ["waiting"]
    search_fields = ["match__key", "match__tournament__name"]
    list_select_related = ["match", "match__tournament", "match__entrant_a", "match__entrant_b"]
    # The actions of the game in play would reveal the cards: they are not shown here.
    fields = ["match", "waiting", "game_no", "to_act", "turn_deadline", "started_at", "finished_at"]
    readonly_fields = fields
    inlines = [PresenceInline]

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(Presence)
class PresenceAdmin(admin.ModelAdmin):
    list_display = ["player", "live", "last_seen", "ips"]
    search_fields = ["player__name"]
    list_select_related = ["player", "live__match"]


@admin.register(SettledGame)
class SettledGameAdmin(admin.ModelAdmin):
    """Games whose chips and ranking points were paid (their movements: the chips ledger)."""

    list_display = ["match", "index", "stake", "pot", "bank_share", "ranked", "settled_at"]
    list_filter = ["ranked"]
    search_fields = ["match__key", "match__tournament__name"]
    list_select_related = ["match", "match__tournament"]
    readonly_fields = [f.name for f in SettledGame._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    """Table chats, for moderation: staff may delete a message."""

    list_display = ["posted_at", "match", "author", "text"]
    search_fields = ["text", "author__name", "match__tournament__name"]
    list_select_related = ["match", "author"]
    readonly_fields = ["match", "author", "text", "posted_at"]

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(ChipTransfer)
class ChipTransferAdmin(admin.ModelAdmin):
    """The chips ledger: read-only (a balance is changed on its player's page)."""

    list_display = ["created_at", "account", "amount", "balance_after", "kind", "match", "note"]
    list_filter = ["kind"]
    search_fields = ["player__name", "note"]
    list_select_related = ["player", "match"]
    readonly_fields = [f.name for f in ChipTransfer._meta.fields]

    @admin.display(description="account", ordering="player__name")
    def account(self, row: ChipTransfer) -> str:
        return row.player.name if row.player_id else "the bank"

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class TableSettingsFormSet(forms.BaseInlineFormSet):
    """A stake needs a competitive tournament: checked against the tournament being saved (its
    own form's `competitive`), since a new one has no row yet."""

    def clean(self):
        super().clean()
        for form in self.forms:
            stake = (getattr(form, "cleaned_data", None) or {}).get("stake") or 0
            errors = check_table_settings(self.instance.competitive, stake)
            for field, messages_ in errors.items():
                form.add_error(field, messages_)


class TableSettingsInline(admin.StackedInline):
    model = TableSettings
    formset = TableSettingsFormSet
    can_delete = False
    filter_horizontal = ["invited"]
    # A player's own table (play page) gets its master and daily deals when it is opened.
    readonly_fields = ["master", "daily"]
    extra = 1
    max_num = 1

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        if db_field.name == "invited":  # people are invited to sit; bots are entrants
            return invited_people_field(db_field, request, super(), **kwargs)
        return super().formfield_for_manytomany(db_field, request, **kwargs)

    def get_exclude(self, request, obj=None):
        """Nobody disconnects from a tournament of bots only: no grace to set there."""
        exclude = list(super().get_exclude(request, obj) or [])
        if obj is not None and bots_only(obj):
            exclude.append("disconnect_grace_seconds")
        return exclude


def bots_only(tournament) -> bool:
    entrants = tournament.entrants.all()
    return entrants.exists() and not entrants.filter(bot__isnull=True).exists()


def invited_people_field(db_field, request, admin_super, **kwargs):
    kwargs["queryset"] = Player.objects.filter(kind=Player.Kind.HUMAN).order_by("name")
    field = admin_super.formfield_for_manytomany(db_field, request, **kwargs)
    field.label = "Invited people"
    field.help_text = "the people who may sit at a private table (bots are its entrants)"
    return field


@admin.register(TableSettings)
class TableSettingsAdmin(admin.ModelAdmin):
    list_display = [
        "tournament",
        "turn_seconds",
        "competitive",
        "stake",
        "private",
        "spectators",
        "master",
        "daily",
    ]
    list_filter = ["tournament__competitive", "private", "spectators", "daily"]
    search_fields = ["tournament__name", "master__name"]
    filter_horizontal = ["invited"]
    list_select_related = ["tournament", "master"]
    readonly_fields = ["master", "daily"]

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        if db_field.name == "invited":
            return invited_people_field(db_field, request, super(), **kwargs)
        return super().formfield_for_manytomany(db_field, request, **kwargs)


@admin.register(Wallet)
class WalletAdmin(admin.ModelAdmin):
    list_display = ["player", "chips", "ranking_points"]
    search_fields = ["player__name", "player__user__username"]
    list_select_related = ["player"]
    readonly_fields = ["ranking_points", "ledger"]
    autocomplete_fields = ["player"]

    @admin.display(description="chips ledger")
    def ledger(self, wallet: Wallet) -> str:
        if wallet.pk is None:
            return "-"
        url = reverse("admin:play_chiptransfer_changelist")
        count = ChipTransfer.objects.filter(player_id=wallet.pk).count()
        return format_html(
            '<a href="{}?player__id__exact={}">{} movements</a>', url, wallet.pk, count
        )

    def save_model(self, request, obj, form, change):
        """A balance set by staff is written to the ledger, so every balance stays explained."""
        if change and "chips" in form.changed_data:
            wanted = obj.chips
            obj.chips = form.initial["chips"]
            super().save_model(request, obj, form, change)
            chips.set_balance(obj.player, wanted, f"set by {request.user.get_username()}")
            obj.refresh_from_db()
            return
        super().save_model(request, obj, form, change)


@admin.action(description="Start matches with human seats now (absent humans are played for)")
def start_human_matches(modeladmin, request, queryset):
    done = 0
    for match in queryset:
        try:
            start_match(match.pk)
            done += 1
        except PlayError as exc:
            modeladmin.message_user(request, f"{match.key}: {exc}", messages.ERROR)
    if done:
        modeladmin.message_user(request, f"{done} match(es) started", messages.SUCCESS)


# A tournament's page shows its table settings; matches may be started for people.
TOURNAMENT_INLINES.append(TableSettingsInline)
MATCH_ACTIONS.insert(1, start_human_matches)
