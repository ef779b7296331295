"""The engine's errors: each one says what was wrong and what would have been right."""

from __future__ import annotations


class TrucoError(Exception):
    """Base class of every error the engine raises on purpose."""


class IllegalAction(TrucoError):
    """An action that is not legal in the current state; names the legal ones."""

    def __init__(self, action: object, legal: tuple[str, ...] | list[str], reason: str = ""):
        self.action = action
        self.legal = tuple(legal)
        why = f" ({reason})" if reason else ""
        super().__init__(
            f"illegal action {action!r}{why}; legal actions: {', '.join(self.legal) or 'none'}"
        )


class OptionError(TrucoError):
    """An unknown rule option or a bad value; names the valid ones."""


class RecordError(TrucoError):
    """A malformed game record, or a card that does not exist in the variant's deck. `hand` and
    `action` locate the problem in the record where they apply."""

    def __init__(self, message: str, hand: int | None = None, action: int | None = None):
        super().__init__(message)
        self.message = message
        self.hand = hand
        self.action = action

    def to_json(self) -> dict:
        out: dict = {"error": self.message}
        if self.hand is not None:
            out["hand"] = self.hand
        if self.action is not None:
            out["action"] = self.action
        return out


class PluginError(TrucoError):
    """A plugin problem: a duplicate name, an unknown variant or bot."""
