"""Plays games between seats and writes their records.

Every game ends with a typed termination, as chess-engine testers do: `normal`; `timeout` (a
second decision past the deadline in one game: the first is played by the game's default move,
"when the time runs out, the game plays for him"); `crash` (the bot raised); `illegal_action`
(the bot answered something that is not legal). The last three forfeit the game to the other
team, and the record says what happened.

Bots run in-process (trusted built-ins: fastest; a decision's time is measured after it
returns) or outside it, started once per seat per match and kept across its games
(engine/seats.py): `jail` (engine/jail: code the server does not trust, a registered plugin
through the protocol shim or a `Program`, a command) or `remote` (an HTTP bot, engine/remote.py).
Those speak the bot protocol (engine/protocol.py) and have a hard deadline per decision: a bot
that loops forever is stopped at its deadline and the game goes on.

`GameResult.detail` is public (it is in the record): fixed phrases only. The bot's own error text
is `fault_message` and what it logged is `logs`, both for its owner and staff only.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .bot import BotCrashed, DecisionTimeout
from .bot_logs import GAME_LOG_CHARS, bounded
from .botseed import bot_seed
from .errors import IllegalAction, PluginError
from .plugins import plugin_manager, registry
from .protocol import MalformedReply, ProtocolError, shown_action
from .records import RecordKeeper
from .seats import MatchContext, SeatPool, registered_isolations
from .state import GameState

NORMAL = "normal"
TIMEOUT = "timeout"
CRASH = "crash"
ILLEGAL = "illegal_action"
TERMINATIONS = (NORMAL, TIMEOUT, CRASH, ILLEGAL)

IN_PROCESS = "inprocess"
JAIL = "jail"
REMOTE = "remote"
PROCESS = "process"  # the old name of "jail", still accepted (`--isolation process`)
ISOLATIONS = (IN_PROCESS, JAIL, REMOTE, PROCESS)


@dataclass(frozen=True)
class BotSpec:
    """A bot, with its parameters, and where it runs:
    - `inprocess`: the registered bot `name` in the runner's process (trusted code, fastest);
    - `jail`: untrusted code in the jail (engine/jail), one process per seat per match: with no
      `program`, the registered plugin bot `name` through the Python protocol shim; with a
      `program` (engine.jail.Program), that command, with its own files (`name` is a label);
    - `remote`: the HTTP bot at `url` (engine/remote.py), speaking the same protocol.
    `process` is accepted for `jail`."""

    name: str
    params: Mapping[str, Any] = field(default_factory=dict)
    isolation: str = IN_PROCESS
    program: Any = None  # engine.jail.Program
    url: str | None = None

    def __post_init__(self):
        if self.isolation not in ISOLATIONS and self.isolation not in registered_isolations():
            raise PluginError(
                f"isolation must be one of {', '.join(ISOLATIONS[:3])}, not {self.isolation!r}"
            )
        if self.isolation == PROCESS:
            object.__setattr__(self, "isolation", JAIL)
        if self.program is not None and self.isolation in (IN_PROCESS, REMOTE):
            raise PluginError("a bot with a program runs in the jail (isolation='jail')")
        if self.isolation == REMOTE and not self.url:
            raise PluginError("a remote bot needs its url")
        if self.url is not None and self.isolation != REMOTE:
            raise PluginError("a bot with a url is a remote bot (isolation='remote')")

    @property
    def registered(self) -> bool:
        """Whether `name` is a registered plugin bot (not a program or a remote bot)."""
        return self.program is None and self.url is None

    @classmethod
    def of(cls, value: BotSpec | str) -> BotSpec:
        """A spec as is; a registered name; or a URL (`https://...`): a remote bot."""
        if isinstance(value, BotSpec):
            return value
        from .remote_policy import is_url

        if is_url(value):
            return cls(value, isolation=REMOTE, url=value)
        return cls(value)


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
    """One actor per seat. In-process bots are built for this game with their own generator;
    the others come from `pool` (kept across the games of a match, under `seat_keys[seat]`) and
    hear of the new game and their seat. Each seat's random seed is derived one-way from the
    deal seed (engine/botseed.py), the same wherever the bot runs."""
    reg = reg or registry()
    context = MatchContext(variant.name, state.options, state.players, decision_seconds)
    made = []
    for seat, spec in enumerate(bots):
        spec = BotSpec.of(spec)
        seed_of_seat = bot_seed(seed, seat)
        if spec.isolation != IN_PROCESS:
            if pool is None:
                raise PluginError("bots outside the runner's process need a SeatPool to live in")
            if spec.registered:
                reg.bot(spec.name)  # an unknown name fails here, before any jail starts
            key = seat_keys[seat] if seat_keys is not None else seat
            actor = pool.actor(key, spec, context)
            actor.begin_game(game=game_index, seat=seat, seed=seed_of_seat)
            made.append(actor)
            continue
        factory = reg.bot(spec.name)
        try:
            bot = factory(
                variant=variant.name,
                options=state.options,
                seat=seat,
                players=state.players,
                rng=random.Random(seed_of_seat),
                **dict(spec.params),
            )
        except Exception as exc:  # as in the jail: the game ends as this seat's crash
            bot = BrokenBot(f"{type(exc).__name__}: {exc}")
        made.append(bot)
    return made


class BrokenBot:
    """Stands in for a bot whose constructor raised: its first decision is a crash."""

    def __init__(self, error: str):
        self.error = error

    def act(self, observation):
        raise ProtocolError("the bot could not start", self.error)


def close_bots(seats: Sequence[Any]) -> None:
    """Stop out-of-process actors (in-process bots have nothing to stop)."""
    for bot in seats:
        close = getattr(bot, "close", None)
        if close is not None:
            close()


def _overrides(bot, name: str) -> bool:
    from .bot import Bot

    method = getattr(type(bot), name, None)
    return method is not None and method is not getattr(Bot, name)


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
    notify: bool = True,
    pool: SeatPool | None = None,
    seat_keys: Sequence[Any] | None = None,
    game_index: int = 0,
) -> GameResult:
    """Play one game (`bots[i]` sits at seat i). Out-of-process bots come from `pool` when one
    is given (a match keeps them across its games); otherwise they live for this game only."""
    if isinstance(variant, str):
        variant = registry().variant(variant)
    state = variant.new_game(
        len(bots),
        options,
        preset=preset,
        seed=seed,
        first_dealer=first_dealer,
        start_score=start_score,
    )
    own_pool = pool is None
    pool = SeatPool() if own_pool else pool
    try:
        seats = make_bots(
            variant,
            state,
            bots,
            seed,
            decision_seconds=decision_seconds,
            pool=pool,
            seat_keys=seat_keys,
            game_index=game_index,
        )
        return run_game(state, seats, decision_seconds=decision_seconds, notify=notify)
    finally:
        if own_pool:
            pool.close()


def run_game(
    state: GameState,
    seats: Sequence[Any],
    *,
    decision_seconds: float | None = None,
    notify: bool = True,
) -> GameResult:
    """Run `state` to the end with one actor per seat (anything with `act(observation)`). An
    actor with `enforces_deadline` set (a jailed or remote bot) keeps its own hard deadline and
    raises `DecisionTimeout`; the others are timed here, after they answer."""
    keeper = RecordKeeper(state)
    # Per seat, the limit this loop checks after the fact (None: not timed here).
    limits = [
        None if getattr(bot, "enforces_deadline", False) else decision_seconds for bot in seats
    ]
    hand_enders = [s for s in range(len(seats)) if _overrides(seats[s], "on_hand_end")]
    timed_out: list[int] = []
    actions = 0
    clock = time.perf_counter
    termination, fault_seat, detail, fault_message = NORMAL, None, "", ""
    hand_actions = keeper.hands[0]
    hand_no = state.hand_no
    # One game keeps one rules object: calling it directly saves two calls per decision.
    rules = state.rules
    observe, apply = rules.observation, rules.apply
    while state.winner is None and state.phase != "deal":
        seat = state.to_act
        observation = observe(state, seat)
        limit = limits[seat]
        started = clock() if limit is not None else 0.0
        late = False
        try:
            action = seats[seat].act(observation)
        except DecisionTimeout:
            late = True
        except Exception as exc:  # a bot that raises loses the game; the match goes on
            termination, fault_seat, detail, fault_message = fault_of(exc)
            fault_seat = seat
            break
        if late or limit is not None and clock() - started > limit:
            if seat in timed_out:
                termination, fault_seat, detail = (
                    TIMEOUT,
                    seat,
                    f"second decision over {deadline_text(seats[seat], decision_seconds)}",
                )
                break
            timed_out.append(seat)
            action = state.rules.default_action(state)
        try:
            state = apply(state, action)
        except (IllegalAction, TypeError):  # TypeError: an answer that is not even a string
            termination, fault_seat = ILLEGAL, seat
            detail = f"answered {shown_action(action)}, not a legal action"
            fault_message = f"answered {action!r}"[:2000]
            break
        hand_actions.append([seat, action])
        actions += 1
        if state.hand_no != hand_no:
            hand_no = state.hand_no
            hand_actions = keeper.open_hand(hand_no)
            for s in hand_enders:
                seats[s].on_hand_end(state.observation(s))
    game = finish(state, seats, keeper, termination, fault_seat, detail, actions, timed_out, notify)
    game.fault_message = fault_message
    return game


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


def finish(
    state, seats, keeper, termination, fault_seat, detail, actions, timed_out, notify
) -> GameResult:
    if termination == NORMAL:
        winner = state.winner
        result = {"score": list(state.score), "winner": winner}
    else:
        winner = 1 - (fault_seat & 1)  # a forfeit: the other team wins the game
        result = {
            "score": list(state.score),
            "winner": winner,
            "termination": termination,
            "seat": fault_seat,
            "detail": detail,
        }
    if timed_out:
        result["timeouts"] = list(timed_out)
    record = keeper.record(state, result)
    for seat, bot in enumerate(seats):
        try:
            if hasattr(bot, "end_game"):  # out of process: it hears the result too
                bot.end_game(state.observation(seat), result)
            elif _overrides(bot, "on_game_end"):
                bot.on_game_end(state.observation(seat))
        except Exception:  # a notice is a courtesy: a bot failing on it changes nothing
            pass
    logs = {}
    for seat, bot in enumerate(seats):
        log_since_last = getattr(bot, "log_since_last", None)
        text = bounded(log_since_last(), GAME_LOG_CHARS) if log_since_last is not None else ""
        if text:
            logs[seat] = text
    game = GameResult(
        record=record,
        score=state.score,
        winner=winner,
        termination=termination,
        seat=fault_seat,
        detail=detail,
        hands=len(record["hands"]),
        actions=actions,
        timeouts=timed_out,
        logs=logs,
    )
    if notify:
        plugin_manager().hook.truco_game_finished(result=game)
    return game
