"""Where a worker's time goes: with TRUCO_PROFILE_DIR set, each Celery worker process profiles
the tasks it runs (cProfile, enabled around each task only, so that waiting for messages does
not count) and writes the sum to `<dir>/worker-<pid>.prof` every 10 tasks and when it exits.
`bench_stack --profile DIR` sets it for its workers and prints the merged profile."""

from __future__ import annotations

import cProfile
import os
from pathlib import Path

from celery import signals

_profile: cProfile.Profile | None = None
_tasks = 0


def install(folder: str) -> None:
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)

    def started(**_):
        global _profile
        if _profile is None:
            _profile = cProfile.Profile()
        _profile.enable()

    def finished(**_):
        global _tasks
        if _profile is None:
            return
        _profile.disable()
        _tasks += 1
        if _tasks % 10 == 0:
            dump()

    def dump(**_):
        if _profile is not None:  # renamed into place: a reader never sees half a file
            path = target / f"worker-{os.getpid()}.prof"
            _profile.dump_stats(str(path.with_suffix(".tmp")))
            os.replace(path.with_suffix(".tmp"), path)

    signals.task_prerun.connect(started, weak=False)
    signals.task_postrun.connect(finished, weak=False)
    signals.worker_process_shutdown.connect(dump, weak=False)
