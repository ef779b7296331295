"""How much a jailed bot may use. The defaults are what docs/bot-protocol.md promises."""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Limits:
    memory_mb: int = 512  # resident memory (cgroup), or data segment (RLIMIT_DATA) without one
    processes: int = 64  # processes and threads (a JVM starts some twenty threads)
    open_files: int = 256
    cpu_seconds: int = 600  # per process, over the whole match (RLIMIT_CPU)
    cpus: float = 1.0  # CPU time of the whole jail at once, in cores (a cgroup quota)
    niceness: int = 10  # its priority where no cgroup quota bounds its CPU
    tmp_mb: int = 64  # the private tmpfs at /tmp, also its home
    file_mb: int = 64  # the largest file it may write (RLIMIT_FSIZE)
    log_kb: int = 256  # standard error kept per game; the rest is counted, not kept
    startup_seconds: float = 5.0  # extra time for the first decision after a (re)start

    def to_dict(self) -> dict:
        return asdict(self)


DEFAULT = Limits()
