"""Live matches, presences, paid games and table chats in the admin (read-only: they change
through play)."""

from __future__ import annotations

from django.contrib import admin

from play.models import ChatMessage, LiveMatch, Presence, SettledGame


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
