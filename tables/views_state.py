"""What a person sees of a live match: a player their own seats' observations (and nothing of
the other seats' cards), everyone else the spectator's view."""

from __future__ import annotations

from typing import Any

from django.conf import settings as django_settings
from django.utils import timezone

from engine.errors import TrucoError
from engine.plugins import get_variant
from engine.spectator import public_view
from players.models import Player
from players.people import player_of
from tables import host_health
from tables.amicable import vote_state
from tables.live import LiveTable
from tables.models import LiveMatch, settings_of
from tables.seating import next_game, scheduled
from tables.table_master import free_teams, table_options
from tables.table_story import explain, rematch
from tournaments.models import Match
from tournaments.seating import seating


class CannotWatch(Exception):
    pass


NOT_READ = object()


def table_state(
    match: Match,
    user,
    *,
    player: Any = NOT_READ,
    here: bool = False,
    presence: dict[int, Any] | None = None,
) -> dict[str, Any]:
    """The state of `match` for `user` (their `player`, if the caller read it: a viewer seated
    nowhere sees what anyone does, None will do), read from the database (no lock, nothing
    written); the match's live row is the one read with it (`live_of`). `here`: the player
    asking is at the table (their request is their presence: a table of one person reads no
    presence rows); `presence`: the table's Presence rows if the caller read them
    (services.touch_and_read). Raises CannotWatch for a table closed to spectators."""
    if player is NOT_READ:
        player = player_of(user)
    read_with_it = Match.live.is_cached(match)
    live = live_of(match)
    if (
        not read_with_it
        and live is not None
        and live.waiting == LiveMatch.Waiting.DONE
        and match.status == "running"
    ):
        # The match was read before the commit that ended it, its live row after: read again.
        match.refresh_from_db(fields=["status", "winner", "wins_a", "wins_b"])
    # Only shown: no bot starts for it (a table shown at a game's start started its jail).
    table = LiveTable(match, live, shown=True) if live is not None else None
    if table is not None and here and player is not None:
        table.seen({player.pk}, {player.pk: timezone.now()})
    if table is not None:
        table.presence_read(presence)
    try:
        return render(match, table, player, staff=bool(user and user.is_staff))
    finally:
        if table is not None:
            table.close_bots()


def live_of(match: Match) -> LiveMatch | None:
    """The match's live row: the one read with it (`select_related("live")`: one statement,
    so the two as one commit left them), else read now (None: never dealt)."""
    try:
        return match.live
    except LiveMatch.DoesNotExist:
        return None


def render(
    match: Match, table: LiveTable | None, player: Player | None, *, staff: bool = False
) -> dict[str, Any]:
    """The state of a table for one viewer, from the table as it is (a host's, in memory):
    a player their own seats' observations, everyone else the spectator's view. Raises
    CannotWatch for a table closed to spectators. No query but what the table's rows already
    hold (the match is read with its entrants and settings)."""
    tournament = match.tournament
    if table is not None:
        seats = table.seats
        live = table.live
    else:
        plan = next_game(tournament, match, [])
        seats = seating(match, tournament.players, plan.a_team if plan else 0)
        live = None
    settings = settings_of(tournament)
    player_id = player.pk if player is not None else None
    if not (staff or any(s.player == player_id for s in seats if player_id) or settings.spectators):
        raise CannotWatch("this table does not allow spectators")
    mine = [s.seat for s in seats if player_id is not None and s.player == player_id]
    game = table.game if table is not None else None
    if live is not None and live.waiting == LiveMatch.Waiting.NEXT:
        game = None  # not dealt yet: nobody sees its cards before the table is set
    to_act = game.to_act if game is not None else None
    deadline = live.turn_deadline if live is not None and live.waiting == "human" else None
    finished = table.finished if table is not None else []
    state: dict[str, Any] = {
        "match": match.pk,
        "key": match.key,
        "status": match.status,
        "tournament": {
            "id": tournament.pk,
            "name": tournament.name,
            "variant": tournament.variant,
            "players": tournament.players,
            # The deck the variant deals at these rules: the page draws its card faces from it.
            "deck": table.memo("deck", lambda: table_deck(tournament))
            if table is not None
            else table_deck(tournament),
        },
        "waiting": live.waiting if live is not None else "start",
        "version": live.version if live is not None else 0,
        "game": {
            "index": len(finished),
            "scheduled": len(scheduled(tournament, match)),
            "finished": len(finished),
        },
        "seats": [
            {**s.to_json(), "you": s.seat in mine, "to_act": s.seat == to_act} for s in seats
        ],
        "you": mine,
        "to_act": to_act,
        "turn": table.turn if game is not None else None,
        "your_turn": to_act is not None and to_act in mine,
        "turn_deadline": deadline.isoformat() if deadline else None,
        "seconds_left": max(0.0, (deadline - timezone.now()).total_seconds()) if deadline else None,
        "observations": {str(seat): game.observation(seat).to_dict() for seat in mine}
        if game
        else {},
        "table": public_view(game.state) if game is not None else None,
        "games": [
            {
                "index": g.index,
                "a_team": g.a_team,
                "score": list(g.result.score),
                "points_a": g.points[0],
                "points_b": g.points[1],
                "winner_side": g.winner_side,
                "termination": g.result.termination,
            }
            for g in finished
        ],
        "result": {
            "wins_a": match.wins_a,
            "wins_b": match.wins_b,
            "winner": match.winner_id,
        }
        if match.status == Match.Status.DONE
        else None,
        "settings": table.memo("options", lambda: table_options(settings))
        if table is not None
        else table_options(settings),
        "free_seats": free_seats(match) if settings.is_players_table else 0,
        "workers": workers_for(match, live),
        "end_vote": vote_state(table)
        if table is not None and settings.is_players_table and match.status == "running"
        else None,
        "rematch": rematch(match, mine),
    }
    state.update(explain(state, match, game, finished, mine))
    return state


def workers_for(match: Match, live: LiveMatch | None) -> dict[str, Any] | None:
    """Whether a table host is there to play the robots' replies of a running match (None when
    none is needed: the match is not running, or the requests play it: TRUCO_TABLES=inline)."""
    if match.status != Match.Status.RUNNING or live is None:
        return None
    if django_settings.TRUCO_TABLES != "hosts":
        return None
    if live.host_holds_it:
        # The host holding the table's lease renews it while it lives: no heartbeats to read
        # (a query in every state a web process renders, its cache of them being cold).
        return {"alive": True, "detail": "a table host holds this table", "workers": [live.host]}
    return host_health.status()


def free_seats(match: Match) -> int:
    per_side = match.tournament.players // 2
    return sum(per_side - len(e.members.all()) for _, e in free_teams(match))


def table_deck(tournament) -> str | None:
    """The deck of the tournament's rules, as the variant names it; None for rules a plugin
    no longer accepts."""
    try:
        variant = get_variant(tournament.variant)
        return variant.deck_for(variant.rules(tournament.options, tournament.preset or None))
    except TrucoError:
        return None
