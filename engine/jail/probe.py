"""Can a jail be built here? Probed once per process by building one for real; when it cannot,
untrusted bots are refused with the reason and what to do about it.

`TRUCO_UNSAFE_UNJAILED_BOTS=1` runs them without any jail instead: for a developer's own
machine only, never on a server (the bot's code can then read and change everything the runner
can).
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from dataclasses import dataclass

from ..errors import TrucoError
from .command import JAIL_UID, args_in_fd, bwrap_command, userns_command
from .limits import DEFAULT
from .seccomp import SeccompUnavailable, program_fd
from .uids import UidPool, UidPoolUnavailable, lease_uid, root_pool, subordinate_pool

UNSAFE_ENV = "TRUCO_UNSAFE_UNJAILED_BOTS"
BWRAP_ENV = "TRUCO_BWRAP"  # the bwrap to use (default: the one on PATH)

HOW_TO_ENABLE = (
    "install bubblewrap (Debian: apt-get install bubblewrap); a runner that is not root also "
    "needs newuidmap (apt-get install uidmap), subordinate ids of its own (usermod "
    "--add-subuids 1300000-1365535 --add-subgids 1300000-1365535 USER) and user namespaces "
    "(sysctl kernel.unprivileged_userns_clone=1 and user.max_user_namespaces > 0); in a "
    "container, run the worker as docker-compose.yml does (seccomp and AppArmor unconfined). "
    "`python -m engine jail-check` tells what works"
)
# What an ordinary runner's jail needs besides bwrap (engine/jail/command.py userns_command).
USERNS_TOOLS = ("/usr/bin/unshare", "/usr/bin/newuidmap", "/usr/bin/newgidmap")


class JailUnavailable(TrucoError):
    """Untrusted code was to run, and no jail can be built here."""


@dataclass(frozen=True)
class Availability:
    ok: bool
    reason: str  # why not, or what was verified
    bwrap: str | None = None
    as_root: bool = False  # bwrap run as root: the bot drops to a uid of its own
    # Where the jails' uids come from: any uid for root, the subordinate ids of anyone else.
    pool: UidPool | None = None

    def require(self) -> None:
        if not self.ok:
            raise JailUnavailable(
                f"untrusted bots are refused: the jail cannot be built here ({self.reason}); "
                f"to enable it, {HOW_TO_ENABLE}"
            )


def unsafe_unjailed() -> bool:
    """The loudly named development switch, read at every use."""
    return os.environ.get(UNSAFE_ENV, "") == "1"


def bwrap_path() -> str | None:
    chosen = os.environ.get(BWRAP_ENV)
    if chosen:
        return chosen if os.access(chosen, os.X_OK) else None
    return shutil.which("bwrap")


def _userns_tools_missing() -> str | None:
    for tool in USERNS_TOOLS:
        if not os.access(tool, os.X_OK):
            return f"{tool} is not installed"
    for tool in USERNS_TOOLS[1:]:
        info = os.stat(tool)
        if not (info.st_mode & 0o4000 and info.st_uid == 0):
            return f"{tool} is not setuid root"
    return None


@functools.cache
def _probe(bwrap: str | None, euid: int) -> Availability:
    """Builds a jail for real, as bots get it, and runs /bin/true in it."""
    if bwrap is None:
        return Availability(False, "bubblewrap (bwrap) is not installed")
    as_root = euid == 0
    if not as_root:
        missing = _userns_tools_missing()
        if missing:
            return Availability(False, f"the runner is not root, and {missing}", bwrap, as_root)
    try:
        pool = root_pool() if as_root else subordinate_pool(euid)
        lease = lease_uid(pool)
    except UidPoolUnavailable as exc:
        why = f"the runner is not root, and {exc}" if not as_root else str(exc)
        return Availability(False, why, bwrap, as_root)
    try:
        seccomp_fd = program_fd()
    except (SeccompUnavailable, OSError) as exc:
        lease.release()
        return Availability(False, str(exc), bwrap, as_root)
    args_fd = None
    try:
        argv = bwrap_command(
            ["/bin/true"],
            bwrap=bwrap,
            limits=DEFAULT,
            uid=lease.uid if as_root else JAIL_UID,
            seccomp_fd=seccomp_fd,
        )
        argv, args_fd = args_in_fd(argv)  # as bots get it (engine/jail/process.py)
        if not as_root:
            argv = userns_command(lease.uid, lease.gid, argv)
        try:
            done = subprocess.run(
                argv,
                capture_output=True,
                timeout=20,
                stdin=subprocess.DEVNULL,
                pass_fds=(seccomp_fd, args_fd),
            )
        except (OSError, subprocess.SubprocessError) as exc:
            return Availability(False, f"bwrap could not run: {exc}", bwrap, as_root)
    finally:
        os.close(seccomp_fd)
        if args_fd is not None:
            os.close(args_fd)
        lease.release()
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()
        return Availability(
            False,
            f"bwrap failed: {why[-1] if why else f'exit code {done.returncode}'}",
            bwrap,
            as_root,
        )
    how = (
        "as root, dropping to a uid of its own"
        if as_root
        else f"in a user namespace, as a subordinate uid of its own (from {pool.first_uid})"
    )
    return Availability(True, f"bwrap {bwrap} builds a jail {how}", bwrap, as_root, pool)


def availability() -> Availability:
    return _probe(bwrap_path(), os.geteuid())


def reset() -> None:
    """Probe again at the next use (tests change PATH or TRUCO_BWRAP)."""
    _probe.cache_clear()
