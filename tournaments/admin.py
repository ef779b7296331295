"""The admin: every model with useful columns, filters and search; entrants inline in their
tournament and games in their match; actions that start, pause, resume and cancel tournaments
and re-run matches (through `tournaments.lifecycle`); a progress figure per tournament; a
standings-and-bracket page; downloads of game records as JSON lines."""

from __future__ import annotations

import functools

from django import forms
from django.contrib import admin, messages
from django.db.models import Count
from django.urls import path, reverse
from django.utils.html import format_html

from engine.errors import PluginError
from formats import FormatError
from tournaments import admin_views, ladder_admin, lifecycle
from tournaments.admin_forms import (
    EntrantForm,
    build_tournament_form,
    option_fieldsets,
)
from tournaments.api.standings import progress, total_matches
from tournaments.models import Entrant, Game, Match, Round, Tournament
from tournaments.scheduling import format_of
from tournaments.seed_disclosure import match_seed_revealed, seed_fields, tournament_seed_revealed

# Extension points the apps above fill (their admin modules, which Django imports after this
# one): inlines of a tournament's page (the tables app: its table settings) and actions on
# matches (the tables app: start the matches people play now).
TOURNAMENT_INLINES: list = []
MATCH_ACTIONS: list = ["rerun_matches", "download_records"]


def shown_seed(seed: int, revealed: bool) -> str:
    """A seed as the admin shows it: staff may play too, so not before the public may see it."""
    fields = seed_fields(seed, revealed)
    if revealed:
        return str(fields["seed"])
    return f"secret until the end; commitment {fields['seed_commitment']}"


def progress_bar(done: int, total: int | None, *, draft: bool = False) -> str:
    figure = progress(done, total)
    if draft:  # nothing is scheduled before the start ("0/0 (None%)" said nothing)
        if total:
            return format_html("not started: {} matches once it starts", total)
        return "not started"
    if not figure["total"]:
        return format_html("{} matches played", done)
    return format_html(
        '<progress value="{}" max="{}" style="width:6em"></progress> {}/{} ({}%)',
        done,
        figure["total"],
        done,
        figure["total"],
        figure["percent"],
    )


# --- players, bots, ratings ---------------------------------------------------------------


# --- tournaments --------------------------------------------------------------------------


class KindFilter(admin.SimpleListFilter):
    """Competitions by default: players' own tables (practice and others) and the ladder's
    are tournaments too, but an organiser's list is of competitions ("Practice: admin v
    heuristic" rows buried them); the other kinds are one click away."""

    title = "kind"
    parameter_name = "kind"
    ALL = "all"

    def lookups(self, request, model_admin):
        return [*Tournament.Kind.choices, (self.ALL, "every kind")]

    def choices(self, changelist):
        shown = self.value() or Tournament.Kind.COMPETITION
        for value, label in self.lookup_choices:
            yield {
                "selected": shown == value,
                "query_string": changelist.get_query_string({self.parameter_name: value}),
                "display": label,
            }

    def queryset(self, request, queryset):
        value = self.value() or Tournament.Kind.COMPETITION
        if value == self.ALL:
            return queryset
        return queryset.filter(kind=value)


def entrant_count_note(tournament: Tournament, entrants: int) -> str:
    """What the organiser should know of the number of entrants for the format, or ""."""
    if entrants < 2:
        return (
            f"{tournament.name} has {entrants} entrant{'s' * (entrants != 1)}: it needs 2 to start."
        )
    try:
        bracket = format_of(tournament).has_bracket
    except (PluginError, FormatError):
        return ""
    size = 1 << (entrants - 1).bit_length()
    if bracket and size != entrants:
        byes = size - entrants
        return (
            f"{tournament.name} has {entrants} entrants: its bracket has {size} places, so "
            f"{byes} entrant{'s go' if byes > 1 else ' goes'} through round 1 on a bye."
        )
    return ""


class EntrantFormSet(forms.BaseInlineFormSet):
    """Each entrant is a bot or a team that fits the game, and nobody is entered twice."""

    def clean(self):
        super().clean()
        per_side = max(1, (self.instance.players or 2) // 2)
        seen: set = set()
        for form in self.forms:
            data = getattr(form, "cleaned_data", None)
            if not data or data.get("DELETE"):
                continue
            bot, members = data.get("bot"), list(data.get("members") or [])
            if bool(bot) == bool(members):
                form.add_error(
                    None, "an entrant is a bot or a team of players, not both or neither"
                )
            elif len(members) > per_side:
                form.add_error(
                    "members",
                    f"a team in a {self.instance.players}-player game has 1 to {per_side}",
                )
            for key in ([("bot", bot.pk)] if bot else []) + [("player", m.pk) for m in members]:
                if key in seen:
                    form.add_error(None, f"that {key[0]} is already entered")
                seen.add(key)


class EntrantInline(admin.TabularInline):
    model = Entrant
    form = EntrantForm
    formset = EntrantFormSet
    fields = ["name", "bot", "members", "seed"]
    autocomplete_fields = ["bot", "members"]
    extra = 0
    show_change_link = True

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("bot").prefetch_related("members")


class ReadOnlyEntrantInline(EntrantInline):
    """Once a tournament started, its entrants are fixed (seeds included)."""

    formset = forms.BaseInlineFormSet
    readonly_fields = ["name", "bot", "members_list", "seed"]
    fields = readonly_fields
    autocomplete_fields = []
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description="players")
    def members_list(self, entrant: Entrant) -> str:
        return ", ".join(p.name for p in entrant.members.all()) or "-"


@functools.cache
def tournament_form():
    return build_tournament_form()


def tournament_fieldsets(draft: bool) -> list:
    """A draft: a widget per option, grouped per variant and per format (admin_forms). A
    tournament that started: its settings as they were, read-only (the options as JSON)."""
    rules, formats = option_fieldsets() if draft else ([], [])
    json_boxes = [] if draft else ["options"]
    return [
        (None, {"fields": ["name", "status", "progress_figure"]}),
        ("Rules", {"fields": ["variant", "preset", *json_boxes, "players"]}),
        *rules,
        (
            "Format",
            {
                "fields": [
                    "format",
                    *([] if draft else ["format_options"]),
                    "metrics",
                    "games_per_match",
                    "pairs_per_match",
                    "seeding",
                    "seed",
                ]
            },
        ),
        *formats,
        (
            "Time control",
            {
                "fields": ["turn_seconds", "bank_seconds", "increment_seconds", "competitive"],
                "description": "the time per decision (bots and people), a bot's bank per game "
                "with its increment per decision, and whether results count",
            },
        ),
        (
            "Registration",
            {"fields": ["registration_open", "registration_deadline", "max_entrants"]},
        ),
        ("History", {"fields": ["kind", "created_by", "created_at", "started_at", "finished_at"]}),
    ]


assert ladder_admin  # registers the ladders' admin pages (tournaments/ladder_admin.py)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = [
        "name",
        "id",  # names may repeat: the id (and the date) tell them apart
        "variant",
        "format",
        "players",
        "status",
        "entrants_count",
        "progress_figure",
        "created_at",
    ]
    list_filter = ["status", KindFilter, "variant", "format", "players"]
    search_fields = ["name", "variant"]
    date_hierarchy = "created_at"
    inlines = [EntrantInline]
    readonly_fields = [
        "status",
        "kind",
        "created_at",
        "started_at",
        "finished_at",
        "progress_figure",
    ]
    actions = ["start_tournaments", "pause_tournaments", "resume_tournaments", "cancel_tournaments"]
    autocomplete_fields = ["created_by"]

    def get_queryset(self, request):
        return super().get_queryset(request).with_progress()

    def get_form(self, request, obj=None, change=False, **kwargs):
        # Set as the admin's own form (not a keyword), so that the admin still drops the
        # declared fields that are read-only once the tournament started.
        self.form = tournament_form()
        return super().get_form(request, obj, change, **kwargs)

    def get_readonly_fields(self, request, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None and obj.status != Tournament.Status.DRAFT:
            # Matches were paired and played under these settings: they stay as they were.
            fields += [*Tournament.PLAY_SETTINGS, "deal_seed"]
        return fields

    def get_fieldsets(self, request, obj=None):
        draft = obj is None or obj.status == Tournament.Status.DRAFT
        fieldsets = tournament_fieldsets(draft=draft)
        if draft:
            return fieldsets  # the organiser may still choose the seed
        return [
            (name, {**opts, "fields": [f if f != "seed" else "deal_seed" for f in opts["fields"]]})
            for name, opts in fieldsets
        ]

    @admin.display(description="seed")
    def deal_seed(self, tournament: Tournament) -> str:
        return shown_seed(tournament.seed, tournament_seed_revealed(tournament))

    def get_inlines(self, request, obj):
        entrants = EntrantInline
        if obj is not None and obj.status != Tournament.Status.DRAFT:
            entrants = ReadOnlyEntrantInline
        return [*TOURNAMENT_INLINES, entrants]

    def get_urls(self):
        view = self.admin_site.admin_view
        return [
            path(
                "<int:pk>/standings/",
                view(admin_views.TournamentStandingsView.as_view(admin=self)),
                name="tournaments_tournament_standings",
            ),
            path(
                "<int:pk>/records.jsonl",
                view(admin_views.tournament_records),
                name="tournaments_tournament_records",
            ),
            *super().get_urls(),
        ]

    def save_formset(self, request, form, formset, change):
        super().save_formset(request, form, formset, change)
        if formset.model is Entrant and hasattr(formset, "extra_forms"):
            # A row added and left empty is skipped by the admin: say so, not "added" alone.
            dropped = sum(1 for f in formset.extra_forms if not f.has_changed())
            if dropped:
                messages.warning(
                    request,
                    f"{dropped} entrant row{'s were' if dropped > 1 else ' was'} left empty "
                    "and not saved: pick a bot or players in each row you add.",
                )

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        tournament = form.instance
        if tournament.status == Tournament.Status.DRAFT:
            note = entrant_count_note(tournament, tournament.entrants.count())
            if note:
                messages.warning(request, note)

    @admin.display(description="entrants", ordering="entrant_count")
    def entrants_count(self, tournament: Tournament) -> int:
        return getattr(tournament, "entrant_count", 0)

    @admin.display(description="progress")
    def progress_figure(self, tournament: Tournament) -> str:
        if tournament.pk is None:
            return "-"
        done = getattr(tournament, "matches_done", None)
        if done is None:
            done = tournament.matches.filter(
                status=Match.Status.DONE, entrant_b__isnull=False
            ).count()
        entrants = getattr(tournament, "entrant_count", None)
        if entrants is None:
            entrants = tournament.entrants.count()
        return progress_bar(
            done,
            total_matches(tournament, entrants),
            draft=tournament.status == Tournament.Status.DRAFT,
        )

    def _each(self, request, queryset, operation, verb: str) -> None:
        done = 0
        for tournament in queryset:
            try:
                operation(tournament)
                done += 1
            except lifecycle.LifecycleError as exc:
                self.message_user(request, str(exc), messages.ERROR)
        if done:
            self.message_user(request, f"{verb} {done} tournament(s)", messages.SUCCESS)

    @admin.action(description="Start the selected tournaments")
    def start_tournaments(self, request, queryset):
        self._each(request, queryset, lifecycle.start, "started")

    @admin.action(description="Pause the selected tournaments")
    def pause_tournaments(self, request, queryset):
        self._each(request, queryset, lifecycle.pause, "paused")

    @admin.action(description="Resume the selected tournaments")
    def resume_tournaments(self, request, queryset):
        self._each(request, queryset, lifecycle.resume, "resumed")

    @admin.action(description="Cancel the selected tournaments")
    def cancel_tournaments(self, request, queryset):
        self._each(request, queryset, lifecycle.cancel, "cancelled")


@admin.register(Entrant)
class EntrantAdmin(admin.ModelAdmin):
    form = EntrantForm
    list_display = ["name", "tournament", "seed", "bot", "team"]
    list_filter = ["tournament__status", "tournament__variant"]
    search_fields = ["name", "tournament__name", "bot__name", "members__name"]
    autocomplete_fields = ["tournament", "bot", "members"]
    list_select_related = ["tournament", "bot"]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("members")

    @admin.display(description="players")
    def team(self, entrant: Entrant) -> str:
        return ", ".join(p.name for p in entrant.members.all())


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "status", "match_count", "started_at", "finished_at"]
    list_filter = ["status"]
    search_fields = ["tournament__name"]
    list_select_related = ["tournament"]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(n=Count("matches"))

    @admin.display(description="matches", ordering="n")
    def match_count(self, round_: Round) -> int:
        return round_.n


class GameInline(admin.TabularInline):
    model = Game
    fields = [
        "index",
        "pair",
        "a_team",
        "score_a",
        "score_b",
        "winner_side",
        "termination",
        "hands",
        "actions",
        "replay",
    ]
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def get_queryset(self, request):
        return super().get_queryset(request).defer("record")

    @admin.display(description="replay")
    def replay(self, game: Game) -> str:
        return format_html(
            '<a href="{}">replay</a> · <a href="{}">record</a>',
            reverse("web:replay", args=[game.pk]),
            reverse("game-record", args=[game.pk]),
        )


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = [
        "key",
        "tournament",
        "round_number",
        "entrant_a",
        "entrant_b",
        "status",
        "score",
        "winner",
        "attempts",
        "worker",
        "finished_at",
    ]
    list_filter = ["status", "tournament__status", "tournament__variant"]
    search_fields = ["key", "tournament__name", "entrant_a__name", "entrant_b__name"]
    list_select_related = ["tournament", "round", "entrant_a", "entrant_b", "winner"]
    inlines = [GameInline]
    actions = MATCH_ACTIONS  # the list itself: what the apps above add shows too
    readonly_fields = [
        "tournament",
        "round",
        "key",
        "entrant_a",
        "entrant_b",
        "deal_seed",
        "status",
        "attempts",
        "worker",
        "claim_token",
        "lease_until",
        "error",
        "queued_at",
        "started_at",
        "finished_at",
        "winner",
        "wins_a",
        "wins_b",
        "points_a",
        "points_b",
        "games_played",
        "terminations",
        "summary",
        "rated",
    ]
    # The seed is shown by deal_seed: a commitment until the match is done.
    exclude = ["seed"]

    @admin.display(description="seed")
    def deal_seed(self, match: Match) -> str:
        return shown_seed(match.seed, match_seed_revealed(match))

    def has_add_permission(self, request) -> bool:
        return False  # matches come from the format, not by hand

    def get_urls(self):
        view = self.admin_site.admin_view
        return [
            path(
                "<int:pk>/records.jsonl",
                view(admin_views.match_records),
                name="tournaments_match_records",
            ),
            *super().get_urls(),
        ]

    @admin.display(description="round", ordering="round__number")
    def round_number(self, match: Match) -> int:
        return match.round.number

    @admin.display(description="games won (points)")
    def score(self, match: Match) -> str:
        if match.status != Match.Status.DONE or match.is_bye:
            return "-"
        return f"{match.wins_a}-{match.wins_b} ({match.points_a}-{match.points_b})"

    @admin.action(description="Re-run the selected matches")
    def rerun_matches(self, request, queryset):
        done = 0
        for match in queryset:
            try:
                lifecycle.rerun_match(match)
                done += 1
            except lifecycle.LifecycleError as exc:
                self.message_user(request, str(exc), messages.ERROR)
        if done:
            self.message_user(
                request, f"{done} match(es) sent to be played again", messages.SUCCESS
            )

    @admin.action(description="Download the game records (JSON lines)")
    def download_records(self, request, queryset):
        return admin_views.records_response(
            Game.objects.filter(match__in=queryset), "matches-records.jsonl"
        )


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = [
        "__str__",
        "tournament",
        "index",
        "score_a",
        "score_b",
        "winner_side",
        "termination",
        "hands",
        "actions",
    ]
    list_filter = ["termination", "winner_side", "match__tournament__variant"]
    search_fields = ["match__key", "match__tournament__name"]
    list_select_related = ["match", "match__tournament"]
    exclude = ["seed"]  # shown by deal_seed: a commitment until its match is done
    readonly_fields = [
        "match",
        "index",
        "pair",
        "a_team",
        "deal_seed",
        "score_a",
        "score_b",
        "winner_side",
        "termination",
        "fault_seat",
        "hands",
        "actions",
        "replay_link",
        "record",
        "private",
    ]

    @admin.display(description="seed")
    def deal_seed(self, game: Game) -> str:
        return shown_seed(game.seed, match_seed_revealed(game.match))

    def has_add_permission(self, request) -> bool:
        return False

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.resolver_match and request.resolver_match.url_name.endswith("changelist"):
            queryset = queryset.defer("record")
        return queryset

    @admin.display(description="tournament", ordering="match__tournament__name")
    def tournament(self, game: Game) -> str:
        return game.match.tournament.name

    @admin.display(description="replay")
    def replay_link(self, game: Game) -> str:
        return format_html(
            '<a href="{}">step through the game</a>', reverse("web:replay", args=[game.pk])
        )
