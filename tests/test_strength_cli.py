"""`python -m engine strength`: the table of docs/bots.md, printed and written between markers."""

from __future__ import annotations

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
