"""Players and their ratings.

A Player is whoever gets a rating: a user account (a person) or a bot version (every
submitted_bots.Bot has its Player). A Rating is a player's skill in one variant, across
tournaments and the ladder (openskill: mu with uncertainty sigma); every change of it is kept
as a RatingPoint, so that a version's rating over time can be drawn.

The tables keep the names they had when these models lived in `tournaments` (`db_table`), so
that databases made before the move kept their rows without copying them
(players/migrations/0001_initial.py).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


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
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "tournaments_player"
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind="bot", user__isnull=True) | Q(kind="human"),
                name="player_bot_has_no_user",
            )
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_human(self) -> bool:
        return self.kind == self.Kind.HUMAN


class Rating(models.Model):
    """A player's skill in one variant across tournaments (openskill): mu with uncertainty sigma."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    variant = models.CharField(max_length=50)
    mu = models.FloatField()
    sigma = models.FloatField()
    matches = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "tournaments_rating"
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


class RatingPoint(models.Model):
    """A rating as it was after one rated match: the history a chart draws (mu with its band)."""

    rating = models.ForeignKey(Rating, on_delete=models.CASCADE, related_name="history")
    mu = models.FloatField()
    sigma = models.FloatField()
    matches = models.PositiveIntegerField(help_text="rated matches so far")
    at = models.DateTimeField()

    class Meta:
        ordering = ["rating", "at", "id"]
        indexes = [models.Index(fields=["rating", "at"], name="rating_point_at")]

    def __str__(self) -> str:
        return f"{self.rating.player} {self.mu:.1f} ± {2 * self.sigma:.1f} at {self.at:%Y-%m-%d}"
