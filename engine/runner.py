"""Plays games between bots and writes their records, through the game session
(engine/session.py: the one game loop, with its typed terminations, timeouts and logs).

Bots run in-process (trusted built-ins: fastest; a decision's time is measured after it
returns) or outside it, started once per seat per match and kept across its games
(engine/seats.py): `jail` (engine/jail: code the server does not trust, a registered plugin
through the protocol shim or a `Program`, a command) or `remote` (an HTTP bot, engine/remote.py).
Those speak the bot protocol (engine/protocol.py) and have a hard deadline per decision: a bot
that loops forever is stopped at its deadline and the game goes on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .actors import ActorMaker, BrokenBot, close_bots
from .bot_spec import IN_PROCESS, ISOLATIONS, JAIL, PROCESS, REMOTE, BotSpec
from .plugins import plugin_manager, registry
from .seats import SeatPool
from .session import (
    CRASH,
    ILLEGAL,
    NORMAL,
    TERMINATIONS,
    TIMEOUT,
    GameResult,
    GameSession,
    GameSetup,
    deadline_text,
    fault_of,
)
from .state import GameState
from .time_control import TimeControl

__all__ = [
    "CRASH",
    "ILLEGAL",
    "IN_PROCESS",
    "ISOLATIONS",
    "JAIL",
    "NORMAL",
    "PROCESS",
    "REMOTE",
    "TERMINATIONS",
    "TIMEOUT",
    "BotSpec",
    "BrokenBot",
    "GameResult",
    "close_bots",
    "deadline_text",
    "fault_of",
    "make_bots",
    "notify_finished",
    "play_game",
    "run_game",
]


def make_bots(
    variant,
    state: GameState,
    bots: Sequence[BotSpec | str],
    seed: int,
    reg=None,
    decision_seconds: float | None = None,
    *,
    pool: SeatPool | None = None,
    seat_keys: Sequence[Any] | None = None,
    game_index: int = 0,
):
    """One actor per seat, seeded as every game seeds them (engine/actors.py). In-process bots
    are built for this game; the others come from `pool` (kept across the games of a match,
    under `seat_keys[seat]`) and hear of the new game and their seat."""
    maker = ActorMaker(
        variant=variant.name,
        options=state.options,
        players=state.players,
        seed=seed,
        registry=reg or registry(),
        decision_seconds=decision_seconds,
        pool=pool,
        seat_keys=seat_keys,
        game_index=game_index,
    )
    return [maker.make(seat, spec) for seat, spec in enumerate(bots)]


def notify_finished(result: GameResult) -> None:
    """Observers (the `truco_game_finished` hook) hear of a finished game."""
    plugin_manager().hook.truco_game_finished(result=result)


def play_game(
    variant,
    bots: Sequence[BotSpec | str],
    *,
    options: Mapping[str, Any] | None = None,
    preset: str | None = None,
    seed: int = 0,
    first_dealer: int | None = None,
    start_score: Sequence[int] = (0, 0),
    decision_seconds: float | None = None,
    time_control: TimeControl | str | None = None,
    notify: bool = True,
    pool: SeatPool | None = None,
    seat_keys: Sequence[Any] | None = None,
    game_index: int = 0,
) -> GameResult:
    """Play one game (`bots[i]` sits at seat i). Out-of-process bots come from `pool` when one
    is given (a match keeps them across its games); otherwise they live for this game only."""
    reg = registry()
    if isinstance(variant, str):
        variant = reg.variant(variant)
    setup = GameSetup(
        variant.name,
        len(bots),
        seed,
        options or {},
        preset,
        first_dealer,
        tuple(start_score),
    )
    own_pool = pool is None
    pool = SeatPool() if own_pool else pool
    try:
        session = GameSession.start(
            setup,
            list(bots),
            registry=reg,
            pool=pool,
            seat_keys=seat_keys,
            game_index=game_index,
            decision_seconds=decision_seconds,
            time_control=time_control,
        )
        session.advance()
    finally:
        if own_pool:
            pool.close()
    if notify:
        notify_finished(session.outcome)
    return session.outcome


def run_game(
    state: GameState,
    seats: Sequence[Any],
    *,
    decision_seconds: float | None = None,
    time_control: TimeControl | str | None = None,
    notify: bool = True,
) -> GameResult:
    """Run `state` to the end with one actor per seat (anything with `act(observation)`). An
    actor with `enforces_deadline` set (a jailed or remote bot) keeps its own hard deadline and
    raises `DecisionTimeout`; the others are timed here, after they answer."""
    session = GameSession(
        state, seats, decision_seconds=decision_seconds, time_control=time_control
    )
    session.advance()
    if notify:
        notify_finished(session.outcome)
    return session.outcome
