"""Who plays which seat of a match's games, and which game comes next: the same plan of games as
a match of bots (`engine.match.schedule`, then deciders for a drawn elimination match), so that a
match with humans is played and recorded exactly like one without."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.match import MatchGame
from engine.match import MatchResult as EngineMatchResult
from engine.plugins import registry
from engine.runner import BotSpec, GameResult
from tournaments.budgets import playing_spec
from tournaments.execution import MAX_DECIDERS, decider_game_seed, match_schedule
from tournaments.models import Entrant, Match, Tournament

# A team with fewer players than seats (one human in a 2v2) gets a robot partner, as Truco sites
# fill empty seats; it also plays for a human who is away past the disconnection grace.
ROBOT_PREFERENCE = ("heuristic", "random")


def robot() -> BotSpec:
    bots = registry().bots
    for name in ROBOT_PREFERENCE:
        if name in bots:
            return BotSpec(name)
    return BotSpec(sorted(bots)[0])


@dataclass(frozen=True)
class Seat:
    seat: int
    side: str  # "a" or "b"
    entrant: int
    player: int | None  # the human sitting here, if any
    name: str
    bot: BotSpec | None  # who decides when no human does

    @property
    def is_human(self) -> bool:
        return self.player is not None

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "team": self.seat & 1,
            "side": self.side,
            "entrant": self.entrant,
            "player": self.player,
            "name": self.name,
            "kind": "human" if self.is_human else "bot",
        }


def entrant_seats(
    entrant: Entrant, seats: list[int], turn_seconds: int | None = None
) -> list[tuple[int | None, str, BotSpec]]:
    """(player, name, bot) for each of a side's seats, partners in seat order; a bot's time
    budget is the table's (`turn_seconds`)."""
    if entrant.bot is not None:
        spec = playing_spec(entrant.bot, turn_seconds)
        return [(None, entrant.bot.label, spec) for _ in seats]
    members = sorted(entrant.members.all(), key=lambda p: p.pk)
    out = []
    for i, _ in enumerate(seats):
        if i < len(members):
            out.append((members[i].pk, members[i].name, robot()))
        else:
            out.append((None, f"robot ({robot().name})", robot()))
    return out


def seating(match: Match, players: int, a_team: int) -> list[Seat]:
    """The seats of one game: side A sits on team `a_team`, partners opposite."""
    sides = {"a": match.entrant_a, "b": match.entrant_b}
    turn_seconds = match.tournament.table.turn_seconds
    out: list[Seat | None] = [None] * players
    for side, entrant in sides.items():
        team = a_team if side == "a" else 1 - a_team
        seats = [s for s in range(players) if s % 2 == team]
        for seat, (player, name, bot) in zip(
            seats, entrant_seats(entrant, seats, turn_seconds), strict=True
        ):
            out[seat] = Seat(seat, side, entrant.pk, player, name, bot)
    return out  # type: ignore[return-value]


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
        # Kept with the live match, never shown by the table's state (play/views_state.py).
        "fault_message": r.fault_message,
        "logs": {str(seat): text for seat, text in r.logs.items()},
    }
