"""What each hostile bot's games must end as, in a jail that holds: an attack that fails plays
on (`normal`); one that breaks the bot's own process or answer forfeits with its typed
termination. A leak would instead be a `crash` whose bot text says "LEAKED"."""

from __future__ import annotations

NORMAL, CRASH, TIMEOUT, ILLEGAL = "normal", "crash", "timeout", "illegal_action"

EXPECTED = {
    "hostile-env": {NORMAL},
    "hostile-files": {NORMAL},
    "hostile-proc": {NORMAL},
    "hostile-network": {NORMAL},
    "hostile-kill": {CRASH},  # it kills itself in the end; nothing else
    "hostile-forkbomb": {NORMAL},
    "hostile-hog": {CRASH},
    "hostile-loop": {TIMEOUT},
    "hostile-sleep": {TIMEOUT},
    # Its prints reach its log (bounded), not the protocol's pipe: the shim keeps that to itself
    # (a program that floods its answer line: tests/jail/test_jail.py).
    "hostile-print": {NORMAL},
    "hostile-write-files": {NORMAL},
    "hostile-exit": {CRASH},
    "hostile-illegal": {ILLEGAL},
    "hostile-nonstring": {ILLEGAL},
    # The jail's own init is of another uid (root, or the ordinary runner's): the bot cannot
    # open its pipes, nor the other seat's.
    "hostile-pipes": {NORMAL},
    "hostile-seed": {NORMAL},
    "hostile-daemon": {NORMAL},
    "hostile-backdoor": {NORMAL},
}

# Seconds per decision: short, so that the bots that hang cost little; the hog needs the time to
# fill its memory up to the limit (page by page, about a second on a busy machine), and the
# printer to write its 21 MiB through the jail's pipes (past half a second on a busy machine,
# as the ordinary runner: a timeout, not the containment this checks).
DECISION_SECONDS = {"hostile-hog": 8.0, "hostile-print": 3.0}


def decision_seconds(name: str) -> float:
    return DECISION_SECONDS.get(name, 0.5)
