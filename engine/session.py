"""A game being played: the one implementation of a game's loop, for matches of bots
(engine/runner.py, engine/match.py) and for tables where people sit alike.

Each seat is played by code (an actor: an in-process bot, or a jailed or remote one speaking the
bot protocol) or by a person, for whom the session waits. `advance` plays the code seats up to a
person's decision, the end of the game, or a time limit; `act` takes a person's decision;
`time_out` plays for the seat to act when its time ran out; `forfeit` ends the game by a seat's
fault; `stand_in` lets a robot play for a person (away past the disconnection grace) until
`hand_back`. A game is fixed by its variant, options and seed, so a session is resumed from its
saved actions (`GameSession.resume`) without asking any bot anything.

Every game ends with a typed termination, as chess-engine testers do: `normal`; `timeout` (a
bot's second decision past its deadline in one game: the first is played by the game's default
move, "when the time runs out, the game plays for him"; or a bot's time bank ran dry,
engine/time_control.py); `crash` (the bot raised, or its process died); `illegal_action` (it
answered something that is not legal). The last three forfeit the game to the other team, and
the record says what happened. A person's time running out never forfeits: the game plays the
default action for them, every time.

`GameResult.detail` is public (it is in the record): fixed phrases only. The bot's own error text
is `fault_message` and what it logged is `logs`, both for its owner and staff only.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .actors import ActorMaker
from .bot import Bot, BotCrashed, DecisionTimeout
from .bot_logs import GAME_LOG_CHARS, bounded
from .bot_spec import BotSpec
from .errors import IllegalAction, TrucoError
from .observation import Observation
from .plugins import registry as default_registry
from .protocol import MalformedReply, ProtocolError, shown_action
from .records import RecordKeeper
from .seats import SeatPool
from .spectator import public_view
from .state import DEAL, GameState
from .time_control import TimeControl

NORMAL = "normal"
TIMEOUT = "timeout"
CRASH = "crash"
ILLEGAL = "illegal_action"
TERMINATIONS = (NORMAL, TIMEOUT, CRASH, ILLEGAL)

PERSON = None  # a seat a person plays: the session waits for their decision

# What `advance` stopped at.
WAITING = "waiting"  # a person is to act
OVER = "over"  # the game ended
PAUSED = "paused"  # the time limit came with code still to act: advance again to go on

MAX_LOG_CHARS = GAME_LOG_CHARS  # of a seat's log per game: past it, the rest is counted, not kept
# At most this long, at a game's end, for a bot out of this process to hear it before its log is
# read: what it writes then belongs to the game (more than that counts towards its next game).
SETTLE_SECONDS = 0.25


class NotYourTurn(TrucoError):
    """A seat acted while another seat is to act, or after the game ended, or a person acted
    for a seat that code plays."""


@dataclass(frozen=True)
class GameSetup:
    """What fixes a game, with its seed: replaying its actions gives the same game."""

    variant: str
    players: int
    seed: int
    options: Mapping[str, Any] = field(default_factory=dict)
    preset: str | None = None
    first_dealer: int | None = None
    start_score: tuple[int, int] = (0, 0)

    def new_state(self, registry=None) -> GameState:
        if registry is None:
            registry = default_registry()
        variant = registry.variant(self.variant)
        return variant.new_game(
            self.players,
            self.options or None,
            preset=self.preset or None,
            seed=self.seed,
            first_dealer=self.first_dealer,
            start_score=self.start_score,
        )


@dataclass
class GameResult:
    record: dict[str, Any]
    score: tuple[int, int]
    winner: int | None
    termination: str
    seat: int | None = None  # the seat at fault, for a forfeit
    detail: str = ""
    hands: int = 0
    actions: int = 0
    timeouts: list[int] = field(
        default_factory=list
    )  # seats that timed out once and were auto-played
    fault_message: str = ""  # the faulty bot's own error text: private (owner and staff)
    logs: dict[int, str] = field(default_factory=dict)  # seat -> its log in this game: private


def fault_of(exc: Exception) -> tuple[str, None, str, str]:
    """(termination, seat, public detail, private message) of a decision that raised."""
    if isinstance(exc, ProtocolError):
        termination = ILLEGAL if isinstance(exc, MalformedReply) else CRASH
        return termination, None, exc.detail, exc.fault_message
    if isinstance(exc, BotCrashed):
        return CRASH, None, "the bot crashed", str(exc)[:2000]
    return CRASH, None, "the bot raised an exception", f"{type(exc).__name__}: {exc}"[:2000]


def deadline_text(bot, decision_seconds: float | None) -> str:
    seconds = decision_seconds if decision_seconds is not None else getattr(bot, "deadline", None)
    return f"{seconds}s" if seconds is not None else "the deadline"


def keep_log(kept: str, text: str, limit: int = MAX_LOG_CHARS) -> str:
    """`kept` with `text` added, bounded to `limit` characters: its head and its tail, with
    the count of what was dropped between (engine/bot_logs.py)."""
    return bounded(kept + text, limit) if text else kept


def _overrides(bot, name: str) -> bool:
    method = getattr(type(bot), name, None)
    return method is not None and method is not getattr(Bot, name)


@dataclass
class _Ending:
    termination: str = NORMAL
    seat: int | None = None
    detail: str = ""  # public: fixed phrases only
    fault_message: str = ""  # the bot's own text: for its owner and staff


class GameSession:
    """One game, seat by seat played by code or by a person (see the module's docstring).

    `seats[i]` is `PERSON`, an actor (anything with `act(observation)`), or a bot to make
    (a `BotSpec` or a registered name: needs `maker`, which seeds it). Bots of a game that
    starts here are made at once; those of a resumed game, and robots standing in for people,
    when they first decide (salted with the number of actions so far: engine/actors.py)."""

    def __init__(
        self,
        state: GameState,
        seats: Sequence[Any],
        *,
        maker: ActorMaker | None = None,
        decision_seconds: float | None = None,
        time_control: TimeControl | str | None = None,
        actions: Sequence[Sequence[Any]] = (),
        timeouts: Sequence[int] = (),
        logs: Mapping[Any, str] | None = None,
        clocks: Sequence[float] | None = None,
        on_end: Callable[[GameSession], None] | None = None,
        on_action: Callable[[GameSession], None] | None = None,
    ):
        if len(seats) != state.players:
            raise ValueError(f"a game of {state.players} players needs {state.players} seats")
        self.state = state
        self.maker = maker
        self.decision_seconds = decision_seconds
        self.time_control = TimeControl.of(time_control)
        self.keeper = RecordKeeper(state)
        self.ply = 0  # actions so far: names the decision that is pending
        self.timeouts: list[int] = list(timeouts)  # seats played for when their time ran out
        self.logs: dict[int, str] = {int(s): text for s, text in (logs or {}).items() if text}
        self.on_end: list[Callable[[GameSession], None]] = [on_end] if on_end else []
        # Hears every action played from now on (a spectator's feed), after it is applied.
        self.on_action: list[Callable[[GameSession], None]] = [on_action] if on_action else []
        self.ending: _Ending | None = None
        self.outcome: GameResult | None = None
        players = state.players
        self._actors: list[Any] = [None] * players  # who decides now, once made
        self._specs: list[Any] = [None] * players  # code not made yet (made when it decides)
        self._persons = [False] * players
        self._stand_in_keys: dict[int, Hashable] = {}
        self._limits: list[float | None] = [None] * players  # timed here, after the answer
        self._hand_enders: list[int] = []
        bank = self.time_control.bank if self.time_control else None
        self.clocks: list[float] | None = (
            None if bank is None else list(clocks) if clocks is not None else [bank] * players
        )
        for seat, driver in enumerate(seats):
            if driver is PERSON:
                self._persons[seat] = True
            elif isinstance(driver, (BotSpec, str)):
                if maker is None:
                    raise ValueError("a seat given as a bot to make needs an ActorMaker")
                self._specs[seat] = driver
            else:
                self._seat_actor(seat, driver)
        for seat, action in actions:
            self._replay(seat, action)
        if not actions:  # a game starting now: its bots are made before its first decision
            for seat in range(players):
                if self._specs[seat] is not None and self._actors[seat] is None:
                    self._make(seat)
        elif self.over:  # saved actions that end the game: it ends now, for whoever listens
            self._over()

    # --- making sessions -------------------------------------------------------------------
    @classmethod
    def start(
        cls,
        setup: GameSetup,
        seats: Sequence[Any],
        *,
        registry=None,
        pool: SeatPool | None = None,
        seat_keys: Sequence[Hashable] | None = None,
        game_index: int = 0,
        decision_seconds: float | None = None,
        **kwargs: Any,
    ) -> GameSession:
        """A game dealt from `setup`, its bots made with their seeds (`kwargs` as for the
        constructor: time_control, on_end...)."""
        if registry is None:
            registry = default_registry()
        state = setup.new_state(registry)
        maker = ActorMaker(
            variant=state.variant,
            options=state.options,
            players=state.players,
            seed=setup.seed,
            registry=registry,
            decision_seconds=decision_seconds,
            pool=pool,
            seat_keys=seat_keys,
            game_index=game_index,
        )
        return cls(state, seats, maker=maker, decision_seconds=decision_seconds, **kwargs)

    @classmethod
    def resume(
        cls,
        setup: GameSetup,
        seats: Sequence[Any],
        actions: Sequence[Sequence[Any]],
        *,
        timeouts: Sequence[int] = (),
        logs: Mapping[Any, str] | None = None,
        **kwargs: Any,
    ) -> GameSession:
        """The game of `setup` after its saved `actions` ([seat, action] pairs), its
        `timeouts` and its seats' `logs` so far: no bot is asked anything to get there.
        Raises IllegalAction or NotYourTurn for actions that are not this game's."""
        return cls.start(setup, seats, actions=actions, timeouts=timeouts, logs=logs, **kwargs)

    # --- facts -----------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.state.players

    @property
    def over(self) -> bool:
        return self.ending is not None or self.state.winner is not None or self.state.phase == DEAL

    @property
    def to_act(self) -> int | None:
        """The seat to act, None once the game is over."""
        return None if self.over else self.state.to_act

    @property
    def waiting_for_person(self) -> bool:
        """Whether the game waits for a person's decision (no robot stands in for them)."""
        seat = self.to_act
        return seat is not None and self._persons[seat] and seat not in self._stand_in_keys

    @property
    def actions(self) -> list[list]:
        """Every [seat, action] so far, in order: what resumes the game."""
        return [list(a) for hand in self.keeper.hands for a in hand]

    def is_person(self, seat: int) -> bool:
        return self._persons[seat]

    def stood_in(self) -> list[int]:
        """The people's seats a robot plays for now."""
        return sorted(self._stand_in_keys)

    def public_view(self, *, reveal: bool = False) -> dict[str, Any]:
        """What a spectator may see of the game now (engine/spectator.py)."""
        return public_view(self.state, reveal=reveal)

    def observation(self, seat: int) -> Observation:
        if type(seat) is not int or not 0 <= seat < self.players:
            raise ValueError(f"seat must be from 0 to {self.players - 1}, not {seat!r}")
        return self.state.observation(seat)

    # --- playing ---------------------------------------------------------------------------
    def advance(self, until: float | None = None) -> str:
        """Play the code seats until a person is to act (WAITING), the game ends (OVER) or,
        with at least one decision played, `until` (a time.monotonic() deadline) passed with
        code still to act (PAUSED)."""
        if self.over:
            return self._over()
        state = self.state
        actors, specs, limits = self._actors, self._specs, self._limits
        clocks = self.clocks
        timeouts = self.timeouts
        keeper = self.keeper
        hand_no = state.hand_no
        hand_actions = keeper.open_hand(hand_no)
        # One game keeps one rules object: calling it directly saves two calls per decision.
        rules = state.rules
        observe, apply = rules.observation, rules.apply
        clock = time.perf_counter
        monotonic = time.monotonic
        banked = clocks is not None
        listeners = self.on_action
        first = ply = self.ply
        # The decision's count is kept in `ply` and written back before anything that reads it.
        while True:
            seat = state.to_act
            actor = actors[seat]
            if actor is None:
                if specs[seat] is None:
                    self.state, self.ply = state, ply
                    return WAITING
                self.state, self.ply = state, ply
                actor = self._make(seat)
            if until is not None and ply != first and monotonic() >= until:
                self.state, self.ply = state, ply
                return PAUSED
            observation = observe(state, seat)
            limit = limits[seat]
            timed = banked or limit is not None
            given = self._give_deadline(seat, actor) if banked else None
            started = clock() if timed else 0.0
            late = False
            try:
                action = actor.act(observation)
            except DecisionTimeout:
                late = True
            except Exception as exc:  # a bot that raises loses the game; the match goes on
                if given is not None:
                    actor.deadline = given[0]
                self.state, self.ply = state, ply
                termination, _, detail, message = fault_of(exc)
                self._end(_Ending(termination, seat, detail, message))
                return OVER
            if timed:
                used = clock() - started
                if banked:
                    if given is not None:
                        actor.deadline = given[0]
                    if self._spend(seat, used, late, given):
                        self.state, self.ply = state, ply
                        return OVER
                if limit is not None and used > limit:
                    late = True
            if late:
                if seat in timeouts:
                    self.state, self.ply = state, ply
                    detail = f"second decision over {deadline_text(actor, self.decision_seconds)}"
                    self._end(_Ending(TIMEOUT, seat, detail))
                    return OVER
                timeouts.append(seat)
                action = rules.default_action(state)
            try:
                state = apply(state, action)
            except (IllegalAction, TypeError):  # TypeError: an answer that is not even a string
                self.state, self.ply = state, ply
                detail = f"answered {shown_action(action)}, not a legal action"
                self._end(_Ending(ILLEGAL, seat, detail, f"answered {action!r}"[:2000]))
                return OVER
            hand_actions.append([seat, action])
            ply += 1
            if listeners:
                self.state, self.ply = state, ply
                for listener in listeners:
                    listener(self)
            if state.hand_no != hand_no:
                hand_no = state.hand_no
                hand_actions = keeper.open_hand(hand_no)
                self.state, self.ply = state, ply
                if self._hand_enders and self._hand_ended(state):
                    return OVER
            if state.winner is not None or state.phase == DEAL:
                self.state, self.ply = state, ply
                return self._over()

    def act(self, seat: int, action: str) -> None:
        """A person's decision for `seat`: only the seat to act, only one of its legal actions
        (NotYourTurn or IllegalAction otherwise, and nothing changes). A person who acts while a
        robot stands in for them is back: the seat is theirs again."""
        if self.over:
            raise NotYourTurn("the game is over")
        if type(seat) is not int or not 0 <= seat < self.players:
            raise NotYourTurn(f"there is no seat {seat!r} at this table")
        if seat != self.state.to_act:
            raise NotYourTurn(f"seat {self.state.to_act} is to act, not seat {seat}")
        if not self._persons[seat]:
            raise NotYourTurn(f"seat {seat} is played by a bot, not by a person")
        legal = self.state.legal_actions()
        if not isinstance(action, str) or action not in legal:
            raise IllegalAction(action, legal)
        if seat in self._stand_in_keys:
            self.hand_back(seat)
        self._apply(seat, action)

    def time_out(self) -> str | None:
        """The time of the seat to act ran out (a person's turn timer, or a bot's deadline that
        something else keeps): the game plays its default action for it and the result lists
        the seat in `timeouts`. A person is played for every time; a bot's second time in the
        game forfeits it (`timeout`). Returns the action played, None if the game ended."""
        if self.over:
            raise NotYourTurn("the game is over")
        seat = self.state.to_act
        person = self._persons[seat] and seat not in self._stand_in_keys
        if not person and seat in self.timeouts:
            detail = (
                f"second decision over {deadline_text(self._actors[seat], self.decision_seconds)}"
            )
            self._end(_Ending(TIMEOUT, seat, detail))
            return None
        action = self.state.rules.default_action(self.state)
        if seat not in self.timeouts:
            self.timeouts.append(seat)
        self._apply(seat, action)
        return action

    def forfeit(
        self, seat: int, termination: str = CRASH, detail: str = "", fault_message: str = ""
    ) -> None:
        """End the game by `seat`'s fault: its team loses. `detail` is public (fixed phrases
        only), `fault_message` private (its owner and staff)."""
        if self.over:
            raise NotYourTurn("the game is over")
        if termination not in TERMINATIONS or termination == NORMAL:
            raise ValueError(f"a forfeit's termination is one of {', '.join(TERMINATIONS[1:])}")
        if type(seat) is not int or not 0 <= seat < self.players:
            raise ValueError(f"seat must be from 0 to {self.players - 1}, not {seat!r}")
        self._end(_Ending(termination, seat, detail, fault_message))

    def stand_in(self, seat: int, robot: BotSpec | str, key: Hashable = None) -> None:
        """A robot plays for the person of `seat` (away past the disconnection grace) until
        `hand_back` or until the person acts. It is made when it first decides, seeded for
        that point of the game; a robot outside this process lives in the pool under `key`."""
        self.observation(seat)  # a seat of this table, or ValueError
        if not self._persons[seat]:
            raise ValueError(f"seat {seat} is played by code already")
        if self.maker is None:
            raise ValueError("a robot stand-in needs an ActorMaker")
        if seat in self._stand_in_keys:
            if self._specs[seat] == BotSpec.of(robot):
                return
            self.hand_back(seat)
        self._specs[seat] = BotSpec.of(robot)
        self._stand_in_keys[seat] = ("stand-in", seat) if key is None else key

    def hand_back(self, seat: int) -> None:
        """The person of `seat` plays again: the robot standing in for them stops (what it
        logged is kept with the seat's log)."""
        if seat not in self._stand_in_keys:
            return
        del self._stand_in_keys[seat]
        actor = self._actors[seat]
        if actor is not None:
            self._collect_log(seat, actor)
        self._unseat(seat)
        self._specs[seat] = None

    # --- the outcome -----------------------------------------------------------------------
    def result(self) -> dict[str, Any]:
        """The record's `result`, as the runner writes it (docs/records.md)."""
        ending = self.ending or _Ending()
        state = self.state
        if ending.termination == NORMAL:
            out: dict[str, Any] = {"score": list(state.score), "winner": state.winner}
        else:
            out = {
                "score": list(state.score),
                "winner": 1 - (ending.seat & 1),  # a forfeit: the other team wins the game
                "termination": ending.termination,
                "seat": ending.seat,
                "detail": ending.detail,
            }
        if self.timeouts:
            out["timeouts"] = list(self.timeouts)
        if self.time_control is not None:
            out["time_control"] = str(self.time_control)
        return out

    def record(self) -> dict[str, Any]:
        """The game record so far (docs/records.md), with its result once the game is over."""
        return self.keeper.record(self.state, self.result() if self.over else None)

    # --- internals -------------------------------------------------------------------------
    def _seat_actor(self, seat: int, actor) -> None:
        self._actors[seat] = actor
        self._limits[seat] = (
            None if getattr(actor, "enforces_deadline", False) else self.decision_seconds
        )
        if _overrides(actor, "on_hand_end") and seat not in self._hand_enders:
            self._hand_enders.append(seat)
            self._hand_enders.sort()

    def _unseat(self, seat: int) -> None:
        self._actors[seat] = None
        self._limits[seat] = None
        if seat in self._hand_enders:
            self._hand_enders.remove(seat)

    def _make(self, seat: int):
        key = self._stand_in_keys.get(seat)
        actor = self.maker.make(seat, self._specs[seat], salt=self.ply, key=key)
        self._seat_actor(seat, actor)
        return actor

    def _replay(self, seat: int, action: str) -> None:
        if self.over:
            raise NotYourTurn("the game is over: saved actions go past its end")
        if seat != self.state.to_act:
            raise NotYourTurn(f"seat {self.state.to_act} is to act, not seat {seat}")
        self._apply(seat, action, notify=False)

    def _apply(self, seat: int, action: str, notify: bool = True) -> None:
        state = self.state
        hand_no = state.hand_no
        state = state.apply(action)
        self.keeper.open_hand(hand_no).append([seat, action])
        self.ply += 1
        self.state = state
        if notify:
            for listener in self.on_action:
                listener(self)
        if state.hand_no != hand_no:
            self.keeper.open_hand(state.hand_no)
            if notify and self._hand_enders and self._hand_ended(state):
                return
        if notify and self.over:
            self._over()

    def _hand_ended(self, state: GameState) -> bool:
        """Tell the bots that hear of hands; True if one of them raised (its crash)."""
        for seat in list(self._hand_enders):
            try:
                self._actors[seat].on_hand_end(state.observation(seat))
            except Exception as exc:
                termination, _, detail, message = fault_of(exc)
                self._end(_Ending(termination, seat, detail, message))
                return True
        return False

    def _give_deadline(self, seat: int, actor) -> tuple[float, float] | None:
        """For an actor that keeps its own hard deadline: (its usual deadline, the one given for
        this decision: no more than what is left of the seat's bank)."""
        if not getattr(actor, "enforces_deadline", False):
            return None
        usual = actor.deadline
        given = min(usual, max(self.clocks[seat], 0.0))
        actor.deadline = given
        return usual, given

    def _spend(self, seat: int, used: float, late: bool, given) -> bool:
        """Take a decision's time from the seat's bank, then add the increment; True if the bank
        ran dry (the game is over: `timeout`). An actor that keeps its own deadline is charged
        no more than it was given (its start-up is not its thinking)."""
        left = self.clocks[seat]
        if given is not None:
            usual, allowed = given
            # Stopped by the bank rather than by the decision's limit: the bank is empty.
            used = left + 1.0 if late and allowed < usual else min(used, allowed)
        left -= used
        if left < 0:
            self.clocks[seat] = 0.0
            detail = f"used up its time bank of the {self.time_control} time control"
            self._end(_Ending(TIMEOUT, seat, detail))
            return True
        self.clocks[seat] = left + self.time_control.increment
        return False

    def _collect_log(self, seat: int, actor) -> None:
        log_since_last = getattr(actor, "log_since_last", None)
        text = log_since_last() if log_since_last is not None else ""
        if text:
            self.logs[seat] = keep_log(self.logs.get(seat, ""), text)

    def _over(self) -> str:
        if self.outcome is None:
            self._end(self.ending or _Ending())
        return OVER

    def _end(self, ending: _Ending) -> None:
        """The game is over: the bots hear the result, their logs are kept, the result and the
        record are written and whoever listens hears of it."""
        if self.outcome is not None:
            return
        self.ending = ending
        state = self.state
        result = self.result()
        record = self.keeper.record(state, result)
        made = [(seat, actor) for seat, actor in enumerate(self._actors) if actor is not None]
        for seat, actor in made:
            try:
                if hasattr(actor, "end_game"):  # out of process: it hears the result too
                    actor.end_game(state.observation(seat), result)
                elif _overrides(actor, "on_game_end"):
                    actor.on_game_end(state.observation(seat))
            except Exception:  # a notice is a courtesy: a bot failing on it changes nothing
                pass
        # Bots in the jail: what they log on hearing the end is this game's. They all hear it
        # first, then each is waited for, so that they take it in at the same time.
        settlers = [actor.settle for _, actor in made if hasattr(actor, "settle")]
        for seconds in (0.0, SETTLE_SECONDS) if settlers else ():
            for settle in settlers:
                try:
                    settle(seconds)
                except Exception:  # as a notice: a bot failing on it changes nothing
                    pass
        for seat, actor in made:
            self._collect_log(seat, actor)
        self.outcome = GameResult(
            record=record,
            score=state.score,
            winner=result["winner"],
            termination=ending.termination,
            seat=ending.seat,
            detail=ending.detail,
            hands=len(record["hands"]),
            actions=self.ply,
            timeouts=list(self.timeouts),
            fault_message=ending.fault_message,
            logs=dict(self.logs),
        )
        for listener in self.on_end:
            listener(self)
