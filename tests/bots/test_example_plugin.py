"""The README's example: a bot shipped as a separate pip-installable package appears in the
registry once installed, and plays."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "truco-bot-example"


def test_installing_the_example_package_makes_its_bot_appear(tmp_path):
    target = tmp_path / "site"
    command = [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--quiet",
        "--no-deps",
        "--target",
        str(target),
    ]
    if importlib.util.find_spec("setuptools") and importlib.util.find_spec("wheel"):
        command.append("--no-build-isolation")  # build with the setuptools at hand, offline
    # Built from a copy: setuptools writes its build folders next to the sources.
    source = tmp_path / "example"
    shutil.copytree(EXAMPLE, source, ignore=shutil.ignore_patterns("build", "*.egg-info"))
    subprocess.run([*command, str(source)], check=True, cwd=tmp_path)

    env = dict(os.environ, PYTHONPATH=str(target))
    script = (
        "import json; from engine.plugins import registry; "
        "print(json.dumps(sorted(registry().bots)))"
    )
    listed = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    assert "example-greedy" in json.loads(listed.stdout)

    # Without the package on the path the bot is not there: it came from the install.
    bare = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert "example-greedy" not in json.loads(bare.stdout)

    arena = subprocess.run(
        [
            sys.executable,
            "-m",
            "engine",
            "arena",
            "--bots",
            "example-greedy",
            "random",
            "--pairs",
            "5",
        ],
        env=env,
        capture_output=True,
        text=True,
    )
    assert arena.returncode == 0, arena.stderr
    assert "terminations: normal 10" in arena.stdout
