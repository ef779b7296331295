"""Small bundles that fail validation in each way a bot author can get wrong, as folders."""

from __future__ import annotations

from pathlib import Path

ANSWER_FIRST = """
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("type") == "act":
        print(json.dumps({"action": %s}), flush=True)
"""

BUNDLES = {
    "crashes-at-start": (
        'command = ["python3", "bot.py"]',
        "import sys\nprint('cannot find my model file', file=sys.stderr)\nsys.exit(3)\n",
    ),
    "illegal": ('command = ["python3", "bot.py"]', ANSWER_FIRST % '"play 9z"'),
    "slow": (
        'command = ["python3", "bot.py"]',
        "import sys, time\nfor line in sys.stdin:\n    time.sleep(30)\n",
    ),
    "sleeps-at-start": (  # loads for 30 s before it reads anything (a model, a JVM)
        'command = ["python3", "bot.py"]',
        "import time\ntime.sleep(30)\n" + ANSWER_FIRST % 'm["legal"][0]',
    ),
    "no-runtime": ('command = ["ruby", "bot.rb"]', "puts 1\n"),
    "legal": ('command = ["python3", "bot.py"]', ANSWER_FIRST % 'm["legal"][0]'),
}


def write_bundle(root: Path, kind: str, *, variants: str = '["paulista"]') -> Path:
    command, source = BUNDLES[kind]
    folder = root / kind
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "bot.toml").write_text(
        f'name = "{kind}"\n{command}\nvariants = {variants}\nplayers = [2]\n'
    )
    (folder / ("bot.rb" if kind == "no-runtime" else "bot.py")).write_text(source)
    return folder
