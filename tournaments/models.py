"""Players, bots, tournaments and everything a tournament is made of.

A Player is whoever gets a rating: a user account or a bot (every Bot has its Player). An Entrant
is a tournament's participant: one bot (which plays every seat of its team), or a team of one or
two human players. Matches are created by the format bridge (`tournaments.scheduling`) and played
by workers (`tournaments.execution`); a Game row holds one game record (RECORDS.md).
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Count, IntegerField, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce

from tournaments.seeds import new_tournament_seed

# RULES.md section 5: every player starts with chips to stake at competitive tables (staff may
# change a balance in the admin; every change is a ChipTransfer row).
STARTING_CHIPS = 1000


class Player(models.Model):
    class Kind(models.TextChoices):
        HUMAN = "human", "human"
        BOT = "bot", "bot"

    name = models.CharField(max_length=200, unique=True)
    kind = models.CharField(max_length=5, choices=Kind.choices, default=Kind.HUMAN)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="player",
    )
    chips = models.PositiveBigIntegerField(
        default=STARTING_CHIPS, help_text="chips to stake at competitive tables (humans)"
    )
    ranking_points = models.PositiveIntegerField(
        default=0, help_text="+20 per competitive game won, +5 per game lost (humans)"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind="bot", user__isnull=True) | Q(kind="human"),
                name="player_bot_has_no_user",
            )
        ]

    def __str__(self) -> str:
        return self.name


def bundle_storage():
    """Where uploaded bundles are kept: the `bundles` entry of settings.STORAGES (a folder under
    var/ by default; any Django storage, e.g. S3-compatible, by setting)."""
    from tournaments.bundles.storage import BundleStorage

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
    (tournaments/bot_names.py)."""

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
        from tournaments.validation import check_bot, check_remote_bot

        if self.is_bundle:
            return  # checked when uploaded (tournaments/bundles), validated by a smoke match
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
        from tournaments.validation import check_tournament

        check_tournament(self)

    @property
    def is_active(self) -> bool:
        return self.status in (self.Status.RUNNING, self.Status.PAUSED)

    @property
    def table(self) -> TableSettings:
        """The table settings, with the defaults of RULES.md section 5 when none were saved."""
        try:
            return self.table_settings
        except TableSettings.DoesNotExist:
            return TableSettings(tournament=self)


class TableSettings(models.Model):
    """RULES.md section 5: the settings of the tables the tournament's games are played at."""

    class Meta:
        verbose_name = "table settings"
        verbose_name_plural = "table settings"  # not "table settingss"

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, primary_key=True, related_name="table_settings"
    )
    turn_seconds = models.PositiveIntegerField(
        default=30,
        help_text="thinking time per decision; past it the game plays for the seat (auto-play)",
    )
    competitive = models.BooleanField(default=True, help_text="counts for ratings; off is practice")
    stake = models.PositiveIntegerField(default=0, help_text="chips per player per game")
    private = models.BooleanField(default=False, help_text="only invited players may sit")
    spectators = models.BooleanField(default=True, help_text="others may watch")
    invited = models.ManyToManyField(Player, blank=True, related_name="invitations")
    disconnect_grace_seconds = models.PositiveIntegerField(
        default=180, help_text="a disconnected human is replaced by a robot after this long"
    )
    # A player's own table (opened from the play page) has a master: the first human seated,
    # who changes its options between games. Staff set the tables of their tournaments.
    master = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tables_mastered",
        help_text="the table master (first seated) of a player's table; none for tournaments",
    )
    daily = models.BooleanField(
        default=False, help_text="today's deals: the same for every daily table of these rules"
    )

    def __str__(self) -> str:
        return f"table of {self.tournament}"

    def clean(self) -> None:
        from tournaments.validation import check_table_settings

        errors = check_table_settings(self.competitive, self.stake)
        if errors:
            raise ValidationError(errors)

    @property
    def is_players_table(self) -> bool:
        return self.master_id is not None

    @property
    def moves_chips(self) -> bool:
        return self.competitive and self.stake > 0


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

    # For the human-play flow: a match advanced up to a human decision keeps its game here.
    live_record = models.JSONField(null=True, blank=True)
    to_act = models.PositiveSmallIntegerField(null=True, blank=True)
    turn_deadline = models.DateTimeField(null=True, blank=True)

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


class Rating(models.Model):
    """A player's skill in one variant across tournaments (openskill): mu with uncertainty sigma."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    variant = models.CharField(max_length=50)
    mu = models.FloatField()
    sigma = models.FloatField()
    matches = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["variant", "-mu"]
        constraints = [
            models.UniqueConstraint(fields=["player", "variant"], name="rating_player_variant")
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.variant}): {self.display}"

    @property
    def interval(self) -> float:
        """Half-width of the ~95% interval."""
        return 2 * self.sigma

    @property
    def ordinal(self) -> float:
        """A conservative estimate (mu - 3 sigma) for ranking players with few matches fairly."""
        return self.mu - 3 * self.sigma

    @property
    def display(self) -> str:
        return f"{self.mu:.1f} ± {self.interval:.1f}"


class ChipTransfer(models.Model):
    """One movement of chips, for the audit: a player's balance is STARTING_CHIPS plus the sum of
    their rows. `player` None is the bank, which backs the robots' stakes and keeps a quarter of
    each pot; the rows of one settled game sum to zero."""

    class Kind(models.TextChoices):
        STAKE = "stake", "stake put in the pot"
        WIN = "win", "share of the pot won"
        CUT = "cut", "the bank's quarter of the pot"
        FORFEIT = "forfeit", "stake lost by abandoning a game ended amicably"
        ADJUST = "adjust", "set by staff"

    player = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="chip_transfers",
        help_text="empty: the bank",
    )
    amount = models.BigIntegerField(help_text="chips in (positive) or out (negative)")
    balance_after = models.PositiveBigIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=8, choices=Kind.choices)
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="chip_transfers"
    )
    game_index = models.PositiveIntegerField(null=True, blank=True)
    note = models.CharField(max_length=200, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["match", "game_index"], name="chips_match_game")]

    def __str__(self) -> str:
        who = self.player.name if self.player_id else "bank"
        return f"{who} {self.amount:+d} ({self.kind})"
