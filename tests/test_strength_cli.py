"""`python -m engine strength`: the table of docs/bots.md, printed and written between markers."""

from __future__ import annotations

import os
import subprocess
import sys

from engine import botseed
from engine.cli import main
from engine.strength import BEGIN, END


def test_strength_writes_the_table_between_the_markers(tmp_path, capsys):
    doc = tmp_path / "bots.md"
    doc.write_text(f"before\n{BEGIN}\nold table\n{END}\nafter\n", encoding="utf-8")
    argv = [
        "strength",
        "--pairs",
        "2",
        "--variant",
        "truc-tete",
        "--bot",
        "heuristic",
        "--bot",
        "random",
        "--no-example",
        "--write",
        str(doc),
    ]
    assert main(argv) == 0
    text = doc.read_text(encoding="utf-8")
    assert text.startswith("before\n") and text.endswith(f"{END}\nafter\n")
    assert "old table" not in text
    line = next(row for row in text.splitlines() if row.startswith("| heuristic |"))
    assert "| random | truc-tete, 2 players | 2 |" in line
    assert line in capsys.readouterr().out  # the docs hold what the command printed


def test_strength_refuses_a_file_without_markers(tmp_path, capsys):
    doc = tmp_path / "bots.md"
    doc.write_text("no markers here\n", encoding="utf-8")
    argv = [
        "strength",
        "--pairs",
        "1",
        "--variant",
        "truc-tete",
        "--bot",
        "heuristic",
        "--bot",
        "random",
        "--no-example",
        "--write",
        str(doc),
    ]
    assert main(argv) == 2
    assert "strength:begin" in capsys.readouterr().err
    assert doc.read_text(encoding="utf-8") == "no markers here\n"


def test_a_part_of_the_table_replaces_its_own_lines_and_keeps_the_others(tmp_path, capsys):
    """The searching bots' lines take hours: a run of a part (here heuristic against random in
    Truc Tete, and the example opponent opp-counter, which the table now includes) puts its
    lines in place of the same measurements and leaves every other line as it was."""
    doc = tmp_path / "bots.md"
    kept = "| expert | mcts | truc-tete, 2 players | 6 | 41.7% [11.6, 71.8] | 4.9 s |"
    stale = "| heuristic | random | truc-tete, 2 players | 6 | 91.7% [75.3, 100.0] | 0.0 s |"
    other_game = "| mcts | random | paulista, 2 players | 6 | 100.0% [100.0, 100.0] | 1.7 s |"
    doc.write_text(
        f"{BEGIN}\n| bot | against | game | pairs | bot's score [95% interval] | per game |\n"
        f"|---|---|---|---|---|---|\n{kept}\n{stale}\n{other_game}\n{END}\n",
        encoding="utf-8",
    )
    argv = ["strength", "--pairs", "2", "--variant", "truc-tete", "--bot", "heuristic"]
    argv += ["--bot", "random", "--bot", "examples/opponents/counter", "--write", str(doc)]
    assert main(argv) == 0
    rows = [r for r in doc.read_text(encoding="utf-8").splitlines() if r.startswith("| ")]
    assert rows[0].startswith("| bot | against |")
    assert rows[1] == kept and rows[-1] == other_game  # untouched, in place
    assert stale not in rows
    assert rows[2].startswith("| heuristic | random | truc-tete, 2 players | 2 |")  # in place
    # the new line goes with its game, after the lines of that game
    assert rows[3].startswith("| heuristic | opp-counter | truc-tete, 2 players | 2 |")
    assert rows[3] in capsys.readouterr().out


def test_strength_is_reproducible_from_its_seed():
    """The same command prints the same table, the bots' own random choices included: their
    seeds derive from `--seed` as those of `match` and `arena` do. (They were drawn at random
    for each run: `heuristic` against `random`, Mineiro with 4 players, 150 pairs, seed 7,
    printed 85.3%, 87.3% and 88.0% in three runs.) Run afresh each time, without a secret."""
    env = {name: value for name, value in os.environ.items() if name != botseed.ENV}
    argv = [sys.executable, "-m", "engine", "strength", "--pairs", "20", "--seed", "7"]
    argv += ["--variant", "mineiro", "--players", "4", "--bot", "heuristic", "--bot", "random"]
    scores = set()
    for _ in range(3):
        proc = subprocess.run(argv + ["--no-example"], capture_output=True, text=True, env=env)
        assert proc.returncode == 0, proc.stderr
        (line,) = [row for row in proc.stdout.splitlines() if row.startswith("| heuristic |")]
        scores.add(line.rsplit("|", 2)[0])  # all but the wall time per game
    assert len(scores) == 1, scores
