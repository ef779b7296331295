from __future__ import annotations

from rest_framework import serializers

from tournaments.api.serializers import MAX_GAMES_PER_MATCH
from tournaments.models import Bot


class ActSerializer(serializers.Serializer):
    """A decision for one of your seats: an action string from that seat's `legal` list."""

    action = serializers.CharField(max_length=100, help_text='e.g. "play 4c", "truco", "accept"')
    seat = serializers.IntegerField(
        required=False, min_value=0, max_value=11, help_text="needed only if you hold two seats"
    )


class QuickMatchSerializer(serializers.Serializer):
    """A practice game against a bot: a registered bot plugin name or a bot id."""

    variant = serializers.CharField(max_length=50)
    bot = serializers.CharField(max_length=100, help_text="a bot id, or a bot plugin name")
    players = serializers.IntegerField(default=2, min_value=1, max_value=12)
    preset = serializers.CharField(default="", allow_blank=True, max_length=50)
    options = serializers.JSONField(default=dict)
    games = serializers.IntegerField(default=1, min_value=1, max_value=MAX_GAMES_PER_MATCH)
    turn_seconds = serializers.IntegerField(default=60, min_value=0, max_value=3600)

    def validate_bot(self, value: str):
        if value.isdigit():
            bot = Bot.objects.filter(pk=int(value[:18]), is_active=True).first()
            if bot is None:
                raise serializers.ValidationError(f"no active bot with id {value}")
            return bot
        from engine.plugins import registry

        if value not in registry().bots:
            known = ", ".join(sorted(registry().bots))
            raise serializers.ValidationError(f"unknown bot {value!r}; registered bots: {known}")
        return value


class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    team = serializers.IntegerField()
    side = serializers.CharField()
    entrant = serializers.IntegerField()
    player = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()
    kind = serializers.CharField(help_text="`human` or `bot`")
    you = serializers.BooleanField()
    to_act = serializers.BooleanField()


class TableStateSerializer(serializers.Serializer):
    """A live match as one person sees it: `observations` holds only the seats that are yours
    (each exactly that seat's observation); `table` is what a spectator sees."""

    match = serializers.IntegerField()
    key = serializers.CharField()
    status = serializers.CharField()
    tournament = serializers.DictField()
    waiting = serializers.CharField(
        help_text="`start` (not begun), `human` (a decision), `bots` (being advanced), `done`"
    )
    game = serializers.DictField()
    seats = SeatSerializer(many=True)
    you = serializers.ListField(child=serializers.IntegerField())
    to_act = serializers.IntegerField(allow_null=True)
    your_turn = serializers.BooleanField()
    turn_deadline = serializers.DateTimeField(allow_null=True)
    seconds_left = serializers.FloatField(allow_null=True)
    observations = serializers.DictField(child=serializers.DictField())
    table = serializers.DictField(allow_null=True)
    games = serializers.ListField(child=serializers.DictField())
    result = serializers.DictField(allow_null=True)


class MyMatchSerializer(serializers.Serializer):
    match = serializers.IntegerField()
    key = serializers.CharField()
    status = serializers.CharField()
    tournament = serializers.IntegerField()
    tournament_name = serializers.CharField()
    variant = serializers.CharField()
    opponent = serializers.CharField()
    waiting = serializers.CharField()
    your_turn = serializers.BooleanField()
