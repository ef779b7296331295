"""Plays games between seats and writes their records.

Every game ends with a typed termination, as chess-engine testers do: `normal`; `timeout` (a
second decision past the deadline in one game: the first is played by the game's default move,
"when the time runs out, the game plays for him"); `crash` (the bot raised); `illegal_action`
(the bot answered something that is not legal). The last three forfeit the game to the other
team, and the record says what happened.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import IllegalAction
from .plugins import plugin_manager, registry
from .records import RecordKeeper
from .state import GameState

NORMAL = "normal"
TIMEOUT = "timeout"
CRASH = "crash"
ILLEGAL = "illegal_action"
TERMINATIONS = (NORMAL, TIMEOUT, CRASH, ILLEGAL)


@dataclass(frozen=True)
class BotSpec:
    """A registered bot by name, with its parameters."""

    name: str
    params: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, value: BotSpec | str) -> BotSpec:
        return value if isinstance(value, BotSpec) else cls(value)


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


def make_bots(variant, state: GameState, bots: Sequence[BotSpec | str], seed: int, reg=None):
    reg = reg or registry()
    made = []
    for seat, spec in enumerate(bots):
        spec = BotSpec.of(spec)
        factory = reg.bot(spec.name)
        made.append(
            factory(
                variant=variant.name,
                options=state.options,
                seat=seat,
                players=state.players,
                rng=random.Random(seat_seed(seed, seat)),
                **dict(spec.params),
            )
        )
    return made


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
    seats = make_bots(variant, state, bots, seed)
    return run_game(state, seats, decision_seconds=decision_seconds, notify=notify)


def run_game(
    state: GameState,
    seats: Sequence[Any],
    *,
    decision_seconds: float | None = None,
    notify: bool = True,
) -> GameResult:
    """Run `state` to the end with one actor per seat (anything with `act(observation)`)."""
    keeper = RecordKeeper(state)
    hand_enders = [s for s in range(len(seats)) if _overrides(seats[s], "on_hand_end")]
    timed_out: list[int] = []
    actions = 0
    clock = time.perf_counter
    termination, fault_seat, detail = NORMAL, None, ""
    hand_actions = keeper.hands[0]
    hand_no = state.hand_no
    while state.winner is None and state.phase != "deal":
        seat = state.to_act
        observation = state.observation(seat)
        started = clock() if decision_seconds is not None else 0.0
        try:
            action = seats[seat].act(observation)
        except Exception as exc:  # a bot that raises loses the game; the match goes on
            termination, fault_seat, detail = CRASH, seat, f"{type(exc).__name__}: {exc}"
            break
        if decision_seconds is not None and clock() - started > decision_seconds:
            if seat in timed_out:
                termination, fault_seat, detail = (
                    TIMEOUT,
                    seat,
                    f"second decision over {decision_seconds}s",
                )
                break
            timed_out.append(seat)
            action = state.rules.default_action(state)
        try:
            state = state.apply(action)
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
