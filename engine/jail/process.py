"""A running jail: one bot process and the protocol transport to it (engine/protocol.py).

Messages go to the bot's standard input; its answers come from its standard output, one line
each, within a hard deadline (poll on non-blocking pipes: no thread); its standard error is read
whenever the runner waits and kept, bounded, as its log (its first and last lines, and the count
of what was between: engine/bot_logs.py). Closing it ends every process of the
jail: the outer bwrap is killed, the jail's init dies with it (`--die-with-parent`) and with it
the whole PID namespace; where the jail has a cgroup, whatever is left in it is killed too.
"""

from __future__ import annotations

import array
import codecs
import contextlib
import fcntl
import json
import os
import re
import select
import signal
import subprocess
import tempfile
import termios
import time
from collections.abc import Mapping, Sequence
from typing import Any

from ..bot_logs import LogKeeper
from ..protocol import MAX_REPLY_BYTES, BotExited, BotTimeout, MalformedReply, encode
from .cgroup import JailCgroup, join_command, make_cgroup
from .command import JAIL_UID, args_in_fd, bwrap_command, userns_command
from .limits import DEFAULT, Limits
from .probe import availability, unsafe_unjailed
from .seccomp import program_fd
from .uids import UidLease, lease_uid
from .watchdog import Watch, unwatch, watch

GRACE_SECONDS = 1.0  # for a bot to leave by itself once its input closes
PENDING_BYTES = 1 << 16  # notices held at most before they are written anyway
DROP_BURST = 1 << 20  # log bytes read at most per DROP_PAUSE once the log drops some
DROP_PAUSE = 0.05
READ_CHUNK = 1 << 16
# Written into a bot's log at each of its timeouts, so that its author sees where they were:
# a start-up that outran its allowance (its input was still unread when its start-up seconds
# were up, and no answer came in the decision's time after them), or a decision over its time.
# The smoke match (engine/bundles/smoke.py) reads the last to say which it was.
TIMEOUT_NOTE = "\n[the server: {detail}]\n"
TIMEOUT_NOTE_PATTERN = re.compile(
    r"\[the server: (?:did not answer its first message within (?P<startup>[0-9.]+) s of "
    r"starting|no answer within [0-9.]+s|the bot stopped reading its input)\]"
)


def startup_detail(startup_seconds: float) -> str:
    return f"did not answer its first message within {startup_seconds:g} s of starting"


class JailedProcess:
    """The `Transport` to one jailed command."""

    def __init__(
        self,
        command: Sequence[str],
        *,
        files: str | None = None,
        binds: Sequence[str] = (),
        env: Mapping[str, str] | None = None,
        limits: Limits = DEFAULT,
    ):
        self.limits = limits
        self._uid: UidLease | None = None
        self._as_root = False
        self._cgroup: JailCgroup | None = None
        self._log = LogKeeper(limits.log_kb << 10)
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._buffer = b""
        self._pending: list[bytes] = []  # notices not written yet
        self._fresh = True  # its first decision waits for it to have started
        self._exit: str | None = None
        self._log_paused_until: float | None = None  # reading its log again from then
        self._fds: list[int] = []  # for bwrap: the seccomp filter and its arguments
        self._watch: Watch | None = None  # the runner's own watch, for a jail with no cgroup
        self._leaves: list[int] | None = None  # the bot's innermost processes (settle)
        try:
            argv, cwd, host_env = self._argv(list(command), files, binds, env or {})
        except BaseException:
            self._close_fds()
            self._release()
            raise
        try:
            self._proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                close_fds=True,
                pass_fds=tuple(self._fds),
                start_new_session=True,  # the terminal's Ctrl-C is the runner's, not the bot's
                env=host_env,
                cwd=cwd,
            )
        except OSError as exc:
            self._release()
            raise BotExited("bot process could not start", str(exc)) from None
        finally:
            self._close_fds()  # bwrap holds its own copies
        self._stdin = self._proc.stdin.fileno()
        self._stdout = self._proc.stdout.fileno()
        self._stderr = self._proc.stderr.fileno()
        for fd in (self._stdin, self._stdout, self._stderr):
            os.set_blocking(fd, False)
        self._poll = select.poll()
        self._poll.register(self._stdout, select.POLLIN)
        self._poll.register(self._stderr, select.POLLIN)
        self.pid = self._proc.pid
        if self._uid is not None and not self.cpu_quota:  # what no cgroup bounds, the runner does
            self._watch = watch(
                self._uid.uid,
                None if self.memory_cgroup else limits.memory_mb,
                limits.cpus,
                limits.startup_seconds,
            )

    def _close_fds(self) -> None:
        while self._fds:
            os.close(self._fds.pop())

    @property
    def memory_cgroup(self) -> bool:
        """Whether a cgroup bounds its resident memory (else RLIMIT_DATA does)."""
        return self._cgroup is not None

    @property
    def cpu_quota(self) -> bool:
        """Whether a cgroup quota bounds the CPU the whole jail uses at once."""
        return self._cgroup is not None and self._cgroup.cpu_limited

    @property
    def uid(self) -> int | None:
        """The jail's own host uid (None only when running unjailed, by the development
        switch)."""
        return self._uid.uid if self._uid else None

    @property
    def uid_inside(self) -> int | None:
        """The bot's uid as it sees it: its host uid as root runs it, JAIL_UID in the user
        namespace of an ordinary runner's jail."""
        if self._uid is None:
            return None
        return self._uid.uid if self._as_root else JAIL_UID

    def _argv(self, command, files, binds, env) -> tuple[list[str], str | None, dict]:
        """(argv, working folder, environment) of the process the runner starts."""
        if unsafe_unjailed():  # a developer's own machine: no jail at all, said loudly
            plain = {"PATH": os.defpath, "HOME": tempfile.gettempdir(), "LANG": "C.UTF-8"}
            return command, files or tempfile.gettempdir(), {**plain, **env}
        jail = availability()
        jail.require()
        seccomp_fd = program_fd()
        self._fds.append(seccomp_fd)
        self._as_root = jail.as_root
        self._uid = lease_uid(jail.pool)
        # Root may make cgroups; an ordinary runner only in a tree delegated to it.
        self._cgroup = make_cgroup(
            f"truco-jail-{self._uid.uid}",
            self.limits.memory_mb,
            self.limits.processes,
            self.limits.cpus,
        )
        argv = bwrap_command(
            command,
            bwrap=jail.bwrap,
            limits=self.limits,
            uid=self.uid_inside,
            binds=binds,
            files=files,
            env=env,
            memory_by_cgroup=self._cgroup is not None,
            cpu_by_cgroup=self.cpu_quota,
            seccomp_fd=seccomp_fd,
        )
        argv, args_fd = args_in_fd(argv)
        self._fds.append(args_fd)
        if not jail.as_root:
            argv = userns_command(self._uid.uid, self._uid.gid, argv)
        # bwrap itself needs no environment; the bot's is set inside (--clearenv, --setenv).
        return join_command(self._cgroup, argv), None, {"PATH": os.defpath}

    # --- the Transport ---------------------------------------------------------------------
    def send(self, message: Mapping[str, Any], seconds: float = 10.0) -> None:
        """Notices are held and written with the next request (or at the end): the bot reads
        them in order all the same, and is woken once per decision instead of once per
        message, which is most of the cost of a jailed decision."""
        self._pending.append(encode(message))
        if sum(map(len, self._pending)) > PENDING_BYTES:
            self._flush(time.monotonic() + seconds)

    def _flush(self, deadline: float, last: bytes = b"") -> None:
        data, self._pending = b"".join(self._pending) + last, []
        if data:
            self._write(data, deadline)

    def request(self, message: Mapping[str, Any], seconds: float) -> Any:
        self._buffer = b""  # lines nobody asked for are not answers
        started = True
        try:
            self._flush(time.monotonic() + seconds + self.limits.startup_seconds, encode(message))
            if self._fresh:
                self._fresh = False
                started = self._await_start()
            line = self._read_line(time.monotonic() + seconds, seconds)
        except BotTimeout as exc:
            late = exc if started else self._startup_timeout(seconds)
            self._log.add(TIMEOUT_NOTE.format(detail=late.detail))
            raise late from None
        try:
            return json.loads(line)
        except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: too deep
            raise MalformedReply(
                "answered a line that is not JSON", line[:200].decode("utf-8", "replace")
            ) from None

    def _startup_timeout(self, seconds: float) -> BotTimeout:
        startup = self.limits.startup_seconds
        return BotTimeout(
            startup_detail(startup),
            f"its input was still unread after its {startup:g} s to start, and no answer came "
            f"in the {seconds:g} s to decide after them",
        )

    def log_since_last(self) -> str:
        self._drain_log()
        text = self._log.text()
        self._log = LogKeeper(self.limits.log_kb << 10)
        return text

    def close(self, graceful: bool = True) -> None:
        proc = self._proc
        if proc.returncode is None:
            if graceful:  # the last notices (the match's end) reach it before its input closes
                with contextlib.suppress(BotExited, BotTimeout):
                    self._flush(time.monotonic() + GRACE_SECONDS)
            with contextlib.suppress(OSError):
                proc.stdin.close()
            if graceful:
                end = time.monotonic() + GRACE_SECONDS
                while proc.poll() is None and time.monotonic() < end:
                    self._drain_log()
                    time.sleep(0.005)
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(proc.pid, signal.SIGKILL)
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
            proc.wait()
        self._drain_log(final=True)
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            with contextlib.suppress(OSError):
                stream.close()
        self._release()

    def _release(self) -> None:
        if self._watch is not None:
            unwatch(self._watch)
        if self._cgroup is not None:
            self._cgroup.remove()
        if self._uid is not None:
            self._uid.release()

    def _await_start(self) -> bool:
        """A bot that just started is given time to load before its clock runs: its decision
        time starts when it has read its input (the request included), or when its
        `startup_seconds` are up. Whether it read its input (or ended) within them."""
        end = time.monotonic() + self.limits.startup_seconds
        pause = 0.0005
        while True:
            if self._proc.poll() is not None or self._has_read_its_input():
                return True  # (one that died is not one that was slow)
            if time.monotonic() >= end:
                return False
            self._drain_log()
            time.sleep(pause)
            pause = min(pause * 2, 0.01)

    def _has_read_its_input(self) -> bool:
        unread = array.array("i", [0])
        try:
            fcntl.ioctl(self._stdin, termios.FIONREAD, unread)
        except OSError:
            return True  # its input is closed: nothing waits there
        return unread[0] == 0

    # --- the pipes -------------------------------------------------------------------------
    def settle(self, seconds: float) -> None:
        """Deliver the notices held (BotExited or BotTimeout as `send`) and wait, at most
        `seconds`, until the bot has read all its input and is blocked again, waiting for the
        next message: then what it wrote on hearing them (`game_end`) is in its log rather than
        in the next game's. No protocol message is answered but `act`, so this is watched
        from /proc (the threads of the jail's innermost processes, found once)."""
        proc = self._proc
        if proc.poll() is not None:
            return
        self._flush(time.monotonic() + GRACE_SECONDS)
        if seconds <= 0:
            return
        end = time.monotonic() + seconds
        unread = array.array("i", [0])
        pause = 0.00005
        while True:
            try:
                fcntl.ioctl(self._stdin, termios.FIONREAD, unread)
            except OSError:
                break
            if unread[0] == 0 and self._idle():
                break
            if time.monotonic() >= end or proc.poll() is not None:
                break
            self._drain_log()
            time.sleep(pause)
            pause = min(pause * 2, 0.002)
        self._drain_log()

    def _idle(self) -> bool:
        """Whether no thread of the bot's innermost processes runs or waits to run (R) or is in
        an uninterruptible wait (D)."""
        if self._leaves is None:
            self._leaves = _leaf_pids(self._proc.pid)
        try:
            for pid in self._leaves:
                for task in os.listdir(f"/proc/{pid}/task"):
                    fd = os.open(f"/proc/{pid}/task/{task}/stat", os.O_RDONLY)
                    try:
                        stat = os.read(fd, 4096)
                    finally:
                        os.close(fd)
                    if stat.rsplit(b")", 1)[1].split(None, 1)[0] in (b"R", b"D"):
                        return False
        except (OSError, IndexError):  # one of them is gone: look for them again next time
            self._leaves = None
        return True

    def _write(self, data: bytes, deadline: float) -> None:
        view = memoryview(data)
        while view:
            try:
                written = os.write(self._stdin, view)
            except BlockingIOError:
                written = 0
            except (BrokenPipeError, ValueError, OSError):
                raise self._gone() from None
            view = view[written:]
            if not view:
                return
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise BotTimeout("the bot stopped reading its input")
            self._drain_log()
            select.select([], [self._stdin], [], min(remaining, 0.05))

    def _read_line(self, deadline: float, seconds: float) -> bytes:
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                line, self._buffer = self._buffer[:end], self._buffer[end + 1 :]
                return line
            if len(self._buffer) > MAX_REPLY_BYTES:
                raise MalformedReply(
                    f"answered more than {MAX_REPLY_BYTES} bytes in one line",
                    self._buffer[:200].decode("utf-8", "replace"),
                )
            now = time.monotonic()
            remaining = deadline - now
            if remaining <= 0:
                raise BotTimeout(f"no answer within {seconds:g}s")
            if self._log_paused_until is not None:
                if now >= self._log_paused_until:
                    self._resume_log()
                else:
                    remaining = min(remaining, self._log_paused_until - now)
            for fd, _ in self._poll.poll(remaining * 1000):
                if fd == self._stderr:
                    self._drain_log()
                    continue
                try:
                    chunk = os.read(self._stdout, READ_CHUNK)
                except BlockingIOError:
                    continue
                if not chunk:
                    raise self._gone()
                self._buffer += chunk

    def _drain_log(self, final: bool = False) -> None:
        """Read its standard error into its log, which keeps `log_kb` Ki characters: the first
        half as they came, the latest half, and the count of what fell between. Once it drops
        some, at most DROP_BURST bytes are read every DROP_PAUSE seconds: forty processes
        writing at once kept the runner reading (two seconds of its CPU a second) while the bot
        still answered in time. Its writers wait on the pipe meanwhile, as on a slow terminal."""
        if self._log_paused_until is not None:
            if not final and time.monotonic() < self._log_paused_until:
                return
            self._resume_log()
        flooded = 0
        while True:
            try:
                chunk = os.read(self._stderr, READ_CHUNK)
            except (BlockingIOError, OSError, ValueError):
                return
            if not chunk:
                self._log.add(self._decoder.decode(b"", final=True))
                with contextlib.suppress(KeyError):
                    self._poll.unregister(self._stderr)
                self._log_paused_until = None
                return
            self._log.add(self._decoder.decode(chunk))
            if self._log.full:
                flooded += len(chunk)
            if flooded >= DROP_BURST:
                if not final:
                    self._pause_log()
                return

    def _pause_log(self) -> None:
        self._log_paused_until = time.monotonic() + DROP_PAUSE
        with contextlib.suppress(KeyError):
            self._poll.unregister(self._stderr)

    def _resume_log(self) -> None:
        self._log_paused_until = None
        self._poll.register(self._stderr, select.POLLIN)

    def _gone(self) -> BotExited:
        """The bot's process is gone (or closed its pipes): how it ended, in fixed words."""
        proc = self._proc
        try:
            code = proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            code = None
        self._drain_log()
        if self._watch is not None and self._watch.verdict is not None:
            detail = self._watch.verdict
        elif code is None:
            detail = "bot process closed its output"
        elif self._cgroup is not None and self._cgroup.oom_killed():
            detail = f"bot process was killed over its memory limit of {self.limits.memory_mb} MiB"
        elif code > 128 or code < 0:
            number = code - 128 if code > 128 else -code
            try:
                name = signal.Signals(number).name
            except ValueError:
                name = f"signal {number}"
            detail = f"bot process was killed by {name}"
            if number == signal.SIGXCPU:
                detail += f" (over its {self.limits.cpu_seconds} CPU seconds)"
        else:
            detail = f"bot process exited with code {code}"
        return BotExited(detail, self._log.last(2000))


def _leaf_pids(pid: int) -> list[int]:
    """The processes under `pid` (itself included) that have no children: the bot's own, under
    the jail's init."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children", "rb") as children:
            kids = [int(child) for child in children.read().split()]
    except (OSError, ValueError):
        return []
    if not kids:
        return [pid]
    return [leaf for kid in kids for leaf in _leaf_pids(kid)]
