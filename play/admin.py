"""Live matches and presences in the admin (read-only: they change through play)."""

from __future__ import annotations

from django.contrib import admin

from .models import LiveMatch, Presence


class PresenceInline(admin.TabularInline):
    model = Presence
    readonly_fields = ["player", "last_seen"]
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
    list_display = ["player", "live", "last_seen"]
    search_fields = ["player__name"]
    list_select_related = ["player", "live__match"]
