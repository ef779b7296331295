"""`python -m engine replay FILE`: exactly the output and error contract of RECORDS.md.

FILE may also be a records file as `match --records` and `arena --records` write it (one record
per line): every game is replayed and printed on a line of its own with its `game` number
(from 1), or only game N with `--game N`, printed exactly as a single record.
"""

from __future__ import annotations

import json
import sys

from .errors import RecordError
from .records import load, replay


def read_text(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise RecordError(f"malformed record: {path} is not UTF-8 text") from None


def load_records(text: str) -> list:
    """One record, or the records of a JSON-lines file (a JSON object per non-empty line)."""
    try:
        return [json.loads(text)]
    except RecursionError:
        return [load(text)]  # raises the usual "not JSON" error
    except json.JSONDecodeError as exc:
        if not exc.msg.startswith("Extra data"):
            return [load(text)]  # raises the usual "not JSON" error
    lines = [line for line in text.splitlines() if line.strip()]
    records = []
    for number, line in enumerate(lines, 1):
        try:
            records.append(load(line))
        except RecordError as exc:
            raise GameError(number, exc) from None
    return records


class GameError(Exception):
    """A RecordError in game `number` of a records file."""

    def __init__(self, number: int, error: RecordError):
        super().__init__(error.message)
        self.number = number
        self.error = error

    def to_json(self) -> dict:
        return {**self.error.to_json(), "game": self.number}


def run_replay(path: str, game: int | None = None) -> int:
    try:
        records = load_records(read_text(path))
        if game is not None:
            if not 1 <= game <= len(records):
                raise RecordError(
                    f"--game {game}: the file holds {len(records)} game"
                    f"{'s' if len(records) != 1 else ''}; choose 1 to {len(records)}"
                )
            records = [records[game - 1]]
        if len(records) == 1:
            print(json.dumps(replay(records[0]).summary()))
            return 0
        lines = []
        for number, record in enumerate(records, 1):
            try:
                lines.append(json.dumps({"game": number, **replay(record).summary()}))
            except RecordError as exc:
                raise GameError(number, exc) from None
    except (RecordError, GameError) as exc:
        print(json.dumps(exc.to_json()))
        return 2
    print("\n".join(lines))
    return 0
