"""`python -m engine replay FILE`: exactly the output and error contract of RECORDS.md."""

from __future__ import annotations

import json
import sys

from .errors import RecordError
from .records import load, replay


def run_replay(path: str) -> int:
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            try:
                with open(path, encoding="utf-8") as handle:
                    text = handle.read()
            except OSError as exc:
                raise RecordError(f"cannot read {path}: {exc.strerror}") from None
            except UnicodeDecodeError:
                raise RecordError(f"malformed record: {path} is not UTF-8 text") from None
        outcome = replay(load(text))
    except RecordError as exc:
        print(json.dumps(exc.to_json()))
        return 2
    print(json.dumps(outcome.summary()))
    return 0
