from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import serializers

from engine.plugins import registry
from submitted_bots.models import Bot
from submitted_bots.names import is_qualified, resolve_qualified
from tables.checks import check_table_settings
from tournaments.api.serializers import MAX_GAMES_PER_MATCH
from tournaments.builders import check_enterable


class ActSerializer(serializers.Serializer):
    """A decision for one of your seats: an action string from that seat's `legal` list."""

    action = serializers.CharField(max_length=100, help_text='e.g. "play 4c", "truco", "accept"')
    seat = serializers.IntegerField(
        required=False, min_value=0, max_value=11, help_text="needed only if you hold two seats"
    )
    turn = serializers.IntegerField(
        required=False,  # required, but said once the seat is checked (tables.services.act)
        min_value=0,
        max_value=10**9,
        help_text="required: the `turn` of the state you answer; an action for a decision "
        "already taken is refused with 409",
    )


class QuickMatchSerializer(serializers.Serializer):
    """Your own table: against a bot (a registered bot plugin name or a bot id), dealt at once,
    or, without `bot`, against people who take its free seats (you deal when ready). You are
    its table master. Practice unless `competitive`."""

    variant = serializers.CharField(max_length=50)
    bot = serializers.CharField(
        max_length=100,
        required=False,
        allow_blank=True,
        default="",
        help_text="a bot id, a built-in bot's name (random, heuristic...), or a user's bot as "
        "owner/name or owner/name vN; empty: free seats for people",
    )
    players = serializers.IntegerField(default=2, min_value=1, max_value=12)
    preset = serializers.CharField(default="", allow_blank=True, max_length=50)
    options = serializers.JSONField(default=dict)
    games = serializers.IntegerField(default=1, min_value=1, max_value=MAX_GAMES_PER_MATCH)
    turn_seconds = serializers.IntegerField(default=60, min_value=0, max_value=3600)
    competitive = serializers.BooleanField(
        default=False, help_text="counts for ranking points, ratings and chips; off: practice"
    )
    stake = serializers.IntegerField(
        default=0, min_value=0, max_value=10**9, help_text="chips per player per game"
    )
    private = serializers.BooleanField(default=False, help_text="only invited players may sit")
    spectators = serializers.BooleanField(default=True, help_text="others may watch and chat")
    daily = serializers.BooleanField(
        default=False, help_text="today's deals, the same for everyone (practice only)"
    )
    invite = serializers.ListField(
        child=serializers.CharField(max_length=120),
        default=list,
        max_length=20,
        help_text="names of the players who may sit at a private table",
    )

    def validate_options(self, value):
        if not isinstance(value, dict):
            raise serializers.ValidationError("options must be an object of name: value")
        return value

    def validate(self, attrs):
        errors = check_table_settings(attrs["competitive"], attrs["stake"])
        if errors:
            raise serializers.ValidationError(errors)
        return attrs

    def validate_bot(self, value: str):
        if not value:
            return None
        if value.isdigit():
            bot = Bot.objects.enterable().filter(pk=int(value[:18])).first()
            if bot is None:
                raise serializers.ValidationError(f"no ready bot with id {value}")
            return bot
        if is_qualified(value):
            try:
                bot = resolve_qualified(value)
                check_enterable([bot])
            except DjangoValidationError as exc:
                raise serializers.ValidationError(exc.messages) from None
            return bot

        if value not in registry().bots:
            known = ", ".join(sorted(registry().bots))
            raise serializers.ValidationError(f"unknown bot {value!r}; registered bots: {known}")
        return value


class TableOptionsInputSerializer(serializers.Serializer):
    """The options a table master changes, before a game or between two games."""

    turn_seconds = serializers.IntegerField(required=False, min_value=0, max_value=3600)
    competitive = serializers.BooleanField(required=False)
    stake = serializers.IntegerField(required=False, min_value=0, max_value=10**9)
    private = serializers.BooleanField(required=False)
    spectators = serializers.BooleanField(required=False)


class TableOptionsSerializer(TableOptionsInputSerializer):
    daily = serializers.BooleanField(read_only=True)
    time_control = serializers.CharField(
        allow_null=True,
        read_only=True,
        help_text="the robots' time control, BANK+INCREMENT in seconds (a bank per game, an "
        "increment per decision; one that empties its bank loses by timeout); null: none",
    )
    master = serializers.DictField(allow_null=True, read_only=True, help_text="id and name")
    invited = serializers.ListField(child=serializers.CharField(), read_only=True)


class InviteSerializer(serializers.Serializer):
    players = serializers.ListField(
        child=serializers.CharField(max_length=120), min_length=1, max_length=20
    )


class SitSerializer(serializers.Serializer):
    side = serializers.ChoiceField(
        choices=["a", "b"], required=False, help_text="the side to sit on; any free seat if absent"
    )


class EndVoteInputSerializer(serializers.Serializer):
    agree = serializers.BooleanField(default=True, help_text="false withdraws your agreement")


class EndVoteSerializer(serializers.Serializer):
    """The humans present vote (robots do not): the game ends when all of them agree, and, for a
    competitive or staked game, every side has a person present who agrees (no voters: a game
    that counts against robots, which is played out)."""

    agreed = serializers.ListField(child=serializers.IntegerField())
    voters = serializers.ListField(child=serializers.IntegerField())
    ended = serializers.BooleanField()


class ChatPostSerializer(serializers.Serializer):
    text = serializers.CharField(max_length=1000, trim_whitespace=False)


class ChatMessageSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    author = serializers.CharField()
    player = serializers.BooleanField(help_text="true for a player of the match")
    text = serializers.CharField(help_text="plain text: show it escaped")
    posted_at = serializers.DateTimeField()


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
        help_text="`start` (not begun), `human` (a decision), `bots` (being advanced), "
        "`next` (a player's table between games: the master deals), `done`"
    )
    game = serializers.DictField()
    seats = SeatSerializer(many=True)
    you = serializers.ListField(child=serializers.IntegerField())
    to_act = serializers.IntegerField(allow_null=True)
    turn = serializers.IntegerField(
        allow_null=True,
        help_text="the number of the pending decision (actions so far in the match); send it "
        "with an action (`act`): one for a decision already taken is refused with 409",
    )
    your_turn = serializers.BooleanField()
    turn_deadline = serializers.DateTimeField(allow_null=True)
    seconds_left = serializers.FloatField(allow_null=True)
    observations = serializers.DictField(child=serializers.DictField())
    table = serializers.DictField(allow_null=True)
    games = serializers.ListField(child=serializers.DictField())
    result = serializers.DictField(allow_null=True)
    settings = TableOptionsSerializer(help_text="the table's options (RULES.md section 5)")
    free_seats = serializers.IntegerField(help_text="seats of a player's table one may take")
    workers = serializers.DictField(
        allow_null=True,
        help_text="whether a worker plays the bots' replies: `alive` (true, false, or null "
        "when not checked), `detail`, `workers`; null when none is needed",
    )
    end_vote = serializers.DictField(
        allow_null=True, help_text="the vote to end the game amicably: `agreed`, `voters`"
    )


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
    table = serializers.BooleanField(
        help_text="a player's own table (the play page lists those), not a tournament match"
    )
