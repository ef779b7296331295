"""Plays games between seats and writes their records.

Every game ends with a typed termination, as chess-engine testers do: `normal`; `timeout` (a
second decision past the deadline in one game: the first is played by the game's default move,
"when the time runs out, the game plays for him"); `crash` (the bot raised); `illegal_action`
(the bot answered something that is not legal). The last three forfeit the game to the other
team, and the record says what happened.

Bots run in-process (trusted built-ins: fastest; a decision's time is measured after it
returns) or, with `BotSpec(..., isolation="process")`, each in a child process with a hard
deadline (`engine.sandbox`): a bot that loops forever is killed at its deadline and the game
goes on.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .bot import BotCrashed, DecisionTimeout
from .errors import IllegalAction, PluginError
from .plugins import plugin_manager, registry
from .records import RecordKeeper
from .state import GameState

NORMAL = "normal"
TIMEOUT = "timeout"
CRASH = "crash"
ILLEGAL = "illegal_action"
TERMINATIONS = (NORMAL, TIMEOUT, CRASH, ILLEGAL)

IN_PROCESS = "inprocess"
PROCESS = "process"
REMOTE = "remote"  # a bot that is a URL (engine.remote): no code of its runs here
ISOLATIONS = (IN_PROCESS, PROCESS, REMOTE)


@dataclass(frozen=True)
class BotSpec:
    """A registered bot by name, with its parameters, and where it runs: `inprocess` (trusted
    code, fastest), `process` (a child process per game with a hard deadline per decision
    and resource limits, for code the server does not trust) or `remote` (a web server at
    `url`, called over HTTP: engine/remote.py)."""

    name: str
    params: Mapping[str, Any] = field(default_factory=dict)
    isolation: str = IN_PROCESS
    url: str | None = None

    def __post_init__(self):
        if self.isolation not in ISOLATIONS:
            raise PluginError(
                f"isolation must be one of {', '.join(ISOLATIONS)}, not {self.isolation!r}"
            )
        if (self.isolation == REMOTE) != bool(self.url):
            raise PluginError("a remote bot has a URL, and only a remote bot has one")

    @classmethod
    def of(cls, value: BotSpec | str) -> BotSpec:
        """A spec as is; a name; or a URL (`https://...`): a remote bot."""
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


def seat_seed(seed: int, seat: int) -> int:
    """Each seat's generator is seeded from the game seed and its seat, never from hash()."""
    return (seed * 16 + seat + 1) * 2654435761


def make_bots(
    variant,
    state: GameState,
    bots: Sequence[BotSpec | str],
    seed: int,
    reg=None,
    decision_seconds: float | None = None,
):
    """One bot per seat, each with its own generator seeded from the game seed and its seat (the
    same seed in-process or in a child process, so both play the same game)."""
    reg = reg or registry()
    made = []
    try:
        for seat, spec in enumerate(bots):
            spec = BotSpec.of(spec)
            if spec.isolation == REMOTE:
                made.append(remote_bot(spec, variant, state, seat, decision_seconds))
                continue
            factory = reg.bot(spec.name)  # an unknown name fails here, before any child starts
            if spec.isolation == PROCESS:
                from .sandbox import ProcessBot

                made.append(
                    ProcessBot(
                        spec.name,
                        spec.params,
                        variant=variant.name,
                        options=state.options,
                        seat=seat,
                        players=state.players,
                        seed=seat_seed(seed, seat),
                        deadline=decision_seconds,
                    )
                )
                continue
            try:
                bot = factory(
                    variant=variant.name,
                    options=state.options,
                    seat=seat,
                    players=state.players,
                    rng=random.Random(seat_seed(seed, seat)),
                    **dict(spec.params),
                )
            except Exception as exc:  # as in a child process: the game ends as this seat's crash
                bot = BrokenBot(f"bot {spec.name!r} failed to start: {type(exc).__name__}: {exc}")
            made.append(bot)
    except BaseException:
        close_bots(made)
        raise
    return made


def remote_bot(spec: BotSpec, variant, state: GameState, seat: int, decision_seconds):
    """The seat's remote bot; one whose URL the server's policy refuses crashes at its first
    decision with the reason (the match goes on, as with a bot that fails to start)."""
    from .remote import RemoteBot
    from .remote_policy import RemoteRefused

    try:
        return RemoteBot(
            spec.url,
            variant=variant.name,
            options=state.options,
            seat=seat,
            players=state.players,
            deadline=decision_seconds,
        )
    except RemoteRefused as exc:
        return BrokenBot(f"remote bot refused: {exc}")


class BrokenBot:
    """Stands in for a bot whose constructor raised: its first decision is a crash."""

    def __init__(self, error: str):
        self.error = error

    def act(self, observation):
        raise BotCrashed(self.error)


def close_bots(seats: Sequence[Any]) -> None:
    """Stop the child processes of process-isolated bots (in-process bots have nothing to stop)."""
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
) -> GameResult:
    """Play one game with in-process bots (`bots[i]` sits at seat i)."""
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
    seats = make_bots(variant, state, bots, seed, decision_seconds=decision_seconds)
    try:
        return run_game(state, seats, decision_seconds=decision_seconds, notify=notify)
    finally:
        close_bots(seats)


def run_game(
    state: GameState,
    seats: Sequence[Any],
    *,
    decision_seconds: float | None = None,
    notify: bool = True,
) -> GameResult:
    """Run `state` to the end with one actor per seat (anything with `act(observation)`). An
    actor with `enforces_deadline` set (a child-process bot) keeps its own hard deadline and
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
    termination, fault_seat, detail = NORMAL, None, ""
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
            termination, fault_seat, detail = CRASH, seat, f"{type(exc).__name__}: {exc}"[:500]
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
        except IllegalAction:
            termination, fault_seat, detail = ILLEGAL, seat, f"illegal action {action!r}"[:200]
            break
        hand_actions.append([seat, action])
        actions += 1
        if state.hand_no != hand_no:
            hand_no = state.hand_no
            hand_actions = keeper.open_hand(hand_no)
            for s in hand_enders:
                seats[s].on_hand_end(state.observation(s))
    return finish(state, seats, keeper, termination, fault_seat, detail, actions, timed_out, notify)


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
        if _overrides(bot, "on_game_end"):
            try:
                bot.on_game_end(state.observation(seat))
            except Exception:  # a notice is a courtesy: a bot failing on it changes nothing
                pass
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
    )
    if notify:
        plugin_manager().hook.truco_game_finished(result=game)
    return game
