"""The smoke match that validates a bundle before it may enter tournaments: a few games against
a built-in bot, in the jail, in every game setting (variant and player count) its manifest says
it plays. The first fault decides the verdict, in words its author can act on. Django-free: the
server's validation task and `bench_validation` both use it.

A bot must not be able to tell its smoke match from a tournament (a bot that behaves only while
validated): the server gives it the decision budget of the tournaments it may enter, and draws
its opponent and deals from a digest the bot cannot know in advance (`smoke_draw`). The author's
kit (`check-bot`) plays the fixed OPPONENT and SMOKE_SEED, to be reproducible."""

from __future__ import annotations

import shutil
import time
from collections.abc import Container
from dataclasses import asdict, dataclass, field
from typing import Any

from ..jail.process import TIMEOUT_NOTE_PATTERN, startup_detail
from ..match import MatchSpec, play_match
from ..runner import CRASH, ILLEGAL, NORMAL, TIMEOUT
from .manifest import Manifest

OPPONENT = "random"
SMOKE_SEED = 20261201
# The built-in bots (bots/): the smoke match's opponent is one of them.
OPPONENTS = ("random", "heuristic", "mcts")


def smoke_draw(digest: bytes, bots: Container[str]) -> tuple[str, int]:
    """(opponent, seed) of a smoke match, from `digest` (the server's: a keyed hash of the
    version, which its author cannot compute): a built-in bot among those in `bots`, and the
    seed of its deals."""
    if len(digest) < 8:
        raise ValueError("the smoke match's digest needs at least 8 bytes")
    choices = [name for name in OPPONENTS if name in bots] or [OPPONENT]
    opponent = choices[digest[0] % len(choices)]
    return opponent, int.from_bytes(digest[1:8], "big")


@dataclass
class SettingResult:
    variant: str
    players: int
    games: int = 0
    wins: int = 0  # games the bundle won
    terminations: dict[str, int] = field(default_factory=dict)
    fault: str = ""  # the bundle's first fault in this setting, if any


@dataclass
class SmokeReport:
    ok: bool
    reason: str  # why not, when not ok
    settings: list[SettingResult] = field(default_factory=list)
    seconds: float = 0.0
    log: str = ""  # what the bundle wrote to standard error, per game: for its owner only
    opponent: str = ""  # who it played (told afterwards, to its owner)
    decision_seconds: float | None = None  # its budget per decision

    def as_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "reason": self.reason,
            "seconds": round(self.seconds, 3),
            "settings": [asdict(s) for s in self.settings],
            "opponent": self.opponent,
            "decision_seconds": self.decision_seconds,
        }


def missing_runtime(manifest: Manifest) -> str:
    """A reason when the program the manifest starts is not installed here, else ''."""
    program = manifest.command[0] if manifest.command else "python3"
    if "/" in program or shutil.which(program):
        return ""
    known = ", ".join(p for p in ("python3", "node", "java", "sh") if shutil.which(p))
    return f"no such command: {program!r} is not installed on this server (it has {known})"


def verdict(game, setting: SettingResult, bot_seats: set[int], decision_seconds: float) -> str:
    """The reason this game rejects the bundle, or '' when the bundle did nothing wrong."""
    result = game.result
    if result.termination == NORMAL or result.seat not in bot_seats:
        return ""
    where = f"in {setting.variant} with {setting.players} players, game {game.index + 1}"
    own = result.fault_message.strip()
    said = f"; it said: {own[-500:]}" if own and own not in result.detail else ""
    if result.termination == CRASH:
        acted = any(
            action[0] == result.seat
            for hand in result.record.get("hands", [])
            for action in hand.get("actions", [])
        )
        if not acted and game.index == 0:
            return f"crashed at start-up ({where}): {result.detail}{said}"
        return f"crashed during the smoke match ({where}): {result.detail}{said}"
    if result.termination == ILLEGAL:
        return f"illegal action in the smoke match ({where}): {result.detail}{said}"
    if result.termination == TIMEOUT:
        notes = list(TIMEOUT_NOTE_PATTERN.finditer(result.logs.get(result.seat, "")))
        if notes and notes[-1]["startup"]:  # the last timeout was its start-up's, not a decision's
            startup = float(notes[-1]["startup"])
            return (
                f"{startup_detail(startup)} ({where}): a bot has {startup:g} s to start (to "
                f"read its first messages), then {decision_seconds:g} s per decision"
            )
        return (
            f"too slow ({where}): {result.detail}; a decision may take at most "
            f"{decision_seconds:g}s"
        )
    return f"{result.termination} ({where}): {result.detail}"


def game_log(game, setting: SettingResult, bot_seats: set[int]) -> str:
    parts = [
        f"--- {setting.variant}, {setting.players} players, game {game.index + 1}, seat {seat}\n"
        f"{game.result.logs[seat].rstrip()}\n"
        for seat in sorted(bot_seats)
        if game.result.logs.get(seat, "").strip()
    ]
    return "".join(parts)


def smoke_test(
    spec,
    manifest: Manifest,
    registry,
    *,
    games: int = 2,
    decision_seconds: float = 2.0,
    opponent: str = OPPONENT,
    seed: int = SMOKE_SEED,
) -> SmokeReport:
    """Play the smoke match of `spec` (the bundle's BotSpec) and say whether it passed."""
    started = time.perf_counter()
    report = SmokeReport(ok=True, reason=missing_runtime(manifest), opponent=opponent)
    report.decision_seconds = decision_seconds
    if report.reason:
        report.ok = False
        return report
    for variant, players in manifest.configurations(registry):
        setting = SettingResult(variant, players)
        report.settings.append(setting)
        match = MatchSpec(
            variant,
            spec,
            opponent,
            players=players,
            games=games,
            seed=seed,
            decision_seconds=decision_seconds,
        )
        for game in play_match(match).games:
            setting.games += 1
            setting.wins += game.winner_side == "a"
            kind = game.result.termination
            setting.terminations[kind] = setting.terminations.get(kind, 0) + 1
            bot_seats = {seat for seat in range(players) if seat % 2 == game.a_team}
            report.log += game_log(game, setting, bot_seats)
            fault = verdict(game, setting, bot_seats, decision_seconds)
            if fault and not setting.fault:
                setting.fault = fault
            if fault and report.ok:
                report.ok, report.reason = False, fault
        if not report.ok:
            break  # the author has a reason to act on; the other settings can wait
    report.seconds = time.perf_counter() - started
    return report
