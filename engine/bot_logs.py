"""A bot's log, bounded: its first lines and its last, and how much was left out between.

A bot that floods its standard error must not fill the server, but its owner needs both ends:
the start (the error that started it all, the versions it printed) and the end (the traceback it
died with). Every place that bounds a log keeps the head and the tail, `limit` characters in all,
with a mark between them that counts what was dropped:

    ...first lines...
    [... 1,234,567 characters not kept ...]
    ...last lines...

Bounding again (a game's log within a tournament's, a human table's advances one after the
other) adds up the counts of the marks it drops, so the mark always says how much of what the bot
wrote is missing there. `bounded` bounds a text; `LogKeeper` bounds a stream as it is read (the
jail's reader of standard error), keeping no more than it returns."""

from __future__ import annotations

import re
from collections import deque

GAME_LOG_CHARS = 256 * 1024  # of one seat's log per game, as the jail keeps it
MARK = re.compile(r"\n\[\.\.\. ([0-9,]+) characters not kept \.\.\.\]\n")
MARK_ROOM = 64  # characters a mark takes at most (a count of up to 40 digits)


def mark(dropped: int) -> str:
    return f"\n[... {dropped:,} characters not kept ...]\n"


def _halves(limit: int) -> tuple[int, int]:
    """(head, tail) sizes that leave room for the mark within `limit`."""
    room = max(0, limit - MARK_ROOM)
    return room // 2, room - room // 2


def bounded(text: str, limit: int) -> str:
    """`text` if it is at most `limit` characters; else its head and tail with a mark between
    that counts the characters dropped (adding up the marks of earlier bounds among them). A mark
    is never cut in two: the head ends before one, the tail starts after one."""
    if len(text) <= limit:
        return text
    head, tail = _halves(limit)
    cut, resume = head, len(text) - tail
    marks = list(MARK.finditer(text))
    for found in marks:
        if found.start() < cut < found.end():
            cut = found.start()
        if found.start() < resume < found.end():
            resume = found.end()
    dropped = resume - cut
    for found in marks:
        if cut <= found.start() and found.end() <= resume:
            dropped += int(found[1].replace(",", "")) - len(found[0])
    return text[:cut] + mark(dropped) + text[resume:]


class LogKeeper:
    """A log read piece by piece, kept as `bounded` would keep the whole of it: its head as it
    came, a window of its latest characters that moves on, and the count of what fell between
    (a text without marks gives exactly `bounded(text, limit)`)."""

    def __init__(self, limit: int):
        self.limit = limit
        self._head_room, self._tail_room = _halves(limit)
        # Until something is dropped the whole of `limit` is kept; after, the window's oldest
        # characters make room for the mark.
        self._window_room = max(0, limit - self._head_room)
        self._head: list[str] = []
        self._head_size = 0
        self._window: deque[str] = deque()
        self._window_size = 0
        self.dropped = 0  # characters that fell out of the window

    @property
    def full(self) -> bool:
        """Whether it has dropped something: every further character only moves the window."""
        return self.dropped > 0

    def add(self, text: str) -> None:
        if self._head_size < self._head_room:
            taken = text[: self._head_room - self._head_size]
            self._head.append(taken)
            self._head_size += len(taken)
            text = text[len(taken) :]
        if not text:
            return
        room = self._window_room
        if len(text) >= room:  # a piece that fills the window by itself
            self.dropped += self._window_size + len(text) - room
            self._window.clear()
            self._window_size = 0
            text = text[len(text) - room :] if room else ""
        self._window.append(text)
        self._window_size += len(text)
        while self._window_size > room:
            over = self._window_size - room
            first = self._window[0]
            if len(first) <= over:
                self._window.popleft()
                self._window_size -= len(first)
                self.dropped += len(first)
            else:
                self._window[0] = first[over:]
                self._window_size -= over
                self.dropped += over

    def text(self) -> str:
        head, window = "".join(self._head), "".join(self._window)
        if not self.dropped:
            return head + window
        tail = window[len(window) - self._tail_room :] if self._tail_room else ""
        return head + mark(self.dropped + len(window) - len(tail)) + tail

    def last(self, chars: int) -> str:
        """Its last `chars` characters as kept (for a crash's message)."""
        return self.text()[-chars:] if chars > 0 else ""
