"""The ladders in the admin: pause one or set its budget of games per hour (in the list, or
with the actions), and look at its board."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import Count, Q

from tournaments.models import Ladder, LadderEntry


class BoardInline(admin.TabularInline):
    model = LadderEntry
    fields = ["bot", "mu", "sigma", "matches", "on_board", "withdrawn", "joined_at", "left_at"]
    readonly_fields = fields
    ordering = ["-on_board", "-mu"]
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Ladder)
class LadderAdmin(admin.ModelAdmin):
    list_display = ["label", "variant", "players", "paused", "games_per_hour", "versions"]
    list_editable = ["paused", "games_per_hour"]
    list_filter = ["paused", "variant", "players"]
    fields = ["variant", "players", "tournament", "paused", "games_per_hour", "matches_made"]
    readonly_fields = ["variant", "players", "tournament", "matches_made"]
    inlines = [BoardInline]
    actions = ["pause", "resume"]

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .annotate(on_board=Count("entries", filter=Q(entries__on_board=True)))
        )

    def has_add_permission(self, request) -> bool:
        return False  # a ladder is made when the first version that plays it is ready

    @admin.display(description="versions on the board", ordering="on_board")
    def versions(self, obj) -> int:
        return obj.on_board

    @admin.action(description="Pause: no new ladder matches")
    def pause(self, request, queryset):
        n = queryset.update(paused=True)
        self.message_user(request, f"{n} ladder(s) paused", messages.SUCCESS)

    @admin.action(description="Resume")
    def resume(self, request, queryset):
        n = queryset.update(paused=False)
        self.message_user(request, f"{n} ladder(s) resumed", messages.SUCCESS)


@admin.register(LadderEntry)
class LadderEntryAdmin(admin.ModelAdmin):
    list_display = ["bot", "ladder", "mu", "sigma", "matches", "on_board", "withdrawn"]
    list_filter = ["ladder", "on_board", "withdrawn"]
    search_fields = ["bot__name", "bot__owner__username"]
    readonly_fields = ["ladder", "bot", "entrant", "mu", "sigma", "matches", "joined_at"]
    fields = [*readonly_fields, "on_board", "withdrawn", "left_at"]
