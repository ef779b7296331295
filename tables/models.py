"""What tables where people sit keep: their settings (stakes, privacy, spectators), the matches
in play (the game in progress, rebuilt from its actions: a game is deterministic given its
seed; the turn timer; who waits for whom), when each person was last seen, the chat, and the
human economy: each person's chips and ranking points (their Wallet) and the chips ledger.

The match itself and its finished result stay in `tournaments` (Match, Game): a live match is
recorded through the same code as a match of bots when its last game ends. This app's label is
`play`, the name under which its first tables were created; TableSettings and ChipTransfer keep
the names of their tables from when they lived in `tournaments` (`db_table`), so that databases
made before the move kept every row (tables/migrations/0004_from_tournaments.py).
"""

from __future__ import annotations

from typing import Any

import orjson
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone

from players.models import Player
from tables.checks import check_table_settings
from tournaments.models import Match, Tournament

# RULES.md section 5: every person starts with chips to stake at competitive tables (staff may
# change a balance in the admin; every change is a ChipTransfer row).
STARTING_CHIPS = 1000


HOST_FIELDS = ("host", "host_lease_until")


def fingerprint(value: Any) -> Any:
    """A value as a row holds it, to tell whether it changed: JSON as bytes, else itself."""
    if isinstance(value, (dict, list)):
        try:
            return orjson.dumps(value)
        except TypeError:  # not JSON: never equal to anything, so written
            return object()
    return value


class LiveMatch(models.Model):
    class Waiting(models.TextChoices):
        HUMAN = "human", "a human decision"
        BOTS = "bots", "the bots (being advanced)"
        NEXT = "next", "the table master to deal the next game"
        DONE = "done", "nothing: the match is over"

    match = models.OneToOneField(
        Match, primary_key=True, on_delete=models.CASCADE, related_name="live"
    )
    game_no = models.PositiveIntegerField(
        default=0, help_text="the game being played: its position in the match"
    )
    actions = models.JSONField(default=list, blank=True, help_text="[seat, action] of this game")
    auto_played = models.JSONField(
        default=list, blank=True, help_text="seats the turn timer played for in this game"
    )
    games = models.JSONField(
        default=list, blank=True, help_text="the match's finished games, recorded at its end"
    )
    waiting = models.CharField(max_length=5, choices=Waiting.choices, default=Waiting.BOTS)
    to_act = models.PositiveSmallIntegerField(null=True, blank=True)
    turn_deadline = models.DateTimeField(null=True, blank=True)
    end_votes = models.JSONField(
        default=list, blank=True, help_text="players agreeing to end this game amicably"
    )
    bot_logs = models.JSONField(
        default=dict,
        blank=True,
        help_text="what each robot seat wrote to its log in this game (its owner's and staff's)",
    )
    clocks = models.JSONField(
        null=True,
        blank=True,
        help_text="each seat's bank of time left in this game (a time control)",
    )
    # Every change writes the row with its version one up: a table host holding the table in
    # memory builds it again when the row's version is not the one it wrote (tables/live.py).
    version = models.PositiveIntegerField(default=0)
    # The table host that keeps this table in memory and runs its bots, until its lease ends:
    # one host per table, so never two processes for one seat (tables/host.py).
    host = models.CharField(max_length=200, blank=True, default="")
    host_lease_until = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "live match"
        verbose_name_plural = "live matches"

    def __str__(self) -> str:
        return f"live {self.match}"

    @classmethod
    def from_db(cls, db, field_names, values):
        row = super().from_db(db, field_names, values)
        row._written = row._fingerprints()
        return row

    def _fingerprints(self) -> dict[str, Any]:
        """What each loaded field holds as the row has it: JSON fields as their bytes (a list
        changed in place differs from its fingerprint), the others as they are."""
        prints = {}
        for field in self._meta.concrete_fields:
            if field.attname in self.__dict__:  # deferred fields stay unread
                prints[field.attname] = fingerprint(self.__dict__[field.attname])
        return prints

    def save(self, *args, **kwargs):
        """Every write moves the version on (the caller holds the row's lock, so the version
        it read is the row's): a table host holding the table in memory sees that it changed.
        A row read from the database writes only the fields that changed since: a table's
        finished games and its bots' logs are not written again at every decision."""
        self.version = (self.version or 0) + 1
        fields = kwargs.get("update_fields")
        if fields is None and not self._state.adding:
            # The host's lease is written only by its own updates (tables/host.py): a table
            # saved from a copy read before a renewal would put the old lease back, and another
            # host would take the table from its living host.
            written = getattr(self, "_written", {})
            fields = [
                f.name
                for f in self._meta.concrete_fields
                if not f.primary_key
                and f.name not in HOST_FIELDS
                and (
                    f.attname not in written
                    or written[f.attname] != fingerprint(getattr(self, f.attname))
                )
            ]
            fields.append("updated_at")
        if fields is not None:
            kwargs["update_fields"] = {*fields, "version"}
        super().save(*args, **kwargs)
        if fields is None:
            self._written = self._fingerprints()
        else:  # only what was written is as the row has it now
            written = getattr(self, "_written", None)
            if written is not None:
                for name in kwargs["update_fields"]:
                    attname = self._meta.get_field(name).attname
                    written[attname] = fingerprint(getattr(self, attname))

    @property
    def ply(self) -> int:
        return len(self.actions)

    @property
    def host_holds_it(self) -> bool:
        """Whether a table host holds this table's lease now (a living host renews it)."""
        return (
            bool(self.host)
            and self.host_lease_until is not None
            and self.host_lease_until > timezone.now()
        )


class Presence(models.Model):
    """A human's last request about a live match: past the table's disconnection grace, a robot
    plays for them until they come back (RULES.md section 5)."""

    live = models.ForeignKey(LiveMatch, on_delete=models.CASCADE, related_name="presences")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    last_seen = models.DateTimeField()
    ips = models.JSONField(
        default=list, blank=True, help_text="addresses they played from (the shared-IP rule)"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["live", "player"], name="presence_live_player")
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.live}"


class SettledGame(models.Model):
    """A finished game of a competitive table whose chips and ranking points were paid, once:
    a match played again (re-run) does not pay its games twice."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="settled_games")
    index = models.PositiveIntegerField(help_text="the game's position in the match")
    stake = models.PositiveIntegerField()
    pot = models.PositiveBigIntegerField(default=0)
    bank_share = models.PositiveBigIntegerField(default=0)
    ranked = models.BooleanField(help_text="ranking points were given")
    not_ranked_because = models.CharField(max_length=100, blank=True, default="")
    settled_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "index"], name="settled_game_once")]

    def __str__(self) -> str:
        return f"{self.match} game {self.index}: pot {self.pot}"


class ChatMessage(models.Model):
    """A line of a table's chat: plain text, shown escaped."""

    MAX_LENGTH = 300

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="chat")
    author = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    text = models.CharField(max_length=MAX_LENGTH)
    posted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "id"]

    def __str__(self) -> str:
        return f"{self.author}: {self.text[:40]}"


class TableSettings(models.Model):
    """RULES.md section 5: what only tables where people sit have (stakes, privacy, spectators,
    invitations, the disconnection grace, a player's own table's master and daily deals). The
    time control and whether a table is competitive are the tournament's (Tournament.turn_seconds,
    .competitive): bots play by them too."""

    class Meta:
        db_table = "tournaments_tablesettings"  # its name when it lived in tournaments
        verbose_name = "table settings"
        verbose_name_plural = "table settings"  # not "table settingss"

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, primary_key=True, related_name="table_settings"
    )
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

    # The time per decision and whether it counts are the tournament's (bots play by them too).
    @property
    def turn_seconds(self) -> int:
        return self.tournament.turn_seconds

    @property
    def competitive(self) -> bool:
        return self.tournament.competitive

    def clean(self) -> None:
        if self.tournament_id is None and not hasattr(self, "_tournament_cache"):
            return  # its tournament is being made: the inline's formset checks (tables/admin.py)
        errors = check_table_settings(self.tournament.competitive, self.stake)
        if errors:
            raise ValidationError(errors)

    @property
    def is_players_table(self) -> bool:
        return self.master_id is not None

    @property
    def moves_chips(self) -> bool:
        return self.tournament.competitive and self.stake > 0


def settings_of(tournament: Tournament) -> TableSettings:
    """The settings of a tournament's tables, with the defaults of RULES.md section 5 when none
    were saved (a tournament of bots has none)."""
    try:
        return tournament.table_settings
    except TableSettings.DoesNotExist:
        return TableSettings(tournament=tournament)


class Wallet(models.Model):
    """A person's chips and ranking points (RULES.md section 5). Made on first need (a new
    person starts with STARTING_CHIPS); bots have none: the bank backs their stakes."""

    player = models.OneToOneField(
        Player, primary_key=True, on_delete=models.CASCADE, related_name="wallet"
    )
    chips = models.PositiveBigIntegerField(
        default=STARTING_CHIPS, help_text="chips to stake at competitive tables"
    )
    ranking_points = models.PositiveIntegerField(
        default=0, help_text="+20 per competitive game won, +5 per game lost"
    )

    def __str__(self) -> str:
        return f"{self.player}: {self.chips} chips, {self.ranking_points} ranking points"


class ChipTransfer(models.Model):
    """One movement of chips, for the audit: a player's balance (their Wallet) is STARTING_CHIPS
    plus the sum of their rows. `player` None is the bank, which backs the robots' stakes and keeps a quarter of
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
        db_table = "tournaments_chiptransfer"  # its name when it lived in tournaments
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["match", "game_index"], name="chips_match_game")]

    def __str__(self) -> str:
        who = self.player.name if self.player_id else "bank"
        return f"{who} {self.amount:+d} ({self.kind})"


class TableHostBeat(models.Model):
    """A table host's heartbeat (tables/host.py): which hosts run, when each was last seen,
    how many tables it holds; the pages say when none runs."""

    name = models.CharField(max_length=200, primary_key=True)
    seen_at = models.DateTimeField()
    tables = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.name}: {self.tables} tables, seen {self.seen_at:%H:%M:%S}"
