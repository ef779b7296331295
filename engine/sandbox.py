"""Bots in child processes, for code the server does not trust.

Each bot runs in a fresh Python interpreter started for one game (never forked from the runner,
so no memory of the runner's is ever in the child: not the hidden cards, not the other bots).
The child hears about the game only through its observations, sent as JSON lines on a pipe, and
answers with action strings on another pipe; it acts for its own seat and no other.

Before it loads any plugin, the child limits itself: address space (RLIMIT_AS), CPU seconds
(RLIMIT_CPU), the size of files it may write (RLIMIT_FSIZE, which also bounds its printed
output), no core dumps, and, when the runner is root and Python is installed where others may
read it, it drops to an unprivileged user. It
runs in its own session, with an environment stripped of the runner's (no database URL, no
secrets), in the temporary directory, and where the system allows it (the runner is root and
util-linux's `unshare` works) in a network namespace of its own: no network at all, not even
the runner's database or broker on loopback.

Every decision has a hard deadline: a child that has not answered by then is killed (with its
whole process group) and `DecisionTimeout` is raised; a fresh child (a new bot, which remembers
nothing of the game but what its observations tell) takes the seat's next decision.
A child that dies or raises gives `BotCrashed`; an answer that is not a string comes back as a
`Malformed` object, which is never a legal action.

Run as `python -m engine.sandbox REQUEST_FD REPLY_FD` it is the child side.
"""

from __future__ import annotations

import functools
import json
import os
import random
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .bot import BotCrashed, DecisionTimeout
from .observation import Observation

DEFAULT_DEADLINE = 10.0  # seconds per decision when the match sets none
STARTUP_SECONDS = 30.0  # to start Python, load the plugins and build the bot
MAX_LINE = 1 << 20  # a reply longer than this is malformed
UNPRIVILEGED = 65534  # "nobody": the user a child started by root runs as
ENGINE_ROOT = str(Path(__file__).resolve().parent.parent)


@functools.cache
def network_jail() -> tuple[str, ...]:
    """The command prefix that starts the child without any network, or () where the system
    does not allow it (not root, no `unshare`, namespaces disabled): probed once."""
    tool = shutil.which("unshare")
    if tool is None or os.geteuid() != 0:
        return ()
    try:
        probe = subprocess.run([tool, "--net", "true"], capture_output=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return ()
    return (tool, "--net", "--") if probe.returncode == 0 else ()


@dataclass(frozen=True)
class Limits:
    memory_mb: int = 1024
    cpu_seconds: int = 300  # per game: the child is killed by the kernel past it
    output_kb: int = 1024  # what the bot may print (kept for crash reports) or write


class Malformed:
    """An answer that is not an action string; it never equals a legal action."""

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return self.text


class ProcessBot:
    """A registered bot run in a child process; quacks like `engine.bot.Bot` for the runner."""

    enforces_deadline = True  # the runner leaves the timing of decisions to it

    def __init__(
        self,
        name: str,
        params: Mapping[str, Any] | None = None,
        *,
        variant: str,
        options: Mapping[str, Any],
        seat: int,
        players: int,
        seed: int,
        deadline: float | None = None,
        limits: Limits | None = None,
    ):
        self.name = name
        self.deadline = DEFAULT_DEADLINE if deadline is None else deadline
        self.limits = limits or Limits()
        self.hello = {
            "bot": name,
            "params": dict(params or {}),
            "variant": variant,
            "options": {k: list(v) if isinstance(v, tuple) else v for k, v in options.items()},
            "seat": seat,
            "players": players,
            "seed": seed,
            "limits": asdict(self.limits),
        }
        self.seat = seat
        self._proc: subprocess.Popen | None = None
        self._ready = False
        self._next_id = 0
        self._start()

    # --- the child's life ------------------------------------------------------------------
    def _start(self) -> None:
        request_read, self._request = os.pipe()
        self._reply, reply_write = os.pipe()
        self._log = tempfile.TemporaryFile()
        env = {
            "PATH": os.defpath,
            "PYTHONPATH": os.pathsep.join(
                p for p in (ENGINE_ROOT, os.environ.get("PYTHONPATH")) if p
            ),
            "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONIOENCODING": "utf-8",
            "LANG": "C.UTF-8",
            "HOME": tempfile.gettempdir(),
        }
        blocked = os.environ.get("TRUCO_BLOCKED_PLUGINS")
        if blocked:
            env["TRUCO_BLOCKED_PLUGINS"] = blocked
        try:
            self._proc = subprocess.Popen(
                [
                    *network_jail(),
                    sys.executable,
                    "-B",
                    "-m",
                    "engine.sandbox",
                    str(request_read),
                    str(reply_write),
                ],
                stdin=subprocess.DEVNULL,
                stdout=self._log,
                stderr=self._log,
                pass_fds=(request_read, reply_write),
                cwd=tempfile.gettempdir(),
                env=env,
                start_new_session=True,
            )
        finally:
            os.close(request_read)
            os.close(reply_write)
        os.set_blocking(self._request, False)
        self._buffer = b""
        self._ready = False
        try:
            # A fresh pipe holds the whole hello: this write does not wait for the child.
            self._send(self.hello, time.monotonic() + STARTUP_SECONDS)
        except (BotCrashed, DecisionTimeout, OSError) as exc:
            self._startup_error = str(exc)  # reported by the first decision, as a crash
        else:
            self._startup_error = None

    def _ensure_ready(self) -> None:
        if self._proc is None:
            self._start()
        if self._ready:
            return
        if self._startup_error:
            self.close()
            raise BotCrashed(f"bot {self.name!r} failed to start: {self._startup_error}")
        reply = self._read(time.monotonic() + STARTUP_SECONDS)
        if reply is None:
            self.close()
            raise BotCrashed(f"bot {self.name!r} did not start within {STARTUP_SECONDS:.0f}s")
        if "error" in reply:
            self.close()
            raise BotCrashed(f"bot {self.name!r} failed to start: {reply['error']}")
        self._ready = True

    def close(self, graceful: bool = True) -> None:
        """Stop the child: it is given a moment to leave when its requests end (`graceful`),
        then killed with its whole process group."""
        proc = self._proc
        if proc is None:
            return
        self._proc = None
        for fd in (self._request, self._reply):
            try:
                os.close(fd)
            except OSError:
                pass
        if graceful:
            try:
                proc.wait(timeout=0.2)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        proc.wait()
        self._log.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    # --- the bot interface -----------------------------------------------------------------
    def act(self, observation: Observation) -> Any:
        self._ensure_ready()
        self._next_id += 1
        ident = self._next_id
        deadline = time.monotonic() + self.deadline
        self._send({"id": ident, "observation": observation.to_dict()}, deadline)
        while True:
            reply = self._read(deadline)
            if reply is None:
                # Killed at its deadline. A fresh child starts now, while the game goes on, so
                # that its start-up does not eat into the seat's next decision.
                self.close(graceful=False)
                self._start()
                raise DecisionTimeout(f"no answer within {self.deadline}s")
            if reply.get("id") != ident:
                continue
            if "error" in reply:
                self.close()
                raise BotCrashed(str(reply["error"])[:500])
            action = reply.get("action")
            if isinstance(action, str):
                return action
            return Malformed(str(reply.get("malformed", repr(action)))[:200])

    def on_hand_end(self, observation: Observation) -> None:
        self._notice("hand_end", observation)

    def on_game_end(self, observation: Observation) -> None:
        self._notice("game_end", observation)

    def _notice(self, kind: str, observation: Observation) -> None:
        """Notices get no answer; the time a bot spends on one counts towards its next
        decision."""
        if self._proc is None or not self._ready:
            return
        try:
            self._send(
                {"notice": kind, "observation": observation.to_dict()},
                time.monotonic() + self.deadline,
            )
        except (BotCrashed, DecisionTimeout):
            pass  # the next decision reports it

    # --- the pipes -------------------------------------------------------------------------
    def _send(self, message: dict, deadline: float) -> None:
        data = (json.dumps(message) + "\n").encode()
        while data:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.close()
                raise DecisionTimeout("the bot stopped reading its requests")
            _, writable, _ = select.select([], [self._request], [], remaining)
            if not writable:
                continue
            try:
                written = os.write(self._request, data)
            except BrokenPipeError:
                raise BotCrashed(self._exit_detail()) from None
            data = data[written:]

    def _read(self, deadline: float) -> dict | None:
        """The next reply, or None when the deadline passes first."""
        while b"\n" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            readable, _, _ = select.select([self._reply], [], [], remaining)
            if not readable:
                return None
            chunk = os.read(self._reply, 65536)
            if not chunk:
                raise BotCrashed(self._exit_detail())
            self._buffer += chunk
            if len(self._buffer) > MAX_LINE:
                self.close()
                raise BotCrashed(f"the bot sent more than {MAX_LINE} bytes in one answer")
        line, _, self._buffer = self._buffer.partition(b"\n")
        try:
            reply = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError):
            return {"id": self._next_id, "malformed": repr(line[:200])}
        return reply if isinstance(reply, dict) else {"id": self._next_id, "malformed": repr(reply)}

    def _exit_detail(self) -> str:
        proc = self._proc
        code = None
        if proc is not None:
            try:
                code = proc.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                code = None
        if code is not None and code < 0:
            reason = f"killed by {signal.Signals(-code).name}"
            if -code == signal.SIGXCPU:
                reason += f" (over its {self.limits.cpu_seconds}s of CPU)"
        else:
            reason = f"exited with code {code}"
        tail = self._log_tail()
        self.close()
        return f"bot process {reason}" + (f": {tail}" if tail else "")

    def _log_tail(self) -> str:
        """The last line the bot printed (its traceback's last line, when it died of one)."""
        try:
            self._log.seek(0, os.SEEK_END)
            self._log.seek(max(0, self._log.tell() - 300))
            lines = self._log.read().decode("utf-8", "replace").strip().splitlines()
        except (OSError, ValueError):
            return ""
        return lines[-1] if lines else ""


# --- the child side ------------------------------------------------------------------------
def limit_self(limits: Mapping[str, int]) -> None:
    """Applied by the child before it loads any plugin; a soft limit it cannot raise again."""
    import resource

    memory = limits["memory_mb"] * 1024 * 1024
    cpu = limits["cpu_seconds"]
    output = limits["output_kb"] * 1024
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    resource.setrlimit(resource.RLIMIT_FSIZE, (output, output))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if os.geteuid() == 0 and readable_by_others(os.path.dirname(os.__file__), *sys.path):
        os.setgroups([])
        os.setgid(UNPRIVILEGED)
        os.setuid(UNPRIVILEGED)


def readable_by_others(*paths: str) -> bool:
    """Whether an unprivileged user could still import from these folders (Python installed
    under /root, as pyenv does, is not: there the child keeps the runner's user)."""
    import stat

    for path in paths:
        if not path or not os.path.isdir(path):
            continue
        folder = Path(path).resolve()
        for part in (folder, *folder.parents):
            mode = part.stat().st_mode
            if not mode & stat.S_IXOTH or (part == folder and not mode & stat.S_IROTH):
                return False
    return True


def child_main(request_fd: int, reply_fd: int) -> int:
    requests = os.fdopen(request_fd, "rb")
    replies = os.fdopen(reply_fd, "wb", buffering=0)

    def send(message: dict) -> None:
        try:
            data = json.dumps(message)
        except (TypeError, ValueError):
            data = json.dumps({"id": message.get("id"), "malformed": repr(message)[:200]})
        replies.write((data + "\n").encode())

    hello = json.loads(requests.readline())
    try:
        limit_self(hello["limits"])
        from types import MappingProxyType

        from .plugins import registry

        factory = registry().bot(hello["bot"])
        options = MappingProxyType(
            {k: tuple(v) if isinstance(v, list) else v for k, v in hello["options"].items()}
        )
        bot = factory(
            variant=hello["variant"],
            options=options,
            seat=hello["seat"],
            players=hello["players"],
            rng=random.Random(hello["seed"]),
            **hello["params"],
        )
    except BaseException as exc:  # noqa: BLE001 - whatever the plugin does, the runner hears of it
        send({"error": f"{type(exc).__name__}: {exc}"})
        return 1
    send({"ready": True})
    for line in requests:
        message = json.loads(line)
        observation = Observation.from_dict(message["observation"])
        if "notice" in message:
            try:
                if message["notice"] == "hand_end":
                    bot.on_hand_end(observation)
                else:
                    bot.on_game_end(observation)
            except Exception:
                pass  # a notice is a courtesy, as in the runner
            continue
        try:
            action = bot.act(observation)
        except BaseException as exc:  # noqa: BLE001
            send({"id": message["id"], "error": f"{type(exc).__name__}: {exc}"})
            return 1
        if not isinstance(action, str):
            send({"id": message["id"], "malformed": repr(action)[:200]})
            continue
        send({"id": message["id"], "action": action})
    return 0


if __name__ == "__main__":
    raise SystemExit(child_main(int(sys.argv[1]), int(sys.argv[2])))
