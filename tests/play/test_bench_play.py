"""The load benchmark of the tables (`manage.py bench_play`, website/bench/) keeps working: two
people at a table of people on the embedded default, whose every step (open, sit, deal, the
push channel, the figures) a run of a hundred takes too. Its figures are not asserted: a
benchmark prints them (docs/operations.md), a test only checks that it measures."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from tests.e2e_support import PROJECT_DIR


def test_two_people_play_each_other_through_the_benchmark_and_it_prints_its_figures(tmp_path):
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "TRUCO_QUEUE")
    }
    env["TRUCO_VAR_DIR"] = str(tmp_path)
    result = subprocess.run(
        [sys.executable, "manage.py", "bench_play", "--shape", "embedded", "--people", "2"]
        + ["--think", "0", "--bot", "people", "--limit", "120"],
        cwd=PROJECT_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    out = result.stdout
    assert result.returncode == 0, out[-3000:] + result.stderr[-3000:]
    assert re.search(r"games ended\s+2/2 ", out), out
    assert re.search(r"errors\s+0\n", out), out
    assert re.search(r"decision -> next\s+p50 \d+ ms", out), out
    for request in ("push act", "rest quick", "rest sit", "rest open \\(deal\\)"):
        assert re.search(rf"{request}\s+\d+ requests: queries mean", out), (request, out)


def test_an_odd_crowd_cannot_sit_two_at_a_table():
    result = subprocess.run(
        [sys.executable, "manage.py", "bench_play", "--people", "3", "--bot", "people"],
        cwd=PROJECT_DIR,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2 and "an even number of people" in result.stderr
