"""A clone carries what its README and docs point to: every markdown link in README.md and
docs/*.md (and every relative path written in code spans) names a file of the repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
RELATIVE_PATH = re.compile(r"`(\.\.?/[^`\s]+)`")


def targets(document: Path) -> list[str]:
    text = document.read_text(encoding="utf-8")
    links = [t for t in LINK.findall(text) if not re.match(r"^[a-z][a-z0-9+.-]*:|^#", t)]
    return links + RELATIVE_PATH.findall(text)


def problem(document: Path, target: str) -> str | None:
    path = (document.parent / target.split("#", 1)[0]).resolve()
    if not path.is_relative_to(ROOT):
        return f"{target} is outside the repository"
    if not path.exists():
        return f"{target} does not exist"
    return None


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda d: str(d.relative_to(ROOT)))
def test_every_link_of_the_docs_names_a_file_of_the_repository(document):
    problems = [p for t in targets(document) if (p := problem(document, t))]
    assert not problems, f"{document.relative_to(ROOT)}: {problems}"


def test_the_checker_catches_links_outside_or_missing(tmp_path):
    # The check itself: a link out of the clone, or to nothing, is reported.
    document = ROOT / "docs" / "example.md"
    assert (
        problem(document, "../../shared/RULES.md")
        == "../../shared/RULES.md is outside the repository"
    )
    assert problem(document, "nothing-here.md") == "nothing-here.md does not exist"
    assert problem(document, "rules.md#1-truco-paulista-paulista") is None
    assert targets(ROOT / "README.md")  # the README does point somewhere


def test_the_rules_and_the_record_format_are_docs_of_the_project():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "](docs/rules.md)" in readme and "](docs/records.md)" in readme
    assert "../shared" not in readme
    records = (ROOT / "docs" / "records.md").read_text(encoding="utf-8")
    assert '"format": "truco-record/1"' in records and "`start_score`" in records
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for variant in ("paulista", "mineiro", "truc-tete", "argentino"):
        assert f"(`{variant}`)" in rules
