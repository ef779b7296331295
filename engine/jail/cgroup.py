"""A cgroup per jail, for what rlimits cannot bound well: resident memory (a JVM reserves far
more address space than it uses), the number of processes of the whole jail, and the CPU the
whole jail may use at once (RLIMIT_CPU is per process: 60 processes spinning between their
answers took both cores of the host, and every game still ended normally).

cgroup v1 (separate `memory`, `pids` and `cpu` hierarchies) or v2 (one unified tree), made as children
of the runner's own cgroup so that the runner's limits still hold. Only where the runner may
create them (root, or a delegated tree); elsewhere the jail falls back to rlimits. The CPU
quota is made where the `cpu` controller is there too, and left out (rlimits still bound each
process) where it is not. The jailed
command joins its cgroup before it starts (`join_command`), so nothing of it runs outside.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time

ROOT = "/sys/fs/cgroup"


def _own_path(controller: str | None) -> str | None:
    """The runner's cgroup path in `controller`'s v1 hierarchy, or in v2 (None)."""
    try:
        with open("/proc/self/cgroup", encoding="ascii") as lines:
            for line in lines:
                _, names, path = line.rstrip("\n").split(":", 2)
                if controller is None and names == "":
                    return path
                if controller is not None and controller in names.split(","):
                    return path
    except OSError:
        return None
    return None


class JailCgroup:
    """The folders of one jail's cgroup (one per hierarchy)."""

    def __init__(
        self, folders: list[str], memory: str, events: str | None, cpu_limited: bool = False
    ):
        self.folders = folders
        self.memory = memory  # the folder with the memory controller
        self._events = events  # the file that counts OOM kills
        self.cpu_limited = cpu_limited  # whether a CPU quota bounds the whole jail

    @property
    def procs_files(self) -> list[str]:
        return [os.path.join(f, "cgroup.procs") for f in self.folders]

    def oom_killed(self) -> bool:
        if self._events is None:
            return False
        try:
            with open(self._events, encoding="ascii") as events:
                for line in events:
                    key, _, value = line.partition(" ")
                    if key == "oom_kill" and int(value) > 0:
                        return True
        except (OSError, ValueError):
            pass
        return False

    def pids(self) -> list[int]:
        found = set()
        for procs in self.procs_files:
            with contextlib.suppress(OSError, ValueError), open(procs, encoding="ascii") as f:
                found.update(int(line) for line in f if line.strip())
        return sorted(found)

    def kill_all(self) -> None:
        """Every process still in the jail's cgroup (there should be none once its PID
        namespace ended): belt and braces before the folders go."""
        for _ in range(50):
            pids = self.pids()
            if not pids:
                return
            for pid in pids:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.01)

    def remove(self) -> None:
        self.kill_all()
        for folder in self.folders:
            for _ in range(50):
                try:
                    os.rmdir(folder)
                    break
                except FileNotFoundError:
                    break
                except OSError:  # busy while the last process is being reaped
                    time.sleep(0.01)


def _mkdir_fresh(folder: str) -> None:
    """Make the folder; one left by a runner that was killed (same uid lease, so no jail of it
    runs any more) is emptied and made again."""
    try:
        os.mkdir(folder, 0o755)
    except FileExistsError:
        JailCgroup([folder], folder, None).remove()
        os.mkdir(folder, 0o755)


def _write(path: str, value: str) -> None:
    with open(path, "w", encoding="ascii") as f:
        f.write(value)


PERIOD_US = 100_000  # the CPU quota's period: the kernel's default


def _make_v1(name: str, memory_bytes: int, processes: int, cpus: float) -> JailCgroup | None:
    memory_own, pids_own = _own_path("memory"), _own_path("pids")
    if memory_own is None or pids_own is None:
        return None
    memory = os.path.join(ROOT, "memory", memory_own.lstrip("/"), name)
    pids = os.path.join(ROOT, "pids", pids_own.lstrip("/"), name)
    cpu_own = _own_path("cpu")
    cpu = None
    if cpu_own is not None and os.path.isdir(os.path.join(ROOT, "cpu")):
        cpu = os.path.join(ROOT, "cpu", cpu_own.lstrip("/"), name)
    made = []
    try:
        for folder in (memory, pids):
            _mkdir_fresh(folder)
            made.append(folder)
        _write(os.path.join(memory, "memory.limit_in_bytes"), str(memory_bytes))
        swap = os.path.join(memory, "memory.memsw.limit_in_bytes")
        if os.path.exists(swap):  # no swap beyond the memory limit either
            _write(swap, str(memory_bytes))
        _write(os.path.join(pids, "pids.max"), str(processes))
    except OSError:
        for folder in made:
            with contextlib.suppress(OSError):
                os.rmdir(folder)
        return None
    if cpu is not None:
        try:
            _mkdir_fresh(cpu)
            _write(os.path.join(cpu, "cpu.cfs_period_us"), str(PERIOD_US))
            _write(os.path.join(cpu, "cpu.cfs_quota_us"), str(_quota_us(cpus)))
            made.append(cpu)
        except OSError:
            with contextlib.suppress(OSError):
                os.rmdir(cpu)
    return JailCgroup(
        made, memory, os.path.join(memory, "memory.oom_control"), cpu_limited=cpu in made
    )


def _quota_us(cpus: float) -> int:
    return max(1000, int(cpus * PERIOD_US))


def _make_v2(name: str, memory_bytes: int, processes: int, cpus: float) -> JailCgroup | None:
    own = _own_path(None)
    if own is None:
        return None
    parent = os.path.join(ROOT, own.lstrip("/"))
    try:
        with open(os.path.join(parent, "cgroup.subtree_control"), encoding="ascii") as f:
            enabled = f.read().split()
    except OSError:
        return None
    if "memory" not in enabled or "pids" not in enabled:
        return None
    folder = os.path.join(parent, name)
    try:
        _mkdir_fresh(folder)
        _write(os.path.join(folder, "memory.max"), str(memory_bytes))
        _write(os.path.join(folder, "memory.swap.max"), "0")
        _write(os.path.join(folder, "pids.max"), str(processes))
        if "cpu" in enabled:
            _write(os.path.join(folder, "cpu.max"), f"{_quota_us(cpus)} {PERIOD_US}")
    except OSError:
        with contextlib.suppress(OSError):
            os.rmdir(folder)
        return None
    return JailCgroup(
        [folder], folder, os.path.join(folder, "memory.events"), cpu_limited="cpu" in enabled
    )


def make_cgroup(name: str, memory_mb: int, processes: int, cpus: float = 1.0) -> JailCgroup | None:
    """A fresh cgroup for one jail, or None where the runner may not make one. `cpus`: how many
    cores' worth of CPU time the whole jail may use at once."""
    memory_bytes = memory_mb << 20
    if os.path.isdir(os.path.join(ROOT, "memory")) and os.path.isdir(os.path.join(ROOT, "pids")):
        return _make_v1(name, memory_bytes, processes, cpus)
    if os.path.exists(os.path.join(ROOT, "cgroup.controllers")):
        return _make_v2(name, memory_bytes, processes, cpus)
    return None


# Joins the cgroups named before "--", then becomes the command after it.
_JOIN = 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; exec "$@"'


def join_command(cgroup: JailCgroup | None, argv: list[str]) -> list[str]:
    if cgroup is None:
        return argv
    return ["/bin/sh", "-c", _JOIN, "jail", *cgroup.procs_files, "--", *argv]
