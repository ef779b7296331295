"""Fixtures for the jail tests: the hostile bots installed as a real plugin (readable by an
ordinary user too, for the runs under another uid), the secrets they go after, and the checks
that nothing of them is left running or written on the host."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

import pytest

from engine import plugins
from engine.jail import probe

# postgres_url and services_env come from tests/conftest.py (tests/e2e_support.py).
from ..tournaments.conftest import make_tournament, random_bots  # noqa: F401 (fixtures)
from .hostile_plugin import MARKER, PROJECT, SECRET_DIR

ORDINARY_UID = 60001  # an ordinary user: no account needed, only a uid
SYSTEM_PYTHON = "/usr/bin/python3.11"  # an interpreter that uid can read (pyenv's is under /root)


def jail_or_skip() -> None:
    jail = probe.availability()
    if not jail.ok:
        if os.environ.get("TRUCO_REQUIRE_SERVICES"):
            pytest.fail(f"the jail cannot be built here: {jail.reason}", pytrace=False)
        pytest.skip(f"the jail cannot be built here: {jail.reason}")


@pytest.fixture(scope="session")
def plugin_dir():
    """A folder with the hostile plugin's dist-info (an entry point, as pip leaves it), readable
    by everyone."""
    folder = Path(tempfile.mkdtemp(prefix="truco-hostile-plugin-"))
    folder.chmod(0o755)
    dist = folder / "truco_hostile_bots-1.0.dist-info"
    dist.mkdir(mode=0o755)
    (dist / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: truco-hostile-bots\nVersion: 1.0\n"
    )
    (dist / "entry_points.txt").write_text("[truco]\nhostile = tests.jail.hostile_plugin\n")
    for path in dist.iterdir():
        path.chmod(0o644)
    # Debian's Python is 3.11.2, for which redis-py wants the async-timeout backport that the
    # venv (made on a later 3.11) does not hold: the standard library's equivalent stands in.
    (folder / "async_timeout.py").write_text("from asyncio import timeout  # noqa: F401\n")
    (folder / "async_timeout.py").chmod(0o644)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def hostile_bots(plugin_dir, monkeypatch):
    """The hostile plugin for this process and its children; the marker in the environment."""
    monkeypatch.syspath_prepend(str(plugin_dir))
    path = os.environ.get("PYTHONPATH")
    monkeypatch.setenv("PYTHONPATH", str(plugin_dir) + (os.pathsep + path if path else ""))
    monkeypatch.setenv("TRUCO_TEST_SECRET", MARKER)
    plugins.reset()
    yield plugin_dir
    plugins.reset()


@pytest.fixture
def secrets():
    """What the bots go after on the host: a world-readable SQLite database holding the marker
    and a sentinel process (an unrelated process no bot may kill)."""
    os.makedirs(SECRET_DIR, exist_ok=True)
    os.chmod(SECRET_DIR, 0o755)
    db = os.path.join(SECRET_DIR, "db.sqlite3")
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS tokens (key TEXT)")
        conn.execute("INSERT INTO tokens VALUES (?)", (MARKER,))
    os.chmod(db, 0o644)
    sentinel = subprocess.Popen(["sleep", "600"], start_new_session=True)
    with open(os.path.join(SECRET_DIR, "sentinel.pid"), "w") as f:
        f.write(str(sentinel.pid))
    os.chmod(os.path.join(SECRET_DIR, "sentinel.pid"), 0o644)
    yield sentinel
    sentinel.kill()
    sentinel.wait()
    shutil.rmtree(SECRET_DIR, ignore_errors=True)


def hostile_processes(grace: float = 5.0) -> list[str]:
    """Processes on the host started from the hostile plugin (a bot's shim, or anything it
    forked) still alive after `grace` seconds (processes killed with their jail may take a
    moment to be gone on a busy machine): "pid state uid cmdline" each."""
    deadline = time.monotonic() + grace
    while True:
        found = _hostile_processes()
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


def _hostile_processes() -> list[str]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline = f.read()
            with open(f"/proc/{entry}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        # Of this checkout only (its path is on the shim's command line): other checkouts on
        # the machine may be running these tests too.
        if b"hostile_plugin" in cmdline and PROJECT.encode() in cmdline and state != "Z":
            uid = os.stat(f"/proc/{entry}").st_uid
            found.append(f"{entry} {state} {uid} {cmdline[-80:]!r}")
    return found


def written_on_the_host() -> list[str]:
    """Files the hostile bots try to leave: backdoors on the import path and in the source tree,
    many files in their working folder or /tmp."""
    folders = [PROJECT, os.path.join(PROJECT, "engine"), tempfile.gettempdir(), os.getcwd()]
    folders += [p for p in sys.path if os.path.isdir(p)]
    folders += [sysconfig.get_paths()["purelib"]]
    found = []
    for folder in dict.fromkeys(folders):
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        found += [
            os.path.join(folder, n)
            for n in names
            if n.startswith(("hostile-backdoor", "hostile_backdoor", "hostile-file-"))
        ]
    return found


def ordinary_user_env(plugin_dir) -> dict[str, str]:
    """The environment of a runner under ORDINARY_UID: the system's Python, with the project,
    the venv's packages and the hostile plugin on its path."""
    site = sysconfig.get_paths()["purelib"]
    return {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": tempfile.gettempdir(),
        "LANG": "C.UTF-8",
        "PYTHONPATH": os.pathsep.join([PROJECT, site, str(plugin_dir)]),
        "PYTHONDONTWRITEBYTECODE": "1",
        "TRUCO_TEST_SECRET": MARKER,
    }


def as_ordinary_user(argv: list[str]) -> list[str]:
    return [
        "setpriv",
        f"--reuid={ORDINARY_UID}",
        f"--regid={ORDINARY_UID}",
        "--clear-groups",
        *argv,
    ]


def readable_by_others(path: str) -> bool:
    """Whether any user may reach and read `path` (every folder on the way traversable)."""
    import stat

    target = Path(path).resolve()
    for folder in target.parents:
        if not folder.stat().st_mode & stat.S_IXOTH:
            return False
    return bool(target.stat().st_mode & stat.S_IROTH)


def _skip_or_fail(why: str) -> None:
    """CI (TRUCO_REQUIRE_SERVICES) sets the ordinary runner up (.ci/ordinary-runner): there, a
    missing piece is a failure."""
    if os.environ.get("TRUCO_REQUIRE_SERVICES"):
        pytest.fail(why, pytrace=False)
    pytest.skip(why)


def skip_unless_another_user_can_run_the_project() -> None:
    """Root is needed to start a process under another uid, and that uid must reach the project
    and the venv's packages (a clone in a 0700 folder, as `mktemp -d` makes, it cannot)."""
    if os.geteuid() != 0:
        pytest.skip("runs as root to start a runner under another uid")
    if not os.access(SYSTEM_PYTHON, os.X_OK):
        pytest.skip(f"{SYSTEM_PYTHON} is not installed")
    for path in (PROJECT, sysconfig.get_paths()["purelib"]):
        if not readable_by_others(path):
            pytest.skip(f"{path} is not readable by an ordinary user")


@pytest.fixture
def ordinary_user():
    skip_unless_another_user_can_run_the_project()
    from engine.jail import uids

    try:
        uids.subordinate_pool(ORDINARY_UID)
    except uids.UidPoolUnavailable as exc:
        _skip_or_fail(f"the ordinary runner is not set up ({exc}): run .ci/ordinary-runner")
    return ORDINARY_UID
