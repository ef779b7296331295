"""What the API shows of tournaments, entrants, rounds, matches, games and variants, and the checks
on what it accepts. Every check answers with a message per field that says what would be
valid."""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import transaction
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from players.api.serializers import PlayerBriefSerializer
from players.models import Player
from restapi.errors import BadRequest, django_errors
from restapi.extensions import Extensible, ExtensionPoint
from submitted_bots.budgets import entry_errors
from submitted_bots.models import Bot
from tournaments.api.standings import progress, total_matches
from tournaments.builders import check_enterable
from tournaments.checks import check_entrant_count, check_tournament
from tournaments.game_privacy import public_record
from tournaments.models import Entrant, Game, Match, Round, Tournament
from tournaments.registration import registration_summary
from tournaments.seed_disclosure import match_seed_revealed, seed_fields, tournament_seed_revealed

# Seeds and ids stay exact in JavaScript (2**53) and in a signed 64-bit column.
MAX_SEED = 2**53 - 1
MAX_GAMES_PER_MATCH = 1000


# --- the plugin registry ------------------------------------------------------------------


class OptionSerializer(serializers.Serializer):
    name = serializers.CharField()
    type = serializers.ChoiceField(choices=["choice", "bool", "int", "ladder"])
    default = serializers.JSONField()
    help = serializers.CharField()
    choices = serializers.ListField(child=serializers.JSONField(), required=False)
    minimum = serializers.IntegerField(required=False)
    maximum = serializers.IntegerField(required=False)


class VariantSerializer(serializers.Serializer):
    """A registered variant: its rules summary, option schema and presets."""

    name = serializers.CharField()
    title = serializers.CharField()
    players = serializers.ListField(child=serializers.IntegerField())
    summary = serializers.CharField()
    options = OptionSerializer(many=True)
    presets = serializers.DictField(child=serializers.DictField())


# --- players, bots, ratings ---------------------------------------------------------------


# --- tournaments and entrants -------------------------------------------------------------


# `master` and `daily` belong to a player's own table (the play app), not a tournament.


class EntrantBotSerializer(serializers.ModelSerializer):
    owner = serializers.CharField(source="owner.username", read_only=True, default=None)

    class Meta:
        model = Bot
        fields = ["id", "name", "version", "label", "kind", "plugin", "owner"]


class EntrantSerializer(serializers.ModelSerializer):
    """An entrant: one bot (playing every seat of its side), or a team of 1-2 human players.
    `entered_by` is the user who entered it through registration (empty: the organiser)."""

    bot = EntrantBotSerializer(read_only=True)
    members = PlayerBriefSerializer(many=True, read_only=True)
    entered_by = serializers.CharField(source="entered_by.username", read_only=True, default=None)

    class Meta:
        model = Entrant
        fields = [
            "id",
            "tournament",
            "name",
            "seed",
            "bot",
            "members",
            "entered_by",
            "registered_at",
        ]


class EntrantInputSerializer(serializers.Serializer):
    """One entrant to enter: `bot` (a bot id) or `members` (human player ids), not both."""

    name = serializers.CharField(max_length=120, required=False, allow_blank=True)
    bot = serializers.PrimaryKeyRelatedField(
        queryset=Bot.objects.select_related("player", "owner"),
        required=False,
        allow_null=True,
    )
    members = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.filter(kind=Player.Kind.HUMAN), many=True, required=False
    )
    seed = serializers.IntegerField(min_value=1, max_value=100_000, required=False, allow_null=True)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        bot, members = attrs.get("bot"), attrs.get("members") or []
        if bool(bot) == bool(members):
            raise serializers.ValidationError(
                "an entrant is either a bot (`bot`) or a team of human players (`members`)"
            )
        if len(set(m.pk for m in members)) != len(members):
            raise serializers.ValidationError({"members": ["a player is listed twice"]})
        if bot is not None and not bot.is_enterable:
            try:
                check_enterable([bot])
            except DjangoValidationError as exc:
                raise serializers.ValidationError({"bot": exc.messages}) from None
        if not attrs.get("name"):
            attrs["name"] = bot.label if bot else " & ".join(m.name for m in members)
        return attrs


class AddEntrantSerializer(EntrantInputSerializer):
    """Enter one more entrant in a draft tournament."""

    tournament = serializers.PrimaryKeyRelatedField(queryset=Tournament.objects.all())

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs = super().validate(attrs)
        tournament: Tournament = attrs["tournament"]
        if tournament.status != Tournament.Status.DRAFT:
            raise serializers.ValidationError(
                {
                    "tournament": [
                        f"entrants can only be added to a draft, this one is {tournament.status}"
                    ]
                }
            )
        existing = list(tournament.entrants.select_related("bot").prefetch_related("members"))
        check_entrant_list(tournament, [*existing_as_input(existing), attrs], minimum=False)
        check_budgets([attrs], tournament.turn_seconds)
        return attrs

    def create(self, validated_data: dict[str, Any]) -> Entrant:
        return create_entrants(validated_data["tournament"], [validated_data])[0]


def existing_as_input(entrants: list[Entrant]) -> list[dict[str, Any]]:
    return [
        {"name": e.name, "bot": e.bot, "members": list(e.members.all()), "seed": e.seed}
        for e in entrants
    ]


def check_budgets(entrants: list[dict[str, Any]], turn_seconds: int | None) -> None:
    """No bot entered asks more time per decision than the table gives (tournaments/budgets)."""
    errors = entry_errors([item["bot"] for item in entrants if item.get("bot")], turn_seconds)
    if errors:
        raise serializers.ValidationError({"entrants": errors})


def check_entrant_list(
    tournament: Tournament, entrants: list[dict[str, Any]], *, minimum: bool = True
) -> None:
    """Names, bots and players appear once; team sizes fit the game; enough entrants."""
    errors: list[str] = []
    per_side = tournament.players // 2
    for item in entrants:
        members = item.get("members") or []
        if members and len(members) > per_side:
            errors.append(
                f"{item['name']!r}: a team in a {tournament.players}-player game has 1 to "
                f"{per_side} player(s), not {len(members)}"
            )
    for label, counts in (
        ("entrant name", Counter(item["name"] for item in entrants)),
        ("bot", Counter(item["bot"].label for item in entrants if item.get("bot"))),
        ("player", Counter(m.name for item in entrants for m in item.get("members") or [])),
    ):
        errors += [f"{label} {name!r} is entered twice" for name, n in counts.items() if n > 1]
    seeds = Counter(item.get("seed") for item in entrants if item.get("seed"))
    errors += [f"seed {seed} is given twice" for seed, n in seeds.items() if n > 1]
    if minimum and not errors:
        try:
            check_entrant_count(tournament, len(entrants))
        except DjangoValidationError as exc:
            errors += exc.messages
    if errors:
        raise serializers.ValidationError({"entrants": errors})


def create_entrants(tournament: Tournament, entrants: list[dict[str, Any]]) -> list[Entrant]:
    created = Entrant.objects.bulk_create(
        [
            Entrant(
                tournament=tournament, name=item["name"], bot=item.get("bot"), seed=item.get("seed")
            )
            for item in entrants
        ]
    )
    links = [
        Entrant.members.through(entrant_id=entrant.pk, player_id=member.pk)
        for entrant, item in zip(created, entrants, strict=True)
        for member in item.get("members") or []
    ]
    Entrant.members.through.objects.bulk_create(links)
    return created


class ProgressSerializer(serializers.Serializer):
    done = serializers.IntegerField(help_text="matches finished (byes excluded)")
    total = serializers.IntegerField(allow_null=True, help_text="matches the format will play")
    percent = serializers.FloatField(allow_null=True)


REGISTRATION_FIELDS = ["registration_open", "registration_deadline", "max_entrants"]

TOURNAMENT_FIELDS = [
    "id",
    "name",
    "kind",
    *Tournament.PLAY_SETTINGS,
    *REGISTRATION_FIELDS,
    "status",
    "created_at",
    "started_at",
    "finished_at",
]


class RegistrationSerializer(serializers.Serializer):
    open = serializers.BooleanField(help_text="signed-in users may enter now")
    reason = serializers.CharField(help_text="why not, when closed")
    deadline = serializers.DateTimeField(allow_null=True)
    max_entrants = serializers.IntegerField(allow_null=True)
    places_left = serializers.IntegerField(allow_null=True)


class SeedShownMixin:
    """`seed` is null until it may be revealed (tournaments/seed_disclosure.py);
    `seed_commitment`, sha256 of "truco-seed:<seed>" in hex, is shown from the start."""

    def seed_revealed(self, instance) -> bool:
        raise NotImplementedError

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_seed(self, instance) -> int | None:
        return seed_fields(instance.seed, self.seed_revealed(instance))["seed"]

    @extend_schema_field(OpenApiTypes.STR)
    def get_seed_commitment(self, instance) -> str:
        return seed_fields(instance.seed, False)["seed_commitment"]


# Where other apps add to a tournament's API view (the tables app: its `table` section, the
# settings of the tables where people sit).
TOURNAMENT_SECTIONS = ExtensionPoint("tournament")


class TournamentSerializer(Extensible, SeedShownMixin, serializers.ModelSerializer):
    """A tournament as listed: its settings, time control, entrant count and progress (and what
    other apps add: its table settings). Its seed is shown once it is done or cancelled; until
    then, its commitment."""

    extension_point = TOURNAMENT_SECTIONS
    label = serializers.CharField(
        read_only=True, help_text="the name with the id and creation day (names may repeat)"
    )
    entrant_count = serializers.SerializerMethodField()
    progress = serializers.SerializerMethodField()
    seed = serializers.SerializerMethodField()
    seed_commitment = serializers.SerializerMethodField()
    registration = serializers.SerializerMethodField()
    created_by = serializers.CharField(source="created_by.username", read_only=True, default=None)
    time_control = serializers.SerializerMethodField(
        help_text="the bots' time control, BANK+INCREMENT in seconds (a bank per game, an "
        "increment per decision; a bot that empties its bank loses by timeout); null: no bank"
    )

    class Meta:
        model = Tournament
        fields = [
            *TOURNAMENT_FIELDS,
            "time_control",
            "seed_commitment",
            "label",
            "created_by",
            "entrant_count",
            "progress",
            "registration",
        ]

    def seed_revealed(self, tournament: Tournament) -> bool:
        return tournament_seed_revealed(tournament)

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_time_control(self, tournament: Tournament) -> str | None:
        control = tournament.time_control
        return None if control is None else str(control)

    @extend_schema_field(RegistrationSerializer)
    def get_registration(self, tournament: Tournament) -> dict[str, Any]:
        return RegistrationSerializer(
            registration_summary(tournament, self.get_entrant_count(tournament))
        ).data

    @extend_schema_field(OpenApiTypes.INT)
    def get_entrant_count(self, tournament: Tournament) -> int:
        count = getattr(tournament, "entrant_count", None)
        return tournament.entrants.count() if count is None else count

    @extend_schema_field(ProgressSerializer)
    def get_progress(self, tournament: Tournament) -> dict[str, Any]:
        done = getattr(tournament, "matches_done", None)
        if done is None:
            done = tournament.matches.filter(
                status=Match.Status.DONE, entrant_b__isnull=False
            ).count()
        return progress(done or 0, total_matches(tournament, self.get_entrant_count(tournament)))


class TournamentDetailSerializer(TournamentSerializer):
    """A tournament with its entrants."""

    entrants = EntrantSerializer(many=True, read_only=True)

    class Meta(TournamentSerializer.Meta):
        fields = [*TournamentSerializer.Meta.fields, "entrants"]


class TournamentWriteSerializer(Extensible, serializers.ModelSerializer):
    """Create (or change, while a draft) a tournament with its entrants (and what other apps
    add: its table settings). Rule options are checked against the variant's own schema,
    format options and metrics against the format's."""

    extension_point = TOURNAMENT_SECTIONS
    entrants = EntrantInputSerializer(many=True, required=False)
    turn_seconds = serializers.IntegerField(min_value=0, max_value=3600, required=False)
    bank_seconds = serializers.IntegerField(
        min_value=1, max_value=86400, required=False, allow_null=True
    )
    increment_seconds = serializers.FloatField(min_value=0, max_value=600, required=False)
    seed = serializers.IntegerField(min_value=0, max_value=MAX_SEED, required=False)
    options = serializers.JSONField(required=False, help_text="rule options, name: value")
    format_options = serializers.JSONField(required=False)
    metrics = serializers.JSONField(required=False, help_text="standings tiebreaks in order")
    games_per_match = serializers.IntegerField(
        min_value=0, max_value=MAX_GAMES_PER_MATCH, required=False
    )
    pairs_per_match = serializers.IntegerField(
        min_value=0, max_value=MAX_GAMES_PER_MATCH, required=False
    )
    players = serializers.IntegerField(required=False, min_value=1, max_value=12)
    max_entrants = serializers.IntegerField(
        required=False, allow_null=True, min_value=2, max_value=100_000
    )

    class Meta:
        model = Tournament
        fields = [f for f in TOURNAMENT_FIELDS if f not in ("id", "status")] + [
            "id",
            "status",
            "entrants",
        ]
        read_only_fields = ["id", "status", "kind", "created_at", "started_at", "finished_at"]

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        instance: Tournament | None = self.instance
        if instance is not None and instance.status != Tournament.Status.DRAFT:
            raise BadRequest(f"only a draft can be changed; this tournament is {instance.status}")
        attrs = self.validate_extensions(attrs)
        if attrs.get("options") is None:
            attrs.pop("options", None)
        if attrs.get("format_options") is None:
            attrs.pop("format_options", None)
        if attrs.get("metrics") is None:
            attrs.pop("metrics", None)
        candidate = Tournament(
            **{
                field: attrs.get(field, getattr(instance, field) if instance else None)
                for field in ("name", *Tournament.PLAY_SETTINGS)
                if field != "seed" and (field in attrs or instance is not None)
            }
        )
        try:
            check_tournament(candidate)
        except DjangoValidationError as exc:
            raise serializers.ValidationError(django_errors(exc)) from None
        if not isinstance(candidate.metrics, list):
            raise serializers.ValidationError({"metrics": ["must be a list of metric names"]})
        entrants = attrs.get("entrants")
        request = self.context.get("request")
        if "seed" in attrs and request is not None and not request.user.is_staff:
            # Whoever knows the seed knows every card of every match, before it is played.
            raise serializers.ValidationError(
                {
                    "seed": [
                        "only staff choose a tournament's seed: it is drawn at random when the "
                        "tournament starts and kept secret until its matches end"
                    ]
                }
            )
        if entrants and request is not None and not request.user.is_staff:
            # An organiser who is not staff cannot enter other people's bots or other people:
            # everyone enters themselves, through registration.
            raise serializers.ValidationError(
                {"entrants": ["only staff list entrants: open the registration instead"]}
            )
        registering = attrs.get(
            "registration_open", instance.registration_open if instance else False
        )
        if entrants is None and instance is None and not registering:
            raise serializers.ValidationError(
                {"entrants": ["a tournament needs its entrants, or its registration open"]}
            )
        if entrants is not None:
            # Entrants still to come through registration: the count is checked at the start.
            check_entrant_list(candidate, entrants, minimum=not registering)
        elif instance is not None:
            entrants = existing_as_input(list(instance.entrants.select_related("bot")))
        turn_seconds = attrs.get(
            "turn_seconds",
            instance.turn_seconds
            if instance
            else Tournament._meta.get_field("turn_seconds").default,
        )
        check_budgets(entrants or [], turn_seconds)
        return attrs

    def create(self, validated_data: dict[str, Any]) -> Tournament:
        entrants = validated_data.pop("entrants", [])
        sections = self.pop_extensions(validated_data)
        with transaction.atomic():
            tournament = Tournament.objects.create(**validated_data)
            self.save_extensions(tournament, sections)
            create_entrants(tournament, entrants)
        return tournament

    def update(self, instance: Tournament, validated_data: dict[str, Any]) -> Tournament:
        entrants = validated_data.pop("entrants", None)
        sections = self.pop_extensions(validated_data)
        with transaction.atomic():
            tournament = super().update(instance, validated_data)
            self.save_extensions(tournament, sections)
            if entrants is not None:
                tournament.entrants.all().delete()
                create_entrants(tournament, entrants)
        return tournament

    def to_representation(self, instance: Tournament) -> dict[str, Any]:
        return TournamentDetailSerializer(instance, context=self.context).data


class EnterSerializer(serializers.Serializer):
    """What to enter: one of your bots (`bot`, its id) or yourself (`human: true`)."""

    bot = serializers.IntegerField(required=False, min_value=1, max_value=2**62)
    human = serializers.BooleanField(required=False, default=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if bool(attrs.get("bot")) == bool(attrs.get("human")):
            raise serializers.ValidationError(
                "enter either one of your bots (`bot`: its id) or yourself (`human`: true)"
            )
        return attrs


class WithdrawSerializer(serializers.Serializer):
    entrant = serializers.IntegerField(min_value=1, max_value=2**62, help_text="its id")


class RoundSerializer(serializers.ModelSerializer):
    matches = serializers.SerializerMethodField()

    class Meta:
        model = Round
        fields = ["id", "tournament", "number", "status", "started_at", "finished_at", "matches"]

    @extend_schema_field(OpenApiTypes.INT)
    def get_matches(self, round_: Round) -> int:
        count = getattr(round_, "match_count", None)
        return round_.matches.count() if count is None else count


class EntrantBriefSerializer(serializers.ModelSerializer):
    class Meta:
        model = Entrant
        fields = ["id", "name", "seed"]


class MatchSerializer(SeedShownMixin, serializers.ModelSerializer):
    """A match between two entrants (`entrant_b` null: a bye) and its result. A match with
    human players is played through /api/play/; its cards in play are never shown here. Its
    seed is shown once it is done (or cancelled); until then, its commitment. Why an attempt
    failed is told to staff only: the text may come from a bot's own code."""

    round = serializers.IntegerField(source="round.number", read_only=True)
    entrant_a = EntrantBriefSerializer(read_only=True)
    entrant_b = EntrantBriefSerializer(read_only=True, allow_null=True)
    winner = EntrantBriefSerializer(read_only=True, allow_null=True)
    seed = serializers.SerializerMethodField()
    seed_commitment = serializers.SerializerMethodField()
    error = serializers.SerializerMethodField()

    class Meta:
        model = Match
        fields = [
            "id",
            "tournament",
            "round",
            "key",
            "entrant_a",
            "entrant_b",
            "status",
            "attempts",
            "worker",
            "error",
            "winner",
            "wins_a",
            "wins_b",
            "points_a",
            "points_b",
            "games_played",
            "terminations",
            "summary",
            "seed",
            "seed_commitment",
            "queued_at",
            "started_at",
            "finished_at",
        ]

    def seed_revealed(self, match: Match) -> bool:
        return match_seed_revealed(match)

    @extend_schema_field(OpenApiTypes.STR)
    def get_error(self, match: Match) -> str:
        if not match.error:
            return ""
        request = self.context.get("request")
        if request is not None and request.user.is_staff:
            return match.error
        return "an attempt to play it failed (staff see why)"


class GameSerializer(SeedShownMixin, serializers.ModelSerializer):
    """A game of a match, without its record (see the game's detail or /record/). Its seed is
    shown once its match is done; a forfeit's own message and logs are at /logs/, for the
    owner of the bot at fault and staff."""

    tournament = serializers.IntegerField(source="match.tournament_id", read_only=True)
    seed = serializers.SerializerMethodField()
    seed_commitment = serializers.SerializerMethodField()

    class Meta:
        model = Game
        fields = [
            "id",
            "match",
            "tournament",
            "index",
            "pair",
            "a_team",
            "seed",
            "seed_commitment",
            "score_a",
            "score_b",
            "winner_side",
            "termination",
            "fault_seat",
            "hands",
            "actions",
        ]

    def seed_revealed(self, game: Game) -> bool:
        return match_seed_revealed(game.match)


class GameDetailSerializer(GameSerializer):
    """A game with its record (RECORDS.md, format truco-record/1)."""

    record = serializers.SerializerMethodField()

    class Meta(GameSerializer.Meta):
        fields = [*GameSerializer.Meta.fields, "record"]

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_record(self, game: Game) -> dict[str, Any]:
        return public_record(game.record)


class ReplayFrameSerializer(serializers.Serializer):
    hand = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True)
    action = serializers.CharField(allow_null=True)
    view = serializers.DictField(help_text="what a spectator sees; every card once finished")


class SeatNameSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()


class ReplaySerializer(serializers.Serializer):
    """A recorded game step by step, for the replay viewer."""

    game = serializers.IntegerField()
    seats = SeatNameSerializer(many=True)
    record = serializers.JSONField()
    frames = ReplayFrameSerializer(many=True)
    summary = serializers.DictField(help_text="as `python -m engine replay` prints it")


class StandingRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(
        help_text="1 is first; entrants sharing a place (an elimination's `placement`) share it"
    )
    entrant = EntrantBriefSerializer()
    values = serializers.DictField(child=serializers.FloatField())
    rating = serializers.CharField(
        allow_null=True, help_text="mu ± interval of its players in this variant; null if unrated"
    )


class WorkersSerializer(serializers.Serializer):
    """Whether a Celery worker consumes this project's queue (stack/worker_health.py)."""

    alive = serializers.BooleanField(
        allow_null=True, help_text="false: queued work waits for a worker; null: not checked"
    )
    detail = serializers.CharField(help_text="what was found, for people")
    workers = serializers.ListField(child=serializers.CharField(), help_text="their names")


class StandingsSerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField()
    format = serializers.CharField()
    metrics = serializers.ListField(child=serializers.CharField())
    metric_labels = serializers.ListField(
        child=serializers.CharField(), help_text="column headings for the metrics, in order"
    )
    progress = ProgressSerializer()
    workers = WorkersSerializer(
        allow_null=True, help_text="whether a worker plays the matches; null unless running"
    )
    rows = StandingRowSerializer(many=True)


class BracketSlotSerializer(serializers.Serializer):
    key = serializers.CharField()
    round = serializers.IntegerField()
    match = serializers.IntegerField(allow_null=True)
    status = serializers.CharField(help_text="a match status, or `waiting` for its players")
    a = EntrantBriefSerializer(allow_null=True)
    b = EntrantBriefSerializer(allow_null=True)
    a_label = serializers.CharField()
    b_label = serializers.CharField()
    winner = serializers.IntegerField(allow_null=True)
    wins = serializers.ListField(child=serializers.IntegerField())
    points = serializers.ListField(child=serializers.IntegerField())
    games_played = serializers.IntegerField()
    is_bye = serializers.BooleanField()
    next = serializers.CharField(
        allow_null=True, help_text="the key of the match its winner plays next (a bracket's line)"
    )
    tiebreak = serializers.CharField(
        help_text="why the winner of a match tied in games won (points, extra games); '' if not"
    )


class BracketRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    matches = BracketSlotSerializer(many=True)


class BracketSectionSerializer(serializers.Serializer):
    name = serializers.CharField()
    rounds = BracketRoundSerializer(many=True)


class BracketSerializer(serializers.Serializer):
    count = serializers.IntegerField(help_text="the matches in all (of the round, if asked)")
    next = serializers.URLField(allow_null=True, help_text="the next page; null on the last")
    previous = serializers.URLField(
        allow_null=True, help_text="the previous page; null on the first"
    )
    tournament = serializers.IntegerField()
    format = serializers.CharField()
    kind = serializers.CharField(help_text="`bracket` (elimination) or `rounds` (leagues)")
    rounds = serializers.ListField(
        child=serializers.IntegerField(), help_text="the numbers of the rounds paired so far"
    )
    sections = BracketSectionSerializer(many=True)


class LiveSerializer(serializers.Serializer):
    standings = StandingsSerializer()
    bracket = BracketSerializer(
        help_text="the page of the bracket asked for, as `bracket/` answers it; its `next` and "
        "`previous` are the looks of `live/` at the neighbouring pages"
    )


class RoundQuerySerializer(serializers.Serializer):
    round = serializers.IntegerField(required=False, min_value=1, max_value=100_000)
