"""What a seat's bot is and where it runs (`BotSpec`), apart from the runner that plays it, so
that the game session (engine/session.py) and the seat actors (engine/actors.py) share it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import PluginError
from .remote_policy import is_url
from .seats import registered_isolations

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
        if is_url(value):
            return cls(value, isolation=REMOTE, url=value)
        return cls(value)
