"""The example bundles of examples/bots/ play whole matches in the jail through the CLI, as a bot
author would try them (`python -m engine arena --bots ./mybot random`), and the Java one
compiles with javac."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.jail.conftest import jail_or_skip

PROJECT = Path(__file__).resolve().parents[2]
EXAMPLES = PROJECT / "examples" / "bots"


def engine(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.mark.parametrize(
    "example, runtime",
    [
        ("python-greedy", "python3"),
        ("node-greedy", "node"),
        ("java-greedy", "java"),
        ("python-plugin-class", "python3"),
    ],
)
def test_each_example_plays_a_whole_match_in_the_jail(example, runtime):
    jail_or_skip()
    if shutil.which(runtime) is None:
        pytest.skip(f"{runtime} is not installed")
    run = engine("arena", "--bots", f"examples/bots/{example}", "random", "--pairs", "3")
    assert run.returncode == 0, run.stderr
    assert "6 games" in run.stdout and "terminations: normal 6" in run.stdout, run.stdout


def test_a_zipped_bundle_plays_like_its_folder(tmp_path):
    jail_or_skip()
    archive = tmp_path / "node-greedy.zip"
    with zipfile.ZipFile(archive, "w") as out:
        for file in (EXAMPLES / "node-greedy").iterdir():
            out.write(file, f"node-greedy/{file.name}")
    run = engine("match", "--bots", str(archive), "random", "--games", "4")
    assert run.returncode == 0, run.stderr
    assert "terminations: normal 4" in run.stdout


def test_the_java_example_compiles_with_javac(tmp_path):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    run = subprocess.run(
        [
            "javac",
            "-Xlint:all",
            "-Werror",
            "-d",
            str(tmp_path),
            str(EXAMPLES / "java-greedy" / "Bot.java"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "Bot.class").exists()


def test_a_bad_bundle_on_the_command_line_is_an_error_message_not_a_traceback(tmp_path):
    (tmp_path / "bot.toml").write_text('name = "x"\ncommand = ["./missing"]\n')
    run = engine("arena", "--bots", str(tmp_path), "random", "--pairs", "1")
    assert run.returncode == 2
    assert "no such command: './missing' is not a file of the bundle" in run.stderr
    assert "Traceback" not in run.stderr
    (tmp_path / "bot.toml").unlink()
    (tmp_path / "link").symlink_to("/etc/shadow")
    run = engine("match", "--bots", str(tmp_path), "random", "--games", "1")
    assert run.returncode == 2 and "symlink 'link'" in run.stderr


def test_bench_validation_prints_the_time_of_each_step():
    jail_or_skip()
    run = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "bench_validation",
            "--bundle",
            str(EXAMPLES / "node-greedy"),
            "--runs",
            "1",
        ],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    line = run.stdout.splitlines()[-1]
    assert line.split()[0] == "node-greedy" and line.endswith("ready")
