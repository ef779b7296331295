"""Who plays which seat of a match's games, and which game comes next: the same plan of games as
a match of bots (`engine.match.schedule`, then deciders for a drawn elimination match), so that a
match with humans is played and recorded exactly like one without."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.match import MatchGame
from engine.match import MatchResult as EngineMatchResult
from engine.runner import GameResult
from tournaments.execution import MAX_DECIDERS, decider_game_seed, match_schedule
from tournaments.models import Match, Tournament


@dataclass(frozen=True)
class PlannedGame:
    index: int
    pair: int | None
    a_team: int
    seed: int
    decider: int | None = None  # which extra game settling a drawn elimination match


def scheduled(tournament: Tournament, match: Match) -> list[tuple[int, int | None, int, int]]:
    return match_schedule(tournament, match.seed)


def next_game(
    tournament: Tournament, match: Match, finished: list[MatchGame], needs_winner: bool
) -> PlannedGame | None:
    """The game to play after `finished`, or None once the match is decided."""
    plan = scheduled(tournament, match)
    n = len(finished)
    if n < len(plan):
        return PlannedGame(*plan[n])
    if not needs_winner or winner_side(tournament, match, finished) is not None:
        return None
    number = n - len(plan)
    if number >= MAX_DECIDERS:
        return None
    # As tournaments.execution plays them: each decider on its own deal, sides alternating.
    return PlannedGame(n, None, number % 2, decider_game_seed(match.seed, number), decider=number)


def winner_side(tournament: Tournament, match: Match, finished: list[MatchGame]) -> str | None:
    plan = scheduled(tournament, match)
    deciders = finished[len(plan) :]
    if deciders:
        decided = [g.winner_side for g in deciders if g.winner_side is not None]
        if decided:
            return decided[-1]
        return "a" if len(deciders) >= MAX_DECIDERS else None
    return EngineMatchResult(list(finished)).winner


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
