"""/api/play/: humans play their matches. A player sees only their own seats' observations and
acts only for their own seats; everyone else gets the spectator's view (if the table allows)."""

from __future__ import annotations

import ipaddress
import json
import threading
import time
from contextlib import contextmanager, nullcontext

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import Prefetch, Q
from django.http import Http404
from django.utils import translation
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import APIException, PermissionDenied, Throttled, ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.throttling import UserRateThrottle
from rest_framework.views import APIView

from players.models import Player
from restapi.errors import django_errors
from restapi.serializers import DetailSerializer
from restapi.views import ID
from tables import amicable, chat, routing, services, table_master
from tables.api.serializers import (
    ActSerializer,
    ChatMessageSerializer,
    ChatPostSerializer,
    EndVoteInputSerializer,
    EndVoteSerializer,
    InviteSerializer,
    MyMatchSerializer,
    QuickMatchSerializer,
    SitSerializer,
    TableOptionsInputSerializer,
    TableOptionsSerializer,
    TableStateSerializer,
)
from tables.live import (
    MATCH_RELATED,
    LiveTable,
    TableError,
    keep_invited_names,
    prefetch_members,
    with_invited_names,
)
from tables.models import LiveMatch, settings_of
from tables.quick import open_table
from tables.seating import game_from_json, next_game
from tables.views_state import CannotWatch, live_of, render, table_state
from tournaments.api.views import ApiMixin
from tournaments.models import Match
from tournaments.seating import seating

MATCH_ID = OpenApiParameter("id", int, OpenApiParameter.PATH, description="the match id")
WAIT = OpenApiParameter(
    "wait",
    float,
    description="for the table's own players (scripts): while the bots are playing, answer once "
    "they have replied (at most this many seconds, up to 5); one waiting request per player at "
    "a time, 120 a minute. Pages and spectators follow the push channel instead: the WebSocket "
    "/ws/play/matches/{id}/",
)
AFTER = OpenApiParameter("after", int, description="only the messages after this message id")


def failures(*codes: int) -> dict:
    """The error answers of an endpoint for the schema: each is `{"detail": message}`."""
    return {code: DetailSerializer for code in codes}


class ChatThrottle(UserRateThrottle):
    """A flood guard on chat posts, per user."""

    scope = "play-chat"
    rate = "20/min"


def client_ip(request) -> str | None:
    """The address a request came from, for the shared-IP rule (None if it is not one)."""
    try:
        return str(ipaddress.ip_address(request.META.get("REMOTE_ADDR", "")))
    except ValueError:
        return None


class PlayRefused(APIException):
    def __init__(self, error: services.PlayError):
        self.status_code = error.status
        super().__init__(detail={"detail": str(error)})


def get_match(pk, *, state: bool = False) -> Match:
    """The match with its tournament, table settings, entrants and members (two queries); for
    its `state`, its live row and the names invited to its table too, in the match's own query
    (one statement: the match and its live row as one commit left them, never a match read
    before the commit that ended it and its live row after)."""
    rows = Match.objects.select_related(*MATCH_RELATED)
    if state:
        rows = with_invited_names(rows.select_related("live"))
    try:
        match = rows.get(pk=pk)
    except (Match.DoesNotExist, ValueError, TypeError, OverflowError):
        raise Http404("no such match") from None
    keep_invited_names(match)
    prefetch_members([match.entrant_a, match.entrant_b])
    return match


def state_response(
    match_id, request, code=status.HTTP_200_OK, written: services.Written | None = None
) -> Response:
    """The state after a change: of the table as the change `written` left it (no query), else
    read now."""
    if written is None or written.played_on:
        return Response(state_of(get_match(match_id, state=True), request), status=code)
    # The person who changed it is at the table (a table of one person reads no presence).
    read = {"player": written.player, "here": True, "presence": written.presence}
    return Response(state_of(written.match, request, **read), status=code)


def state_of(match: Match, request, **read) -> dict:
    """The state of `match` (read with its live row, `get_match(state=True)`) for the request's
    user. A user seated nowhere at the table sees what anyone sees: their player is not read."""
    read.setdefault("player", services.seated_player(match, request.user))
    try:
        return table_state(match, request.user, **read)
    except CannotWatch as exc:
        raise PermissionDenied(str(exc)) from None


MAX_WAIT_SECONDS = routing.MAX_WAIT_SECONDS
WAIT_POLL_SECONDS = 0.05  # without table hosts: a look at the row this often while waiting


class WaitThrottle(UserRateThrottle):
    """Waiting requests hold a thread of the web server each: a player's script waits at
    most this often (the page is pushed its states, tables/push.py)."""

    scope = "play-wait"
    rate = "120/min"


# The players waiting in this process right now: one waiting request per player at a time.
_waiting: set[int] = set()
_waiting_lock = threading.Lock()


@contextmanager
def one_wait_per_player(player_id: int):
    with _waiting_lock:
        if player_id in _waiting:
            raise services.PlayError(
                "you already wait on a table: one waiting request at a time "
                "(or follow the table's push channel, /ws/play/matches/{id}/)",
                429,
            )
        _waiting.add(player_id)
    try:
        yield
    finally:
        with _waiting_lock:
            _waiting.discard(player_id)


def parse_wait(value: str) -> float:
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds <= MAX_WAIT_SECONDS:  # also refuses nan and inf
        raise services.PlayError(
            f"`wait` must be a number of seconds from 0 to {MAX_WAIT_SECONDS:g}"
        )
    return seconds


def kept_by_a_host(live: LiveMatch | None) -> bool:
    """Whether a table host keeps this table in play now (it holds its lease)."""
    return (
        services.hosted()
        and live is not None
        and live.waiting in (LiveMatch.Waiting.HUMAN, LiveMatch.Waiting.BOTS)
        and live.host_holds_it
    )


def wait_for_bots(match_id: int, seconds: float, every: float = WAIT_POLL_SECONDS) -> None:
    """While the bots of the table are playing, wait (up to `seconds`) until they have: the
    page shows their replies the moment they are made, with one request (a cheap look at
    one column every `every` seconds meanwhile)."""
    deadline = time.monotonic() + seconds
    waiting = LiveMatch.objects.filter(match_id=match_id).values_list("waiting", flat=True)
    while waiting.first() == LiveMatch.Waiting.BOTS and time.monotonic() < deadline:
        time.sleep(every)


class PlayMatchViewSet(ApiMixin, viewsets.ViewSet):
    """Matches with human seats, as their players and spectators see them.

    The actions that change a table (open, sit, invite, end-vote, act) look nothing up first:
    the work reads the match under its lock, and answers 404 for a match that is not there."""

    lookup_value_regex = ID
    permission_classes = [AllowAny]
    filter_backends = []

    def handle_exception(self, exc):
        if isinstance(exc, services.PlayError):
            exc = PlayRefused(exc)
        return super().handle_exception(exc)

    @extend_schema(
        responses=MyMatchSerializer(many=True),
        summary="Your matches with human seats: to start, in play and recently finished",
    )
    def list(self, request):
        if not request.user.is_authenticated:
            raise PermissionDenied("sign in to see your matches")
        player = services.player_of(request.user)
        if player is None:
            return Response([])
        return Response(my_matches(player))

    @extend_schema(
        parameters=[MATCH_ID, WAIT],
        responses={200: TableStateSerializer, **failures(400, 403)},
        summary="The match as you see it: your seats' observations, or the spectator's view",
    )
    def retrieve(self, request, pk=None):
        match = get_match(pk, state=True)
        player = services.seated_player(match, request.user)
        is_player = player is not None
        wait = request.query_params.get("wait", "")
        if wait:
            seconds = parse_wait(wait)
            if not is_player:
                raise services.PlayError(
                    "`wait` is for the table's own players; watch the table through its push "
                    "channel (/ws/play/matches/{id}/) instead",
                    403,
                )
            throttle = WaitThrottle()
            if not throttle.allow_request(request, self):
                raise Throttled(throttle.wait())
        live = live_of(match)
        if is_player and kept_by_a_host(live):
            # The host that keeps the table renders it from memory (and notes the person is
            # here): building it again from the rows cost the web server several times an act.
            # It answers a wait once its robots have played, with no query meanwhile.
            try:
                with one_wait_per_player(player.pk) if wait else nullcontext():
                    answer = routing.ask(
                        match.pk,
                        "state",
                        viewer=f"p{player.pk}",
                        language=translation.get_language(),
                        player=player.pk,
                        ip=client_ip(request),
                        **({"wait": seconds} if wait else {}),
                    )
                return Response(answer["state"])
            except TableError:
                pass  # moved or busy: read from the rows, as without hosts
        elif wait:
            # No host keeps it (inline, or between two hosts): while its robots are to play, the
            # row is looked at until they have. A table that waits for nobody's robots (at a
            # game's end, say) is answered as a plain GET, without the looks and the reads again.
            with one_wait_per_player(player.pk):
                if live is not None and live.waiting == LiveMatch.Waiting.BOTS:
                    wait_for_bots(match.pk, seconds)
                    # Read again, the match with its live row: as the bots' replies left them.
                    match = get_match(pk, state=True)
                    live = live_of(match)
        presence = None
        if is_player and live is not None and live.waiting != LiveMatch.Waiting.DONE:
            # (A match over needs no presence: nobody is played for, no game is paid.) The
            # others' presence is read with it: whether they are away, for the amicable vote.
            presence = services.touch_and_read(match.pk, player.pk, client_ip(request))
        # Reading plays nothing: an expired turn or stalled robots are the workers' (the turn
        # timer's task and the periodic sweep of tables, services.sweep).
        return Response(state_of(match, request, player=player, here=is_player, presence=presence))

    @extend_schema(
        request=None,
        parameters=[MATCH_ID],
        responses={200: TableStateSerializer, **failures(400, 403)},
        summary="Sit down: start your pending match (bots play up to your first decision)",
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def open(self, request, pk=None):
        written = services.open_match(int(pk), request.user, client_ip(request))
        return state_response(pk, request, written=written)

    @extend_schema(
        request=ActSerializer,
        parameters=[MATCH_ID],
        responses={200: TableStateSerializer, **failures(400, 403, 409)},
        summary="Play one of your seat's legal actions",
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def act(self, request, pk=None):
        body = ActSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            match_id = int(pk)
        except (TypeError, ValueError, OverflowError):
            raise Http404("no such match") from None
        after = services.act(
            match_id,
            request.user,
            body.validated_data["action"],
            body.validated_data.get("seat"),
            client_ip(request),
            turn=body.validated_data.get("turn"),
            viewer_language=translation.get_language(),
        )
        # The table as the decision left it, without reading it again: the host's rendering
        # for this person, or the table this request played (inline).
        if isinstance(after, dict) and after.get("state") is not None:
            response = Response(after["state"])
            if "meter" in after:  # the load benchmark's stages (TRUCO_BENCH_METRICS)
                response["X-Table-Meter"] = json.dumps(after["meter"])
            return response
        if isinstance(after, LiveTable):
            try:
                return Response(
                    render(after.match, after, after.viewer, staff=request.user.is_staff)
                )
            except CannotWatch as exc:
                raise PermissionDenied(str(exc)) from None
        return state_response(match_id, request)

    def get_throttles(self):
        if self.action == "chat" and self.request.method == "POST":
            return [ChatThrottle()]
        return super().get_throttles()

    @extend_schema(
        request=SitSerializer,
        parameters=[MATCH_ID],
        responses={200: TableStateSerializer, **failures(400, 403, 409)},
        summary="Take a free seat of a player's table (private tables: invited players only)",
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def sit(self, request, pk=None):
        body = SitSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        written = table_master.sit(
            int(pk), request.user, body.validated_data.get("side"), client_ip(request)
        )
        return state_response(pk, request, written=written)

    @extend_schema(
        methods=["GET"],
        parameters=[MATCH_ID],
        responses={200: TableOptionsSerializer, **failures(403)},
        summary="The table's options (RULES.md section 5) and its master",
    )
    @extend_schema(
        methods=["PATCH"],
        request=TableOptionsInputSerializer,
        parameters=[MATCH_ID],
        responses={200: TableOptionsSerializer, **failures(400, 403, 409)},
        summary="The table master changes the options, before a game or between two games",
    )
    @action(detail=True, methods=["get", "patch"], url_path="table")
    def table(self, request, pk=None):
        match = get_match(pk)
        if request.method == "GET":
            watchable(match, request.user)
            return Response(table_master.table_options(settings_of(match.tournament)))
        if not request.user.is_authenticated:
            raise PermissionDenied("sign in to change a table's options")
        body = TableOptionsInputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        return Response(table_master.change_options(int(pk), request.user, body.validated_data))

    @extend_schema(
        request=InviteSerializer,
        parameters=[MATCH_ID],
        responses={200: TableOptionsSerializer, **failures(400, 403)},
        summary="The table master invites players by name (they may sit at a private table)",
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def invite(self, request, pk=None):
        body = InviteSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        return Response(table_master.invite(int(pk), request.user, body.validated_data["players"]))

    @extend_schema(
        request=EndVoteInputSerializer,
        parameters=[MATCH_ID],
        responses={200: EndVoteSerializer, **failures(400, 403, 409)},
        summary="Agree (or not) to end the game amicably: cancelled once every human present "
        "agrees (a competitive or staked game: and every side has one; never against robots)",
    )
    @action(
        detail=True, methods=["post"], url_path="end-vote", permission_classes=[IsAuthenticated]
    )
    def end_vote(self, request, pk=None):
        body = EndVoteInputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        return Response(
            amicable.vote(int(pk), request.user, body.validated_data["agree"], client_ip(request))
        )

    @extend_schema(
        methods=["GET"],
        parameters=[MATCH_ID, AFTER],
        responses={200: ChatMessageSerializer(many=True), **failures(403)},
        summary="The table's chat, oldest first (the latest 100 messages)",
    )
    @extend_schema(
        methods=["POST"],
        request=ChatPostSerializer,
        parameters=[MATCH_ID],
        responses={201: ChatMessageSerializer, **failures(400, 403)},
        summary="Say something at the table (its players; spectators if the table has them)",
    )
    @action(detail=True, methods=["get", "post"])
    def chat(self, request, pk=None):
        match = get_match(pk)
        if request.method == "GET":
            if not chat.may_read(match, request.user):
                raise PermissionDenied("this table does not allow spectators")
            after = request.query_params.get("after", "")
            if after and not (after.isdigit() and len(after) <= 18):
                raise services.PlayError("`after` must be a message id")
            return Response(chat.history(match, int(after) if after else None))
        if not request.user.is_authenticated:
            raise PermissionDenied("sign in to chat")
        body = ChatPostSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        message = chat.post(match, request.user, body.validated_data["text"])
        return Response(message, status=status.HTTP_201_CREATED)


def watchable(match: Match, user) -> None:
    if not chat.may_read(match, user):
        raise PermissionDenied("this table does not allow spectators")


def my_matches(player: Player, limit: int = 50) -> list[dict]:
    members = Player.objects.only("id", "name")
    matches = (
        Match.objects.filter(
            Q(entrant_a__members=player) | Q(entrant_b__members=player),
            entrant_b__isnull=False,
        )
        .select_related(
            "tournament", "tournament__table_settings", "entrant_a__bot", "entrant_b__bot", "live"
        )
        .prefetch_related(
            Prefetch("entrant_a__members", members), Prefetch("entrant_b__members", members)
        )
        .distinct()
        .order_by("-id")[:limit]
    )
    out = []
    for match in matches:
        mine_a = any(p.pk == player.pk for p in match.entrant_a.members.all())
        opponent = match.entrant_b if mine_a else match.entrant_a
        live = getattr(match, "live", None)
        your_turn = False
        if live is not None and live.waiting == LiveMatch.Waiting.HUMAN:
            finished = [game_from_json(g) for g in live.games]
            plan = next_game(match.tournament, match, finished)
            if plan is not None:
                seats = seating(match, match.tournament.players, plan.a_team)
                your_turn = any(s.seat == live.to_act and s.player == player.pk for s in seats)
        out.append(
            {
                "match": match.pk,
                "key": match.key,
                "status": match.status,
                "tournament": match.tournament_id,
                "tournament_name": match.tournament.name,
                "variant": match.tournament.variant,
                "opponent": opponent.name,
                "waiting": live.waiting if live is not None else "start",
                "your_turn": your_turn,
                "table": settings_of(match.tournament).is_players_table,
            }
        )
    return out


class QuickMatchView(ApiMixin, APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=QuickMatchSerializer,
        responses={201: TableStateSerializer, **failures(400)},
        summary="Open your own table: against a bot (dealt at once) or people (you deal)",
    )
    def post(self, request):
        body = QuickMatchSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        # Against a bot: dealt at once, in the transaction that opens it; people: when the
        # master says.
        deal = data["bot"] is not None
        try:
            written = open_table(request.user, **data, deal=deal, ip=client_ip(request))
        except DjangoValidationError as exc:
            raise ValidationError(django_errors(exc)) from None
        except services.PlayError as exc:
            # Refused at the deal (chips staked meanwhile at another table): nothing was saved,
            # no table is left behind counted among the player's tables in play.
            raise PlayRefused(exc) from None
        return state_response(written.match.pk, request, status.HTTP_201_CREATED, written)
