"""The two commands of the README: `make run` installs only what the site needs and takes the
port, `make test` adds the development tools (read from `make -n`: nothing is installed)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def planned(*args: str) -> list[str]:
    """The commands make would run from a fresh clone (-B: as if nothing were installed)."""
    # Run from inside `make test` (CI), make would announce the directory it enters: a fresh
    # make, as a user types it, gets none of the outer one's variables.
    env = {k: v for k, v in os.environ.items() if k not in ("MAKELEVEL", "MAKEFLAGS", "MFLAGS")}
    result = subprocess.run(
        ["make", "--no-print-directory", "-n", "-B", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.splitlines()


def installs(lines: list[str]) -> list[str]:
    return [line for line in lines if "pip install" in line and "--upgrade pip" not in line]


def test_make_run_installs_the_runtime_dependencies_only():
    lines = planned("run")
    assert installs(lines) and all("[dev]" not in line for line in installs(lines))
    assert lines[-1].endswith("manage.py demo --host 127.0.0.1 --port 8000")


def test_make_run_takes_the_port_and_host():
    assert planned("run", "PORT=8001", "HOST=0.0.0.0")[-1].endswith(
        "manage.py demo --host 0.0.0.0 --port 8001"
    )


def test_make_test_installs_the_dev_tools_then_runs_ruff_the_import_contracts_and_pytest():
    lines = planned("test")
    assert any("'.[dev]'" in line for line in installs(lines))
    assert lines[-3:] == [
        ".venv/bin/ruff check .",
        ".venv/bin/lint-imports",
        ".venv/bin/python -m pytest",
    ]
