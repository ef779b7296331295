"""`--logs DIR` of match and arena: what each bot wrote to standard error, kept in a file per bot
(per side, and per partner's seat with 4 players: each is a process of its own), game after game
under a separator line. Only bots outside the CLI's process have a log (bundles, jailed and
remote bots); built-in bots playing in-process write none.

The texts come from each game's result (`GameResult.logs`, seat -> text), so nothing here
reaches into the runner."""

from __future__ import annotations

import re
from pathlib import Path

from .errors import TrucoError

SIDES = ("A", "B")


class LogFiles:
    def __init__(self, folder: str, labels: list[str], logged: list[bool], players: int):
        """`labels` and `logged` (whether it has a log at all) per side, A then B."""
        self.folder = Path(folder)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise TrucoError(f"cannot make the logs folder {folder!r}: {exc.strerror}") from None
        self.labels = labels
        self.logged = logged
        self.players = players
        self.games: dict[Path, int] = {}
        self.bytes: dict[Path, int] = {}

    def path(self, side: int, place: int) -> Path:
        name = re.sub(r"[^A-Za-z0-9_.=-]+", "_", self.labels[side]).strip("_.") or "bot"
        partner = f"-seat{place + 1}" if self.players > 2 else ""
        return self.folder / f"{SIDES[side]}-{name}{partner}.log"

    def add(self, game) -> None:
        """One game of the match (engine.match.MatchGame): each logged seat's text under a
        separator naming the game, the seat and, for a duplicate pair, the pair."""
        logs = game.result.logs
        pair = f", pair {game.pair + 1}" if game.pair is not None else ""
        for seat in range(self.players):
            side = 0 if seat % 2 == game.a_team else 1
            if not self.logged[side]:
                continue
            path = self.path(side, seat // 2)
            text = logs.get(seat, "")
            header = f"=== game {game.index + 1}{pair}: seat {seat} ===\n"
            body = text if not text or text.endswith("\n") else text + "\n"
            try:
                with open(path, "a" if path in self.games else "w", encoding="utf-8") as out:
                    out.write(header + body)
            except OSError as exc:
                raise TrucoError(f"cannot write the log {str(path)!r}: {exc.strerror}") from None
            self.games[path] = self.games.get(path, 0) + 1
            self.bytes[path] = self.bytes.get(path, 0) + len(text.encode())

    def summary(self) -> list[str]:
        """The lines that say where the logs are."""
        if not self.games:
            return [
                f"  logs: none in {self.folder} (only bundles, jailed and remote bots have one; "
                "built-in bots play in-process)"
            ]
        lines = [f"  logs in {self.folder}/:"]
        for path, games in self.games.items():
            lines.append(f"    {path.name}  {games} games, {self.bytes[path]:,} bytes")
        return lines
