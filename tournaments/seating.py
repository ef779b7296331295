"""Who plays which seat of a match's games: side A sits on team `a_team`, partners opposite; a bot
entrant plays every seat of its team; a team with fewer people than seats gets a robot partner,
who also plays for a person away past the disconnection grace. Workers, tables and the replay's
seat names all read the seats from here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.plugins import registry
from engine.runner import BotSpec
from submitted_bots.playing import spec_for
from tournaments.models import Entrant, Match

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
        spec = spec_for(entrant.bot, turn_seconds)
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
    turn_seconds = match.tournament.turn_seconds
    out: list[Seat | None] = [None] * players
    for side, entrant in sides.items():
        team = a_team if side == "a" else 1 - a_team
        seats = [s for s in range(players) if s % 2 == team]
        for seat, (player, name, bot) in zip(
            seats, entrant_seats(entrant, seats, turn_seconds), strict=True
        ):
            out[seat] = Seat(seat, side, entrant.pk, player, name, bot)
    return out  # type: ignore[return-value]
