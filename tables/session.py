"""A game in progress with human seats, independent of Django: rebuilt from its setup and the
actions so far (a game is deterministic given its variant, options and seed), advanced through
the bots' turns, and acted on by the humans one decision at a time.

Bots are created afresh each time the game is advanced (a human decision can be hours away, and a
bot object cannot be stored); their generators are seeded one-way from the game seed, the seat and
the number of actions so far (engine/botseed.py). A robot whose code is not trusted runs in the
jail: one jailed process per robot seat per advance (the bot's turns until a human is to act),
which is what a table of humans can wait for.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.bot import DecisionTimeout
from engine.bot_logs import bounded
from engine.botseed import bot_seed
from engine.errors import IllegalAction
from engine.plugins import registry
from engine.protocol import shown_action
from engine.records import RecordKeeper
from engine.runner import ILLEGAL, IN_PROCESS, NORMAL, TIMEOUT, BotSpec, fault_of
from engine.seats import MatchContext, SeatPool
from engine.state import GameState

MAX_LOG_CHARS = 256 * 1024  # of a robot seat's log per game, as in bot matches


class NotYourTurn(Exception):
    """A seat acted while another seat is to act (or after the game ended)."""


@dataclass(frozen=True)
class GameSetup:
    variant: str
    players: int
    seed: int
    options: Mapping[str, Any] = field(default_factory=dict)
    preset: str | None = None


@dataclass
class Ending:
    """How a game ended: `normal`, or a forfeit by a bot (`crash`, `illegal_action`)."""

    termination: str = NORMAL
    seat: int | None = None
    detail: str = ""  # public: fixed phrases only
    fault_message: str = ""  # the bot's own text: for its owner and staff


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
        # What each robot seat wrote to its log so far in this game (bounded): its owner's.
        self.logs: dict[int, str] = {int(seat): text for seat, text in (logs or {}).items()}
        # A robot's deadline per decision (the table's budget): told to a jailed or remote bot
        # and enforced on it; None leaves the engine's default.
        self.decision_seconds = decision_seconds
        variant = registry().variant(setup.variant)
        self.state: GameState = variant.new_game(
            setup.players, setup.options or None, preset=setup.preset or None, seed=setup.seed
        )
        self.keeper = RecordKeeper(self.state)
        self.actions: list[list] = []
        self.auto_played: list[int] = list(auto_played)  # seats the timer played for, once each
        self.ending: Ending | None = None
        for seat, action in actions:
            self._apply(seat, action)

    # --- facts ------------------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.ending is not None or self.state.is_over

    @property
    def to_act(self) -> int | None:
        return None if self.finished else self.state.to_act

    @property
    def ply(self) -> int:
        """Actions so far: identifies the decision that is pending, for the turn timer."""
        return len(self.actions)

    def observation(self, seat: int) -> dict[str, Any]:
        if not 0 <= seat < self.setup.players:
            raise ValueError(f"seat must be from 0 to {self.setup.players - 1}, not {seat}")
        return self.state.observation(seat).to_dict()

    # --- acting -----------------------------------------------------------------------------
    def act(self, seat: int, action: str) -> None:
        """A human's decision for `seat`: only that seat's legal actions are accepted."""
        if self.finished:
            raise NotYourTurn("the game is over")
        if seat != self.state.to_act:
            raise NotYourTurn(f"seat {self.state.to_act} is to act, not seat {seat}")
        legal = self.state.observation(seat).legal
        if action not in legal:
            raise IllegalAction(action, legal)
        self._apply(seat, action)

    def auto_play(self) -> str:
        """The turn timer ran out: the game plays its default action for the seat to act."""
        seat = self.state.to_act
        action = self.state.rules.default_action(self.state)
        self._apply(seat, action)
        if seat not in self.auto_played:
            self.auto_played.append(seat)
        return action

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
        bots: dict[int, Any] = {}
        played = 0
        pool = SeatPool()
        try:
            while not self.finished and self.state.to_act in bot_seats and played < limit:
                if until is not None and played and time.monotonic() >= until:
                    break
                seat = self.state.to_act
                if seat not in bots:
                    bots[seat] = self._make_bot(seat, BotSpec.of(bot_seats[seat]), pool)
                observation = self.state.observation(seat)
                try:
                    action = bots[seat].act(observation)
                except DecisionTimeout:
                    # A jailed bot stopped at its deadline: the game plays for it, as in bot
                    # matches; a second time in the game forfeits it.
                    if seat in self.auto_played:
                        self.ending = Ending(TIMEOUT, seat, "a second decision past its deadline")
                        break
                    self.auto_play()
                    played += 1
                    continue
                except Exception as exc:  # a failing bot loses the game; the server goes on
                    termination, _, detail, message = fault_of(exc)
                    self.ending = Ending(termination, seat, detail, message)
                    break
                try:
                    self._apply(seat, action)
                except (IllegalAction, TypeError):
                    detail = f"answered {shown_action(action)}, not a legal action"
                    self.ending = Ending(ILLEGAL, seat, detail, f"answered {action!r}"[:2000])
                    break
                played += 1
        finally:
            self._keep_logs(pool.finish())
        return played

    def _keep_logs(self, logs: Mapping[int, str]) -> None:
        for seat, text in logs.items():
            self.logs[seat] = bounded(self.logs.get(seat, "") + text, MAX_LOG_CHARS)

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
        ending = self.ending or Ending()
        state = self.state
        if ending.termination == NORMAL:
            out: dict[str, Any] = {"score": list(state.score), "winner": state.winner}
        else:
            out = {
                "score": list(state.score),
                "winner": 1 - (ending.seat & 1),
                "termination": ending.termination,
                "seat": ending.seat,
                "detail": ending.detail,
            }
        if self.auto_played:
            out["timeouts"] = list(self.auto_played)
        return out

    def record(self) -> dict[str, Any]:
        """The game record so far (RECORDS.md); with its result once finished."""
        return self.keeper.record(self.state, self.result() if self.finished else None)

    # --- internals --------------------------------------------------------------------------
    def _apply(self, seat: int, action: str) -> None:
        if seat != self.state.to_act:
            raise NotYourTurn(f"seat {self.state.to_act} is to act, not seat {seat}")
        hand_no = self.state.hand_no
        self.state = self.state.apply(action)
        self.keeper.open_hand(hand_no).append([seat, action])
        self.actions.append([seat, action])

    def _make_bot(self, seat: int, spec: BotSpec, pool: SeatPool):
        seed = bot_seed(self.setup.seed, seat, salt=self.ply)
        if spec.isolation != IN_PROCESS:  # code the server does not trust: the jail
            context = MatchContext(
                self.setup.variant,
                self.state.options,
                self.setup.players,
                decision_seconds=self.decision_seconds,
            )
            actor = pool.actor(seat, spec, context)
            actor.begin_game(game=0, seat=seat, seed=seed)
            return actor
        factory = registry().bot(spec.name)
        return factory(
            variant=self.setup.variant,
            options=self.state.options,
            seat=seat,
            players=self.setup.players,
            rng=random.Random(seed),
            **dict(spec.params),
        )
