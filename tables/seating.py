"""Who plays which seat of a match's games, and which game comes next: the same plan of games as
a match of bots (`engine.match.schedule`, then deciders for a drawn elimination match), so that a
match with humans is played and recorded exactly like one without."""

from __future__ import annotations

from typing import Any

from engine.match import MatchGame
from engine.match_plan import MatchPlan, PlannedGame
from engine.runner import GameResult
from tournaments.models import Match, Tournament
from tournaments.scheduling import match_plan


def plan_of(match: Match) -> MatchPlan:
    return match_plan(match.tournament, match.seed)


def scheduled(tournament: Tournament, match: Match) -> list[PlannedGame]:
    return match_plan(tournament, match.seed).scheduled


def next_game(
    tournament: Tournament, match: Match, finished: list[MatchGame]
) -> PlannedGame | None:
    """The game to play after `finished`, or None once the match is decided."""
    return match_plan(tournament, match.seed).next_game(finished)


def winner_side(tournament: Tournament, match: Match, finished: list[MatchGame]) -> str | None:
    return match_plan(tournament, match.seed).winner(finished)


def game_from_json(data: dict[str, Any]) -> MatchGame:
    result = GameResult(
        record=data["record"],
        score=tuple(data["score"]),
        winner=data["winner"],
        termination=data["termination"],
        seat=data.get("seat"),
        detail=data.get("detail", ""),
        hands=data["hands"],
        actions=data["actions"],
        timeouts=list(data.get("timeouts", [])),
        fault_message=data.get("fault_message", ""),
        logs={int(seat): text for seat, text in data.get("logs", {}).items()},
    )
    return MatchGame(data["index"], data["pair"], data["a_team"], data["seed"], result)


def game_to_json(game: MatchGame) -> dict[str, Any]:
    r = game.result
    return {
        "index": game.index,
        "pair": game.pair,
        "a_team": game.a_team,
        "seed": game.seed,
        "record": r.record,
        "score": list(r.score),
        "winner": r.winner,
        "termination": r.termination,
        "seat": r.seat,
        "detail": r.detail,
        "hands": r.hands,
        "actions": r.actions,
        "timeouts": list(r.timeouts),
        # Kept with the live match, never shown by the table's state (tables/views_state.py).
        "fault_message": r.fault_message,
        "logs": {str(seat): text for seat, text in r.logs.items()},
    }
