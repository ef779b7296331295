"""The API's views. Reading is open to everyone; tournaments are managed by staff, bots by their
owners. Every list is paginated and filterable, and built in a fixed number of queries."""

from __future__ import annotations

from django.db.models import Count, Prefetch
from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.settings import api_settings

from engine.plugins import registry
from engine.spectator import replay_frames
from restapi.errors import BadRequest
from restapi.pagination import MAX_LIMIT, BracketPagination
from restapi.permissions import IsStaffOrReadOnly
from restapi.serializers import DetailSerializer
from restapi.views import ApiMixin
from tournaments import lifecycle, live_feed, registration
from tournaments.api import filters, serializers
from tournaments.api.bracket import bracket_payload
from tournaments.api.follow_cache import FOLLOWED_PAGE_SIZES, followed
from tournaments.api.permissions import IsOrganiserOrReadOnly
from tournaments.api.standings import standings_payload
from tournaments.api.standings_csv import StandingsCSVRenderer
from tournaments.game_privacy import private_view, public_record
from tournaments.models import Entrant, Game, Match, Round, Tournament
from tournaments.verification import NotVerifiable, verify_match

ROUND = OpenApiParameter("round", int, description="only this round's matches")
LIMIT = OpenApiParameter(
    "limit", int, description=f"matches a page, at most and by default {MAX_LIMIT}"
)
OFFSET = OpenApiParameter("offset", int, description="the first match's index (from 0)")
NAME = OpenApiParameter("name", str, OpenApiParameter.PATH, description="its registered name")


# --- the registry -------------------------------------------------------------------------


@extend_schema_view(
    list=extend_schema(summary="Registered variants with their option schemas and presets"),
    retrieve=extend_schema(summary="One variant", parameters=[NAME]),
)
class VariantViewSet(ApiMixin, viewsets.ViewSet):
    permission_classes = [AllowAny]
    filter_backends = []
    serializer_class = serializers.VariantSerializer
    lookup_field = "name"
    lookup_value_regex = r"[^/]{1,100}"

    def list(self, request):
        variants = [v.describe() for _, v in sorted(registry().variants.items())]
        return Response(serializers.VariantSerializer(variants, many=True).data)

    def retrieve(self, request, name=None):
        variant = registry().variants.get(name)
        if variant is None:
            raise Http404(f"no variant {name!r}")
        return Response(serializers.VariantSerializer(variant.describe()).data)


# --- players, bots, ratings ---------------------------------------------------------------


# --- tournaments --------------------------------------------------------------------------


@extend_schema_view(
    list=extend_schema(summary="Tournaments, newest first"),
    retrieve=extend_schema(summary="A tournament with its entrants"),
    create=extend_schema(
        summary="Create a tournament with its entrants, or open for registration (organisers)",
        request=serializers.TournamentWriteSerializer,
        responses={201: serializers.TournamentDetailSerializer},
    ),
    update=extend_schema(
        summary="Change a draft tournament (staff)",
        request=serializers.TournamentWriteSerializer,
        responses=serializers.TournamentDetailSerializer,
    ),
    partial_update=extend_schema(
        summary="Change a draft tournament (staff)",
        request=serializers.TournamentWriteSerializer,
        responses=serializers.TournamentDetailSerializer,
    ),
    destroy=extend_schema(summary="Delete a tournament that is not running (staff)"),
)
class TournamentViewSet(ApiMixin, viewsets.ModelViewSet):
    """Organisers (staff; with TRUCO_USERS_CREATE_TOURNAMENTS, any user for the tournaments they
    created) create and run tournaments; signed-in users enter and withdraw while the
    registration is open (tournaments/registration.py)."""

    permission_classes = [IsOrganiserOrReadOnly]
    filterset_class = filters.TournamentFilter
    search_fields = ["name", "variant"]
    ordering_fields = ["created_at", "name", "status"]

    def get_queryset(self):
        queryset = (
            Tournament.objects.select_related("table_settings")
            .with_progress()
            .order_by("-created_at", "-id")
        )
        if self.action in ("retrieve", "update", "partial_update", "create"):
            queryset = queryset.prefetch_related(
                Prefetch(
                    "entrants",
                    Entrant.objects.select_related("bot__owner", "entered_by").prefetch_related(
                        "members"
                    ),
                )
            )
        return queryset

    def get_serializer_class(self):
        if self.action in ("create", "update", "partial_update"):
            return serializers.TournamentWriteSerializer
        if self.action == "retrieve":
            return serializers.TournamentDetailSerializer
        return serializers.TournamentSerializer

    def perform_create(self, serializer):
        serializer.save(created_by=self.request.user)

    def perform_destroy(self, instance: Tournament):
        registration.check_may_end(instance, self.request.user, "delete")
        if instance.status in (Tournament.Status.RUNNING, Tournament.Status.PAUSED):
            raise BadRequest(f"the tournament is {instance.status}: cancel it first")
        instance.delete()

    def _lifecycle(self, request, operation):
        tournament = self.get_object()
        operation(tournament)
        return Response(self.get_serializer(self.get_queryset().get(pk=tournament.pk)).data)

    @extend_schema(
        request=None,
        responses={200: serializers.TournamentSerializer, 400: DetailSerializer},
        summary="Start a draft: fix the seeds and schedule the first round (staff)",
    )
    @action(detail=True, methods=["post"])
    def start(self, request, pk=None):
        return self._lifecycle(request, lifecycle.start)

    @extend_schema(
        request=None,
        responses={200: serializers.TournamentSerializer, 400: DetailSerializer},
        summary="Pause: matches being played finish, nothing new starts (staff)",
    )
    @action(detail=True, methods=["post"])
    def pause(self, request, pk=None):
        registration.check_may_end(self.get_object(), request.user, "pause")
        return self._lifecycle(request, lifecycle.pause)

    @extend_schema(
        request=None,
        responses={200: serializers.TournamentSerializer, 400: DetailSerializer},
        summary="Resume a paused tournament (staff)",
    )
    @action(detail=True, methods=["post"])
    def resume(self, request, pk=None):
        return self._lifecycle(request, lifecycle.resume)

    @extend_schema(
        request=None,
        responses={200: serializers.TournamentSerializer, 400: DetailSerializer},
        summary="Cancel for good: unfinished matches are cancelled (staff)",
    )
    @action(detail=True, methods=["post"])
    def cancel(self, request, pk=None):
        registration.check_may_end(self.get_object(), request.user, "cancel")
        return self._lifecycle(request, lifecycle.cancel)

    @extend_schema(
        responses={
            (200, "application/json"): serializers.StandingsSerializer,
            (200, "text/csv"): str,
        },
        parameters=[
            OpenApiParameter(
                "format",
                str,
                enum=["json", "csv"],
                description="`csv`: the rows as CSV (rank, entrant, each metric, rating)",
            )
        ],
        summary="Standings",
        description="The tournament's standings, best first: each entrant's rank (entrants "
        "sharing a place share it), its value of each metric (`metrics`, headed by "
        "`metric_labels`, the tiebreaks in order) and its rating in the variant (null if "
        "unrated); with the progress (matches played of those expected) and, while it runs, "
        "whether a worker plays its matches. Anyone may read it; `?format=csv` downloads it.",
    )
    @action(
        detail=True,
        methods=["get"],
        permission_classes=[AllowAny],
        renderer_classes=[*api_settings.DEFAULT_RENDERER_CLASSES, StandingsCSVRenderer],
    )
    def standings(self, request, pk=None):
        tournament = self._plain_object()
        response = Response(self._standings(tournament))
        if getattr(request.accepted_renderer, "format", "") == "csv":
            response["Content-Disposition"] = (
                f'attachment; filename="standings-{tournament.pk}.csv"'
            )
        return response

    @extend_schema(
        responses=serializers.BracketSerializer,
        parameters=[ROUND, LIMIT, OFFSET],
        summary="The bracket (elimination) or the rounds (leagues) with their matches",
        description="A page of the matches in the order they are shown (section, round, then "
        f"as paired): at most {MAX_LIMIT} (`?limit=`, from `?offset=`); `count` says how many "
        "there are, `next` and `previous` link the neighbouring pages (null at either end). A "
        f"limit over {MAX_LIMIT} is cut to it; a limit or offset that is not a whole number (or "
        "a limit of 0 or less) is ignored, as in every list of the API.",
    )
    @action(detail=True, methods=["get"], permission_classes=[AllowAny])
    def bracket(self, request, pk=None):
        return Response(self._bracket_page(request, self._plain_object()))

    @extend_schema(
        responses=serializers.LiveSerializer,
        parameters=[ROUND, LIMIT, OFFSET],
        summary="What the tournament's page follows: its standings and a page of its bracket",
        description="`standings/` and `bracket/` (with the same `round`, `limit` and `offset`) "
        "in one answer: the tournament page asks for it every few seconds while the "
        "tournament runs, hundreds of people at once, and one request a look costs the site "
        "half of two.",
    )
    @action(detail=True, methods=["get"], permission_classes=[AllowAny])
    def live(self, request, pk=None):
        tournament = self._plain_object()
        return Response(
            {
                "standings": self._standings(tournament),
                "bracket": self._bracket_page(request, tournament),
            }
        )

    @staticmethod
    def _standings(tournament: Tournament) -> dict:
        return followed("standings", tournament, (), lambda: standings_payload(tournament))

    @staticmethod
    def _bracket_page(request, tournament: Tournament) -> dict:
        """The page of the bracket that `request` asks for (its round, limit and offset)."""
        query = serializers.RoundQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        pages = BracketPagination()
        limit, offset = pages.get_limit(request), pages.get_offset(request)
        round_no = query.validated_data.get("round")

        def build() -> dict:
            return bracket_payload(tournament, round_no, offset=offset, limit=limit)

        # Kept for the followers only as the site's pages ask (their page sizes, from a page's
        # start): any other slice is built for its request, so that nobody fills the shared
        # cache with a copy of the bracket for every offset and limit there is.
        followers_slice = limit in FOLLOWED_PAGE_SIZES and offset % limit == 0
        payload = dict(
            followed("bracket", tournament, (round_no, offset, limit), build)
            if followers_slice
            else build()
        )
        count = payload.pop("count")
        return {"count": count, **pages.links(request, limit, offset, count), **payload}

    @extend_schema(
        request=serializers.EnterSerializer,
        responses={
            201: serializers.EntrantSerializer,
            400: DetailSerializer,
            403: DetailSerializer,
            409: DetailSerializer,
        },
        summary="Enter one of your bots, or yourself, while the registration is open",
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def enter(self, request, pk=None):
        tournament = self._plain_object()
        body = serializers.EnterSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        if body.validated_data.get("bot"):
            entrant = registration.enter_bot(
                tournament.pk, request.user, body.validated_data["bot"]
            )
        else:
            entrant = registration.enter_self(tournament.pk, request.user)
        entrant = self._entrants().get(pk=entrant.pk)
        return Response(serializers.EntrantSerializer(entrant).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=serializers.WithdrawSerializer,
        responses={
            204: None,
            400: DetailSerializer,
            403: DetailSerializer,
            409: DetailSerializer,
        },
        summary="Withdraw one of your entries before the start (the organiser: any entry)",
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def withdraw(self, request, pk=None):
        tournament = self._plain_object()
        body = serializers.WithdrawSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        registration.withdraw(tournament.pk, request.user, body.validated_data["entrant"])
        return Response(status=status.HTTP_204_NO_CONTENT)

    @staticmethod
    def _entrants():
        return Entrant.objects.select_related("bot__owner", "entered_by").prefetch_related(
            "members"
        )

    def _plain_object(self) -> Tournament:
        """The tournament alone, without the list's annotations (one cheap query)."""
        try:
            return Tournament.objects.get(pk=self.kwargs["pk"])
        except (Tournament.DoesNotExist, ValueError, TypeError, OverflowError):
            raise Http404("no such tournament") from None


class EntrantViewSet(
    ApiMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    """Entrants of tournaments; staff add and remove them while a tournament is a draft."""

    queryset = (
        Entrant.objects.select_related("bot")
        .prefetch_related("members")
        .order_by("tournament", "seed", "id")
    )
    permission_classes = [IsStaffOrReadOnly]
    filterset_class = filters.EntrantFilter
    search_fields = ["name"]

    def get_serializer_class(self):
        if self.action == "create":
            return serializers.AddEntrantSerializer
        return serializers.EntrantSerializer

    @extend_schema(
        request=serializers.AddEntrantSerializer, responses={201: serializers.EntrantSerializer}
    )
    def create(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        entrant = serializer.save()
        entrant = self.get_queryset().get(pk=entrant.pk)
        return Response(serializers.EntrantSerializer(entrant).data, status=status.HTTP_201_CREATED)

    def perform_destroy(self, instance: Entrant):
        if instance.tournament.status != Tournament.Status.DRAFT:
            raise BadRequest("entrants can only be removed from a draft tournament")
        instance.delete()


class RoundViewSet(ApiMixin, viewsets.ReadOnlyModelViewSet):
    queryset = Round.objects.annotate(match_count=Count("matches")).order_by("tournament", "number")
    serializer_class = serializers.RoundSerializer
    filterset_class = filters.RoundFilter


class MatchViewSet(ApiMixin, viewsets.ReadOnlyModelViewSet):
    queryset = Match.objects.select_related("round", "entrant_a", "entrant_b", "winner").order_by(
        "tournament", "round__number", "id"
    )
    serializer_class = serializers.MatchSerializer
    filterset_class = filters.MatchFilter
    search_fields = ["key", "entrant_a__name", "entrant_b__name"]

    @extend_schema(
        request=None,
        responses={200: serializers.MatchSerializer, 400: DetailSerializer},
        summary="Play a failed match again, or a finished one nothing was built on yet (staff)",
    )
    @action(detail=True, methods=["post"], permission_classes=[IsStaffOrReadOnly])
    def rerun(self, request, pk=None):
        match = self.get_object()
        lifecycle.rerun_match(match)
        return Response(self.get_serializer(self.get_queryset().get(pk=match.pk)).data)

    @extend_schema(
        request=None,
        parameters=[
            OpenApiParameter(
                "commitment", str, description="the seed commitment you saw before the end"
            )
        ],
        responses={200: dict, 400: DetailSerializer},
        summary="Check a finished match: seed against commitment, every card against its seed",
    )
    @extend_schema(
        request=None,
        responses={200: dict},
        summary="A running bot match as spectators see it (its game's view, updated live)",
        description=(
            "`status` is the match's; `live` is null until its first action and once it has "
            "ended, else `seq` (grows with each update), `game` (its index in the match), "
            "`ply` (actions so far in that game), `over`, `a_team` (the team side A plays), "
            "`seats` (who sits where) and `view` (the spectator's view of the game: no card a "
            "spectator may not see). A page follows it over the WebSocket "
            "`/ws/matches/{id}/watch/`. Matches where people play are watched at their table."
        ),
    )
    @action(detail=True, methods=["get"])
    def live(self, request, pk=None):
        match = self.get_object()
        feed = live_feed.for_spectators(match)
        return Response({"match": match.pk, "status": match.status, "live": feed})

    @action(detail=True, methods=["get"])
    def verify(self, request, pk=None):
        match = self.get_object()
        try:
            report = verify_match(match, request.query_params.get("commitment"))
        except NotVerifiable as exc:
            raise BadRequest(str(exc)) from None
        return Response(report)


@extend_schema_view(
    list=extend_schema(summary="Games, without their records"),
    retrieve=extend_schema(summary="A game with its record"),
)
class GameViewSet(ApiMixin, viewsets.ReadOnlyModelViewSet):
    queryset = Game.objects.select_related("match__entrant_a", "match__entrant_b").order_by(
        "match_id", "index"
    )
    filterset_class = filters.GameFilter
    ordering_fields = ["index", "score_a", "score_b", "actions"]

    def get_queryset(self):
        queryset = super().get_queryset()
        if self.action == "list":
            queryset = queryset.defer("record")  # records are large; the list does not show them
        return queryset

    def get_serializer_class(self):
        if self.action == "list":
            return serializers.GameSerializer
        return serializers.GameDetailSerializer

    @extend_schema(
        responses={(200, "application/json"): dict},
        summary="The game record alone (RECORDS.md), as a file to download",
    )
    @action(detail=True, methods=["get"])
    def record(self, request, pk=None):
        game = self.get_object()
        response = Response(public_record(game.record))
        response["Content-Disposition"] = f'attachment; filename="game-{game.pk}.json"'
        return response

    @extend_schema(
        responses=serializers.ReplaySerializer,
        summary="The game step by step, every card shown (the game is over)",
    )
    @action(detail=True, methods=["get"])
    def replay(self, request, pk=None):
        game = self.get_object()
        record = public_record(game.record)
        frames = replay_frames(record, reveal=True)
        return Response({"game": game.pk, "seats": seat_names(game), "record": record, **frames})

    @extend_schema(
        responses={200: dict, 401: DetailSerializer, 403: DetailSerializer},
        summary="A forfeit's own message and the bots' logs: for their owners and staff",
    )
    @action(detail=True, methods=["get"])
    def logs(self, request, pk=None):
        game = self.get_object()
        if not request.user.is_authenticated:
            raise NotAuthenticated("log in as the bot's owner (or staff) to read its logs")
        view = private_view(game, request.user)
        if view is None:
            raise PermissionDenied("only the owners of this game's bots, and staff, read its logs")
        return Response(view)


def seat_names(game: Game) -> list[dict]:
    """Who sat where: side A played the seats of team `a_team`, partners opposite; each seat a
    distinct name (two seats of one bot are numbered, a human's robot partner is a robot)."""
    return live_feed.named_seats(game.match, game.record.get("players", 2), game.a_team)
