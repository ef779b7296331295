"""A game in progress with human seats, independent of Django: a thin adapter of the engine's game
session (engine/session.py), which plays it. The game is rebuilt from its setup and the actions
so far on every request (a game is deterministic given its variant, options and seed), advanced
through the bots' turns, and acted on by the humans one decision at a time.

Every seat is a person's to the session; the bots of an advance stand in for their seats for
that advance only (a human decision can be hours away, and a bot object cannot be stored): they
are made when they first decide, seeded one-way from the game seed, the seat and the number of
actions so far (engine/actors.py). A robot whose code is not trusted runs in the jail: one
jailed process per robot seat per advance.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.actors import ActorMaker
from engine.plugins import registry
from engine.runner import BotSpec
from engine.seats import SeatPool
from engine.session import PERSON, GameSession, GameSetup, NotYourTurn, keep_log
from engine.state import GameState

__all__ = ["GameSetup", "LiveGame", "NotYourTurn"]


class LiveGame:
    def __init__(
        self,
        setup: GameSetup,
        actions: Sequence[Sequence[Any]] = (),
        auto_played: Sequence[int] = (),
        decision_seconds: float | None = None,
        logs: Mapping[Any, str] | None = None,
    ):
        self.setup = setup
        # A robot's deadline per decision (the table's budget): told to a jailed or remote bot
        # and enforced on it; None leaves the engine's default. In-process robots are not timed
        # at a table (their time-like parameters are clamped to the budget instead).
        self.decision_seconds = decision_seconds
        reg = registry()
        state = setup.new_state(reg)
        self.maker = ActorMaker(
            variant=state.variant,
            options=state.options,
            players=state.players,
            seed=setup.seed,
            registry=reg,
            decision_seconds=decision_seconds,
        )
        self.session = GameSession(
            state,
            [PERSON] * state.players,
            maker=self.maker,
            actions=actions,
            timeouts=auto_played,
            logs=logs,
        )

    # --- facts ------------------------------------------------------------------------------
    @property
    def state(self) -> GameState:
        return self.session.state

    @property
    def keeper(self):
        return self.session.keeper

    @property
    def actions(self) -> list[list]:
        return self.session.actions

    @property
    def auto_played(self) -> list[int]:
        """Seats the timer played for, once each."""
        return self.session.timeouts

    @property
    def logs(self) -> dict[int, str]:
        """What each robot seat wrote to its log so far in this game (bounded): its owner's."""
        return self.session.logs

    @property
    def ending(self):
        return self.session.ending

    @property
    def finished(self) -> bool:
        return self.session.over

    @property
    def to_act(self) -> int | None:
        return self.session.to_act

    @property
    def ply(self) -> int:
        """Actions so far: identifies the decision that is pending, for the turn timer."""
        return self.session.ply

    def observation(self, seat: int) -> dict[str, Any]:
        return self.session.observation(seat).to_dict()

    # --- acting -----------------------------------------------------------------------------
    def act(self, seat: int, action: str) -> None:
        """A human's decision for `seat`: only that seat's legal actions are accepted."""
        self.session.act(seat, action)

    def auto_play(self) -> str:
        """The turn timer ran out: the game plays its default action for the seat to act."""
        return self.session.time_out()

    def play_bots(
        self,
        bot_seats: Mapping[int, BotSpec],
        *,
        limit: int = 100_000,
        until: float | None = None,
    ) -> int:
        """Play the bots' decisions until a seat not in `bot_seats` is to act or the game ends
        (or, past the `until` of time.monotonic(), before the next decision). A bot that raises
        or answers an illegal action forfeits the game, as in bot matches. Returns the number
        of actions played."""
        session = self.session
        before = session.ply
        pool = SeatPool()
        self.maker.pool = pool  # the jailed robots of this advance live in it
        try:
            for seat, spec in bot_seats.items():
                session.stand_in(seat, BotSpec.of(spec), key=seat)
            session.advance(until=until)
        finally:
            for seat in session.stood_in():
                session.hand_back(seat)
            for seat, text in pool.finish().items():
                session.logs[seat] = keep_log(session.logs.get(seat, ""), text)
            self.maker.pool = None
        return session.ply - before

    def advance(
        self,
        bot_seats: Mapping[int, BotSpec],
        *,
        absent: Callable[[int], bool] = lambda seat: False,
        until: float | None = None,
    ) -> None:
        """Bots play; a seat reported `absent` (a human past the disconnection grace) is
        auto-played; stops at a present human's decision or at the end of the game, or with a
        bot still to act once past `until` (time.monotonic())."""
        while not self.finished:
            self.play_bots(bot_seats, until=until)
            if self.finished or not absent(self.state.to_act):
                return
            self.auto_play()

    # --- the outcome ------------------------------------------------------------------------
    def result(self) -> dict[str, Any]:
        """The record's `result`, as the engine's runner writes it."""
        return self.session.result()

    def record(self) -> dict[str, Any]:
        """The game record so far (RECORDS.md); with its result once finished."""
        return self.session.record()
