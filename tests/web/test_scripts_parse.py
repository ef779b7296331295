"""Every page script parses (node --check): a syntax error stops a whole page's script, and the
browser tests would only see it as a timeout. Skipped, saying why, without Node.js."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPTS = sorted((Path(__file__).resolve().parents[2] / "tournaments" / "static").rglob("*.js"))


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_the_script_parses(script):
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed (apt-get install -y nodejs)")
    result = subprocess.run([node, "--check", str(script)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
