"""Hostile bots, one per attack of issue 8. Each tries its attack at its first decision of a game
and then plays like `random`; one that gets what it was after raises "LEAKED: ..." (so a
broken jail shows up as a crash that names the leak), and every one notes what it tried on
standard error (its log). Registered through a real `truco` entry point (tests/jail/conftest.py).

They know nothing but fixed names: the marker in the runner's environment (MARKER), the secret
files the tests leave on the host (SECRET_DIR), the project's own files (found from where this
module is). Those are what a real attacker would guess too.
"""

from __future__ import annotations

import hashlib
import os
import signal
import socket
import sys
import time

from engine.bot import Bot
from engine.hookspecs import hookimpl

MARKER = "hostile-secret-7d1c"  # in the runner's environment; never in anything a bot gets
PROJECT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# A world-readable SQLite file and a sentinel pid, one folder per checkout (several checkouts
# may run these tests at once on one machine).
SECRET_DIR = "/tmp/truco-hostile-secrets-" + hashlib.sha256(PROJECT.encode()).hexdigest()[:12]


def note(text: str) -> None:
    print(f"[{type_name()}] {text}", file=sys.stderr, flush=True)


def type_name() -> str:
    return os.environ.get("HOSTILE", "hostile")


class Hostile(Bot):
    """Attacks once per game, at its first decision, then plays at random."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.attacked = False

    def act(self, observation):
        if not self.attacked:
            self.attacked = True
            self.attack(observation)
        return self.rng.choice(observation.legal)

    def attack(self, observation):
        raise NotImplementedError


def readable(path: str) -> bytes | None:
    try:
        with open(path, "rb") as f:
            return f.read(1 << 20)
    except OSError as exc:
        note(f"{path}: {exc.strerror}")
        return None


class ReadsEnv(Hostile):
    def attack(self, observation):
        found = [k for k, v in os.environ.items() if MARKER in v or k == "DATABASE_URL"]
        note(f"environment has {sorted(os.environ)}")
        if found:
            raise RuntimeError(f"LEAKED: environment {found}")


class ReadsFiles(Hostile):
    def attack(self, observation):
        for path in (
            os.path.join(PROJECT, "config", "settings.py"),
            os.path.join(PROJECT, "var", "db.sqlite3"),
            os.path.join(SECRET_DIR, "db.sqlite3"),
            "/etc/shadow",
        ):
            data = readable(path)
            if data:
                raise RuntimeError(f"LEAKED: read {path} ({len(data)} bytes)")


class ReadsProc(Hostile):
    def attack(self, observation):
        targets = {os.getppid(), 1}
        targets.update(int(p) for p in os.listdir("/proc") if p.isdigit())
        note(f"sees processes {sorted(targets)}")
        for pid in sorted(targets):
            if pid == os.getpid():
                continue
            for what in ("environ", "cmdline"):
                data = readable(f"/proc/{pid}/{what}")
                if data and (MARKER.encode() in data or b"DATABASE_URL" in data):
                    raise RuntimeError(f"LEAKED: /proc/{pid}/{what}")
            try:
                with open(f"/proc/{pid}/mem", "rb") as mem:
                    mem.read(1)
                raise RuntimeError(f"LEAKED: /proc/{pid}/mem is readable")
            except OSError as exc:
                note(f"/proc/{pid}/mem: {exc.strerror}")


class Phones(Hostile):
    def attack(self, observation):
        for port in (5432, 6379):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
            except OSError as exc:
                note(f"127.0.0.1:{port}: {exc.strerror}")
                continue
            raise RuntimeError(f"LEAKED: connected to 127.0.0.1:{port}")


class Kills(Hostile):
    """Kills what it can: a sentinel, every pid it can name, its parent, its process group."""

    def attack(self, observation):
        sentinel = readable(os.path.join(SECRET_DIR, "sentinel.pid"))
        pids = set(range(2, 5000))
        if sentinel:
            pids.add(int(sentinel))
        me = os.getpid()
        for pid in sorted(pids - {me}):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        for call in (
            lambda: os.kill(os.getppid(), signal.SIGKILL),
            lambda: os.kill(-1, signal.SIGKILL),
        ):
            try:
                call()
            except OSError as exc:
                note(f"kill: {exc.strerror}")
        os.killpg(os.getpgrp(), signal.SIGKILL)  # itself too


class ForkBomb(Hostile):
    def attack(self, observation):
        children = 0
        for _ in range(2000):
            try:
                pid = os.fork()
            except OSError as exc:
                note(f"fork refused after {children}: {exc.strerror}")
                break
            if pid == 0:
                time.sleep(3600)
                os._exit(0)
            children += 1
        if children >= 2000:
            raise RuntimeError(f"LEAKED: forked {children} processes")


class Hog(Hostile):
    def attack(self, observation):
        hoard = []
        for _ in range(64):  # 2 GiB in pages it really touches (filled, not just reserved)
            hoard.append(b"\x01" * (32 << 20))
        raise RuntimeError("LEAKED: held 2 GiB")


class Loops(Hostile):
    def attack(self, observation):
        while True:
            pass


class Sleeps(Hostile):
    def attack(self, observation):
        time.sleep(3600)


class Prints(Hostile):
    """20 MiB on its log between a first and a last line of its own, then a megabyte on its
    answer line."""

    def attack(self, observation):
        sys.stderr.write("the first line of the flood\n")
        line = "x" * 1023 + "\n"
        for _ in range(20 * 1024):
            sys.stderr.write(line)
        sys.stderr.flush()
        sys.stdout.write("y" * (1 << 20))  # the shim's own output is its log as well
        sys.stdout.flush()
        sys.stderr.write("\nthe last line of the flood\n")
        sys.stderr.flush()


class WritesFiles(Hostile):
    def attack(self, observation):
        written = 0
        for folder in (os.getcwd(), "/tmp", os.path.expanduser("~")):
            for i in range(2000):
                try:
                    with open(os.path.join(folder, f"hostile-file-{os.getpid()}-{i}"), "wb") as f:
                        f.write(b"z" * (1 << 20 if i < 200 else 1024))
                    written += 1
                except OSError as exc:
                    note(f"{folder}: stopped after {i} files: {exc.strerror}")
                    break
        note(f"wrote {written} files")


class ExitsMidGame(Bot):
    """Plays three decisions, then exits."""

    def act(self, observation):
        self.count = getattr(self, "count", 0) + 1
        if self.count > 3:
            os._exit(3)
        return self.rng.choice(observation.legal)


class Illegal(Bot):
    def act(self, observation):
        return "take all the cards"


class NonString(Bot):
    def act(self, observation):
        return 42


class WritesPipes(Hostile):
    """Forges answers into every pipe of another process it can open (the other seat's)."""

    def attack(self, observation):
        me = os.getpid()
        forged = 0
        for pid in (int(p) for p in os.listdir("/proc") if p.isdigit()):
            if pid == me:
                continue
            try:
                fds = os.listdir(f"/proc/{pid}/fd")
            except OSError as exc:
                note(f"/proc/{pid}/fd: {exc.strerror}")
                continue
            for fd in fds:
                try:
                    with open(f"/proc/{pid}/fd/{fd}", "w") as pipe:
                        pipe.write('{"action": "forfeit please"}\n' * 10)
                    forged += 1
                except OSError:
                    pass
        note(f"forged into {forged} pipes")


class SeedThief(Hostile):
    """Looks for its seed wherever it may be (the frames that build it hold the protocol's game
    message) and tries to turn it back into the deal seed, as the old seat-seed formula allowed;
    raises if a guess deals its own hand."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.seeds = set()
        frame = sys._getframe()
        while frame is not None:
            for value in frame.f_locals.values():
                if isinstance(value, dict) and isinstance(value.get("seed"), int):
                    self.seeds.add(value["seed"])
            frame = frame.f_back

    def attack(self, observation):
        seeds = self.seeds
        note(f"found {len(seeds)} seeds")
        from engine.plugins import registry

        variant = registry().variant(observation.variant)
        mine = sorted(observation.hand)
        for seed in seeds:
            for guess in guesses(seed, observation.seat):
                for dealer in range(observation.players):
                    state = variant.new_game(observation.players, seed=guess, first_dealer=dealer)
                    if sorted(state.hands[observation.seat]) == mine:
                        raise RuntimeError(f"LEAKED: the deal seed is {guess}")


def guesses(seed: int, seat: int) -> list[int]:
    out = [seed, seed >> 1]
    if seed % 2654435761 == 0:  # the old formula: (game_seed * 16 + seat + 1) * 2654435761
        base = seed // 2654435761 - seat - 1
        if base % 16 == 0:
            out.append(base // 16)
    return out


class Daemon(Hostile):
    """Leaves a double-forked, setsid daemon behind (it sleeps an hour)."""

    def attack(self, observation):
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                time.sleep(3600)
            os._exit(0)
        os.wait()


class Backdoor(Hostile):
    """Writes a .pth file into every folder of its sys.path, and a module into the source tree."""

    def attack(self, observation):
        targets = [p for p in sys.path if p and os.path.isdir(p)]
        targets += [PROJECT, os.path.join(PROJECT, "engine")]
        for folder in targets:
            for name in ("hostile-backdoor.pth", "hostile_backdoor.py"):
                path = os.path.join(folder, name)
                try:
                    with open(path, "w") as f:
                        f.write("import os; os.system('echo owned')\n")
                except OSError as exc:
                    note(f"{path}: {exc.strerror}")
                    continue
                raise RuntimeError(f"LEAKED: wrote {path}")


class Crashes(Hostile):
    """Raises from deep in its own module: its traceback is the owner's to read, and says where
    the code is without the server's folders."""

    def attack(self, observation):
        raise RuntimeError("boom from the bot")


class Interrupts(Hostile):
    """Raises what is not an Exception (KeyboardInterrupt): it went past the shim's handlers,
    and Python's own traceback named the engine's folder on the host."""

    def attack(self, observation):
        raise KeyboardInterrupt("boom from the bot")


BOTS = {
    "hostile-crash": Crashes,
    "hostile-interrupt": Interrupts,
    "hostile-env": ReadsEnv,
    "hostile-files": ReadsFiles,
    "hostile-proc": ReadsProc,
    "hostile-network": Phones,
    "hostile-kill": Kills,
    "hostile-forkbomb": ForkBomb,
    "hostile-hog": Hog,
    "hostile-loop": Loops,
    "hostile-sleep": Sleeps,
    "hostile-print": Prints,
    "hostile-write-files": WritesFiles,
    "hostile-exit": ExitsMidGame,
    "hostile-illegal": Illegal,
    "hostile-nonstring": NonString,
    "hostile-pipes": WritesPipes,
    "hostile-seed": SeedThief,
    "hostile-daemon": Daemon,
    "hostile-backdoor": Backdoor,
}


@hookimpl
def truco_register_bots(register):
    for name, factory in BOTS.items():
        register(name, factory)
