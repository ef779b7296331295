"""Players and their ratings in the admin."""

from __future__ import annotations

from django.contrib import admin

from players.models import Player, Rating


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "kind", "user", "created_at"]
    list_filter = ["kind"]
    search_fields = ["name", "user__username"]
    autocomplete_fields = ["user"]
    readonly_fields = ["created_at"]


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ["player", "variant", "shown", "mu", "sigma", "matches", "updated_at"]
    list_filter = ["variant", "player__kind"]
    search_fields = ["player__name"]
    ordering = ["variant", "-mu"]
    list_select_related = ["player"]

    @admin.display(description="rating ± 95%")
    def shown(self, rating: Rating) -> str:
        return rating.display
