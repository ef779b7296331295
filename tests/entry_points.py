"""Installing a test module as a `truco` entry point (a dist-info folder on the path, as pip
would leave it), for this process and for the child processes that run untrusted bots."""

from __future__ import annotations

import os

from engine import plugins


def install_entry_point(tmp_path, monkeypatch, name: str, module: str) -> None:
    dist = tmp_path / f"truco_{name}-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: truco-{name}\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(f"[truco]\n{name} = {module}\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    path = os.environ.get("PYTHONPATH")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path) + (os.pathsep + path if path else ""))
    plugins.reset()
