"""What the API shows of players and their ratings."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from players.models import Player, Rating, RatingPoint
from restapi.extensions import Extensible, ExtensionPoint


class RatingBriefSerializer(serializers.ModelSerializer):
    interval = serializers.FloatField(read_only=True)
    ordinal = serializers.FloatField(read_only=True)
    display = serializers.CharField(read_only=True)

    class Meta:
        model = Rating
        fields = ["variant", "mu", "sigma", "interval", "ordinal", "display", "matches"]


class PlayerBriefSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name", "kind"]


# Where other apps add to a player's API view (the tables app: a person's chips and ranking
# points, RULES.md section 5).
PLAYER_FIELDS = ExtensionPoint("player")


class PlayerSerializer(Extensible, serializers.ModelSerializer):
    """A player with their ratings (and what other apps add: a person's chips and ranking
    points)."""

    extension_point = PLAYER_FIELDS
    bot = serializers.SerializerMethodField()
    ratings = RatingBriefSerializer(many=True, read_only=True)

    class Meta:
        model = Player
        fields = ["id", "name", "kind", "bot", "ratings", "created_at"]

    @extend_schema_field(OpenApiTypes.INT)
    def get_bot(self, player: Player) -> int | None:
        bot = getattr(player, "bot", None)  # reverse one-to-one: absent for humans
        return bot.id if bot is not None else None


class RatingSerializer(serializers.ModelSerializer):
    """A leaderboard line: skill mu with uncertainty sigma; `display` is mu ± the 95% interval,
    and the board is ordered by the conservative `ordinal` (mu - 3 sigma)."""

    player = PlayerBriefSerializer(read_only=True)
    interval = serializers.FloatField(read_only=True)
    ordinal = serializers.FloatField(read_only=True)
    display = serializers.CharField(read_only=True)

    class Meta:
        model = Rating
        fields = [
            "id",
            "player",
            "variant",
            "mu",
            "sigma",
            "interval",
            "ordinal",
            "display",
            "matches",
            "updated_at",
        ]


class RatingPointSerializer(serializers.ModelSerializer):
    """A rating after one rated match, with its 95% band (low..high): a chart's point."""

    low = serializers.SerializerMethodField()
    high = serializers.SerializerMethodField()

    class Meta:
        model = RatingPoint
        fields = ["at", "mu", "sigma", "low", "high", "matches"]
        read_only_fields = fields

    def get_low(self, point: RatingPoint) -> float:
        return point.mu - 2 * point.sigma

    def get_high(self, point: RatingPoint) -> float:
        return point.mu + 2 * point.sigma
