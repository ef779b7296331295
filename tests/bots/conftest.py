from __future__ import annotations

import pytest

from engine import plugins


@pytest.fixture
def faulty_bots(tmp_path, monkeypatch):
    """Install tests/bots/faulty_plugin.py as a `truco` entry point (a dist-info folder on the
    path, as pip would leave it), for this process and for child processes."""
    dist = tmp_path / "truco_faulty_bots-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: truco-faulty-bots\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[truco]\nfaulty = tests.bots.faulty_plugin\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import os

    path = os.environ.get("PYTHONPATH")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path) + (os.pathsep + path if path else ""))
    plugins.reset()
    yield
    plugins.reset()
