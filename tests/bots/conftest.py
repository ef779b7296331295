from __future__ import annotations

import pytest

from engine import plugins
from tests.entry_points import install_entry_point


@pytest.fixture
def faulty_bots(tmp_path, monkeypatch):
    """Install tests/bots/faulty_plugin.py as a `truco` entry point, for this process and for
    child processes."""
    install_entry_point(tmp_path, monkeypatch, "faulty", "tests.bots.faulty_plugin")
    yield
    plugins.reset()
