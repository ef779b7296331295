"""Time controls as chess engine testers have them (cutechess, fastchess): each seat played by
code has a bank of seconds for the whole game and gains an increment after each decision.

`60+0.5` is a bank of 60 s plus 0.5 s a decision. The bank comes on top of the per-decision
limit (`decision_seconds`, or a jailed or remote bot's own deadline): a decision over that limit
is played for once and forfeits the second time, as without a bank; a seat whose bank runs dry
loses the game at once (`timeout`). People's seats have no bank: their table's turn timer is
theirs.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from .errors import TrucoError

_TEXT = re.compile(r"\s*(?P<bank>[0-9]*\.?[0-9]+)\s*(?:\+\s*(?P<inc>[0-9]*\.?[0-9]+)\s*)?")


class TimeControlError(TrucoError):
    """A time control that cannot be read, or with a value out of range."""


@dataclass(frozen=True)
class TimeControl:
    bank: float  # seconds per seat for the whole game
    increment: float = 0.0  # seconds added to the bank after each decision

    def __post_init__(self):
        for name in ("bank", "increment"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise TimeControlError(f"a time control's {name} must be a number of seconds")
            if not math.isfinite(value) or value < 0:
                raise TimeControlError(f"a time control's {name} must be 0 or more seconds")
        if not self.bank > 0:
            raise TimeControlError("a time control's bank must be more than 0 seconds")
        object.__setattr__(self, "bank", float(self.bank))
        object.__setattr__(self, "increment", float(self.increment))

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """`BANK` or `BANK+INCREMENT`, in seconds: `60+0.5`, `300`, `10+0.1`."""
        match = _TEXT.fullmatch(text) if isinstance(text, str) else None
        if match is None:
            raise TimeControlError(
                f"time control {text!r} must look like BANK+INCREMENT in seconds, e.g. 60+0.5"
            )
        return cls(float(match["bank"]), float(match["inc"] or 0.0))

    @classmethod
    def of(cls, value: TimeControl | str | None) -> TimeControl | None:
        if value is None or isinstance(value, TimeControl):
            return value
        return cls.parse(value)

    def __str__(self) -> str:
        return f"{self.bank:g}+{self.increment:g}"
