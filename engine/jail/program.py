"""What a jail runs: a command, with the bot's own files."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Program:
    """`command` runs inside the jail (argv; its first word is looked up on the jail's PATH or
    given as an absolute path inside the jail). `files`, a host folder, is mounted read-only at
    /bot, the bot's own files and its working directory; None runs it in its private /tmp.
    `binds`: more host paths shown read-only at their own paths (the Python and the engine that
    run a Python bundle's class through the shim)."""

    command: tuple[str, ...]
    files: str | None = None
    binds: tuple[str, ...] = ()

    def __post_init__(self):
        command = tuple(self.command)
        if not command or not all(isinstance(word, str) and word for word in command):
            raise ValueError("a program's command is a non-empty list of non-empty strings")
        if any("\0" in word for word in command):
            raise ValueError("a program's command may not contain NUL characters")
        object.__setattr__(self, "command", command)
        object.__setattr__(self, "binds", tuple(self.binds))
