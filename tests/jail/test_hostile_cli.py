"""The hostile bots through the command line (`python -m engine match --isolation jail`), as
root and as an ordinary user: the CLI finishes every match with the expected terminations,
prints and records no secret, and leaves nothing running or written."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from .conftest import (
    SYSTEM_PYTHON,
    as_ordinary_user,
    hostile_processes,
    jail_or_skip,
    ordinary_user_env,
    written_on_the_host,
)
from .expectations import EXPECTED, decision_seconds
from .hostile_plugin import MARKER, PROJECT

pytestmark = pytest.mark.usefixtures("hostile_bots")


def run_cli(name: str, records: str, *, ordinary: bool, plugin_dir) -> subprocess.CompletedProcess:
    args = [
        "-m",
        "engine",
        "match",
        "--isolation",
        "jail",
        "--bots",
        name,
        "random",
        "--games",
        "2",
        "--seed",
        "777001",
        "--decision-seconds",
        str(decision_seconds(name)),
        "--records",
        records,
    ]
    if ordinary:
        argv, env = as_ordinary_user([SYSTEM_PYTHON, *args]), ordinary_user_env(plugin_dir)
    else:
        argv, env = [sys.executable, *args], {**os.environ}
    return subprocess.run(argv, cwd=PROJECT, env=env, capture_output=True, text=True, timeout=120)


def terminations(stdout: str) -> set[str]:
    line = next(text for text in stdout.splitlines() if "terminations:" in text)
    return set(re.findall(r"([a-z_]+) \d+", line.split("terminations:", 1)[1]))


@pytest.mark.parametrize("user", ["root", "ordinary"])
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_hostile_bot_through_the_cli_is_contained(name, user, secrets, tmp_path, request):
    jail_or_skip()
    if user == "ordinary":
        request.getfixturevalue("ordinary_user")
        tmp_path = Path(tempfile.mkdtemp(prefix="truco-hostile-cli-"))  # pytest's is root's only
        tmp_path.chmod(0o777)
        request.addfinalizer(lambda: shutil.rmtree(tmp_path, ignore_errors=True))
    records = str(tmp_path / "records.jsonl")
    done = run_cli(
        name,
        records,
        ordinary=user == "ordinary",
        plugin_dir=request.getfixturevalue("hostile_bots"),
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert terminations(done.stdout) <= EXPECTED[name], done.stdout
    with open(records) as f:
        written = [json.loads(line) for line in f]
    assert len(written) == 2  # both games played, whatever the first did
    everything = done.stdout + done.stderr + json.dumps(written)
    assert MARKER not in everything and "LEAKED" not in everything
    assert secrets.poll() is None, "the sentinel process was killed"
    assert hostile_processes() == []
    assert written_on_the_host() == []
