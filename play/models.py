"""The state of matches that humans are playing: the game in progress (rebuilt from its actions;
a game is deterministic given its seed), the turn timer, and when each human was last seen.

The match itself and its finished result stay in `tournaments` (Match, Game): a live match is
recorded through the same code as a match of bots when its last game ends.
"""

from __future__ import annotations

from django.db import models

from tournaments.models import Match, Player


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
    started_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "live match"
        verbose_name_plural = "live matches"

    def __str__(self) -> str:
        return f"live {self.match}"

    @property
    def ply(self) -> int:
        return len(self.actions)


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
