"""Tournaments and everything a tournament is made of: entrants, rounds, matches, games.

An Entrant is a tournament's participant: one bot version (submitted_bots.Bot, which plays every
seat of its team), or a team of one or two human players (players.Player). Matches are created by
the format bridge (`tournaments.scheduling`) and played by workers (`tournaments.execution`), or
at tables where people sit (the `tables` app); a Game row holds one game record (RECORDS.md).

A player's own table (opened from the play page) is a two-entrant tournament of kind `table`,
and the ladder's matches belong to tournaments of kind `ladder`: the pages and the admin list
competitions apart from them.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Count, IntegerField, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce

from engine.time_control import TimeControl
from players.models import Player
from submitted_bots.models import Bot
from tournaments.checks import check_tournament
from tournaments.seeds import new_tournament_seed


def count_per_tournament(model, **where):
    """A correlated count per tournament, so that several counts do not multiply each other's
    rows."""
    return Coalesce(
        Subquery(
            model.objects.filter(tournament=OuterRef("pk"), **where)
            .order_by()
            .values("tournament")
            .annotate(n=Count("id"))
            .values("n")[:1],
            output_field=IntegerField(),
        ),
        0,
    )


class TournamentQuerySet(models.QuerySet):
    def with_progress(self):
        """Annotated with `entrant_count` and `matches_done` (byes excluded): the progress
        figure of the admin list and the API, in the list's own query."""
        return self.annotate(
            entrant_count=count_per_tournament(Entrant),
            matches_done=count_per_tournament(
                Match, status=Match.Status.DONE, entrant_b__isnull=False
            ),
        )


class Tournament(models.Model):
    # How the tournament is played: free to change while a draft, frozen once matches are
    # paired under them (the admin, the API and validation share this list).
    PLAY_SETTINGS = (
        "variant",
        "preset",
        "options",
        "players",
        "format",
        "format_options",
        "metrics",
        "games_per_match",
        "pairs_per_match",
        "seeding",
        "seed",
        # The time control and whether results count: bots were entered under them.
        "turn_seconds",
        "bank_seconds",
        "increment_seconds",
        "competitive",
    )

    class Status(models.TextChoices):
        DRAFT = "draft", "draft"
        RUNNING = "running", "running"
        PAUSED = "paused", "paused"
        DONE = "done", "done"
        CANCELLED = "cancelled", "cancelled"

    class Seeding(models.TextChoices):
        RATING = "rating", "by rating (best first)"
        ORDER = "order", "in registration order (or the seeds given)"
        RANDOM = "random", "random, drawn from the tournament seed"

    class Kind(models.TextChoices):
        COMPETITION = "competition", "a competition (organised)"
        TABLE = "table", "a player's own table (opened from the play page)"
        LADDER = "ladder", "the ladder's matches (tournaments/ladder)"

    objects = TournamentQuerySet.as_manager()

    name = models.CharField(max_length=200)
    variant = models.CharField(max_length=50, help_text="a registered variant name")
    preset = models.CharField(max_length=50, blank=True, default="")
    options = models.JSONField(
        default=dict, blank=True, help_text="rule options over the variant's (or preset's) values"
    )
    players = models.PositiveSmallIntegerField(default=2, help_text="2 (1v1) or 4 (2v2)")
    format = models.CharField(max_length=30, default="single-elimination")
    format_options = models.JSONField(default=dict, blank=True)
    metrics = models.JSONField(
        default=list,
        blank=True,
        help_text="standings tiebreaks in order; empty means the format's defaults",
    )
    games_per_match = models.PositiveIntegerField(default=10)
    pairs_per_match = models.PositiveIntegerField(
        default=0, help_text="duplicate pairs per match (the same deal played with seats swapped)"
    )
    seeding = models.CharField(max_length=10, choices=Seeding.choices, default=Seeding.RATING)
    seed = models.BigIntegerField(
        default=new_tournament_seed, help_text="every deal of the tournament derives from it"
    )
    kind = models.CharField(
        max_length=12, choices=Kind.choices, default=Kind.COMPETITION, db_index=True
    )
    # How its games are played, bots and people alike (RULES.md section 5): the time control and
    # whether results count. The tables app keeps what only people's tables have (stakes,
    # privacy, spectators, the disconnection grace): tables.TableSettings.
    turn_seconds = models.PositiveIntegerField(
        default=30,
        help_text="thinking time per decision; past it the game plays for the seat (auto-play)",
    )
    bank_seconds = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="a bot's bank of thinking time per game, on top of which each decision adds "
        "the increment; a bot that empties it loses the game by timeout (empty: no bank)",
    )
    increment_seconds = models.FloatField(
        default=0, help_text="seconds added to a bot's bank per decision"
    )
    competitive = models.BooleanField(
        default=True, help_text="counts for ratings (and at tables, chips and ranking points)"
    )
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.DRAFT, db_index=True
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournaments",
    )
    # Registration (tournaments/registration.py): while a draft with this on, signed-in users
    # enter their bots or themselves, up to the deadline and the cap.
    registration_open = models.BooleanField(
        default=False, help_text="signed-in users may enter (while a draft)"
    )
    registration_deadline = models.DateTimeField(
        null=True, blank=True, help_text="no entry or withdrawal after this; empty: until the start"
    )
    max_entrants = models.PositiveIntegerField(
        null=True, blank=True, help_text="registration closes when this many are in; empty: no cap"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.label

    @property
    def label(self) -> str:
        """The name with what tells apart two tournaments of one name (names may repeat: every
        player's table is a tournament, and staff may reuse a name): its id and the day it was
        created, in the admin, the pages, the API and the commands."""
        if self.pk is None or self.created_at is None:
            return self.name
        return f"{self.name} (#{self.pk}, {self.created_at:%Y-%m-%d})"

    def clean(self) -> None:
        check_tournament(self)

    @property
    def time_control(self) -> TimeControl | None:
        """The bots' time control (a bank per game plus an increment per decision, as chess
        engines play), None without a bank: workers' matches and tables play under it."""
        if not self.bank_seconds:
            return None
        return TimeControl(float(self.bank_seconds), float(self.increment_seconds or 0))

    @property
    def is_active(self) -> bool:
        return self.status in (self.Status.RUNNING, self.Status.PAUSED)

    @property
    def is_competition(self) -> bool:
        return self.kind == self.Kind.COMPETITION


class Entrant(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    name = models.CharField(max_length=200)
    bot = models.ForeignKey(
        Bot, null=True, blank=True, on_delete=models.PROTECT, related_name="entries"
    )
    members = models.ManyToManyField(
        Player, blank=True, related_name="entries", help_text="the human players of a team"
    )
    seed = models.PositiveIntegerField(
        null=True, blank=True, help_text="1 is the top seed; fixed when the tournament starts"
    )
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="entries_made",
        help_text="the user who entered it through registration (who may withdraw it)",
    )
    registered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "seed", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="entrant_name_unique"),
            models.UniqueConstraint(
                fields=["tournament", "seed"],
                condition=Q(seed__isnull=False),
                name="entrant_seed_unique",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_bot(self) -> bool:
        return self.bot_id is not None

    def check_members(self) -> None:
        """A bot, or a team of 1 player per seat of its side at most (1 in 1v1, 2 in 2v2).
        Called once the members are saved (a many-to-many relation has none before)."""
        count = self.members.count()
        if self.bot_id is not None:
            if count:
                raise ValidationError("an entrant is a bot or a team of players, not both")
            return
        per_side = self.tournament.players // 2
        if not 1 <= count <= per_side:
            raise ValidationError(
                f"a team in a {self.tournament.players}-player game has 1 to {per_side} "
                f"player(s), not {count}"
            )


class Round(models.Model):
    class Status(models.TextChoices):
        RUNNING = "running", "running"
        DONE = "done", "done"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RUNNING)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique")
        ]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"


class Match(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "pending"  # created, not handed to a worker yet
        QUEUED = "queued", "queued"  # a task message is on its way
        RUNNING = "running", "running"  # claimed by a worker (see worker, lease_until)
        RETRYING = "retrying", "retrying"  # an attempt failed; another one is scheduled
        DONE = "done", "done"
        FAILED = "failed", "failed"  # gave up after TRUCO_MATCH_MAX_ATTEMPTS attempts
        CANCELLED = "cancelled", "cancelled"

    FINISHED = (Status.DONE, Status.FAILED, Status.CANCELLED)
    UNFINISHED = (Status.PENDING, Status.QUEUED, Status.RUNNING, Status.RETRYING)

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="matches")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    key = models.CharField(max_length=20, help_text="the format's key, e.g. W1-3, L2-1, R4-7")
    entrant_a = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="+")
    entrant_b = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )  # None: a bye for entrant_a
    seed = models.BigIntegerField(help_text="derived from the tournament seed and the key")

    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.PENDING, db_index=True
    )
    attempts = models.PositiveIntegerField(default=0)
    worker = models.CharField(max_length=200, blank=True, default="", help_text="host:pid")
    claim_token = models.UUIDField(null=True, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True, default="")
    queued_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    winner = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )  # None once done: a draw
    wins_a = models.PositiveIntegerField(default=0)
    wins_b = models.PositiveIntegerField(default=0)
    points_a = models.PositiveIntegerField(default=0)
    points_b = models.PositiveIntegerField(default=0)
    games_played = models.PositiveIntegerField(default=0)
    terminations = models.JSONField(default=dict, blank=True)
    summary = models.JSONField(
        default=dict, blank=True, help_text="pair scores, decider games, timings"
    )
    rated = models.BooleanField(default=False)

    class Meta:
        ordering = ["tournament", "round__number", "id"]
        verbose_name_plural = "matches"
        constraints = [
            models.UniqueConstraint(fields=["tournament", "key"], name="match_key_unique")
        ]
        indexes = [models.Index(fields=["tournament", "status"], name="match_tournament_status")]

    def __str__(self) -> str:
        return f"{self.key}: {self.entrant_a} v {self.entrant_b or '(bye)'}"

    @property
    def is_bye(self) -> bool:
        return self.entrant_b_id is None

    @property
    def is_finished(self) -> bool:
        return self.status in self.FINISHED


class Game(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    index = models.PositiveIntegerField()
    pair = models.PositiveIntegerField(null=True, blank=True, help_text="its duplicate pair")
    a_team = models.PositiveSmallIntegerField(help_text="the team entrant A played")
    seed = models.BigIntegerField()
    record = models.JSONField(help_text="the game record, RECORDS.md format truco-record/1")
    score_a = models.PositiveIntegerField()
    score_b = models.PositiveIntegerField()
    winner_side = models.CharField(max_length=1, blank=True, default="", help_text="a, b or ''")
    termination = models.CharField(max_length=20, default="normal")
    fault_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    hands = models.PositiveIntegerField(default=0)
    actions = models.PositiveIntegerField(default=0)
    # The bot's own error message and the seats' logs: never serialized for the public, only
    # for the owner of the bot and staff (tournaments/game_privacy.py, GET /api/games/{id}/logs/).
    private = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["match", "index"]
        constraints = [models.UniqueConstraint(fields=["match", "index"], name="game_index_unique")]

    def __str__(self) -> str:
        return f"{self.match.key} game {self.index}"
