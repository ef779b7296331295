"""The author's documents as pages of the site: docs/*.md rendered with markdown-it-py (the same
files a clone reads, so the site and the repository never disagree), and a starter bundle per
language, made by the author's kit (`python -m engine new-bot`) and zipped as one uploads it."""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.urls import reverse
from django.utils.text import slugify
from markdown_it import MarkdownIt

from engine.kit.new_bot import LANGUAGES, new_bot
from submitted_bots.bundles.operator import zipped

DOCS = Path(settings.BASE_DIR) / "docs"
PAGE_NAME = re.compile(r"^[a-z][a-z0-9-]{0,40}$")
# The bundle's name in a starter: the manifest's `name`, so its first upload is `you/mybot v1`.
STARTER_NAME = "mybot"


@dataclass(frozen=True)
class Document:
    title: str
    html: str
    headings: list[tuple[str, str]]  # (anchor, text) of the second-level headings


def document_path(name: str) -> Path | None:
    """docs/<name>.md, when `name` is one of the documents (never a path out of docs/)."""
    if not PAGE_NAME.match(name):
        return None
    path = DOCS / f"{name}.md"
    return path if path.is_file() else None


def page_url(target: str) -> str | None:
    """The site's page of a link written for the clone (`bot-protocol.md#the-jail`,
    `docs/records.md`), or None when the link is not to one of the documents."""
    path, _, anchor = target.partition("#")
    match = re.fullmatch(r"(?:\./)?(?:docs/)?([a-z][a-z0-9-]*)\.md", path)
    if match is None or document_path(match.group(1)) is None:
        return None
    url = reverse("web:doc", args=[match.group(1)])
    return f"{url}#{anchor}" if anchor else url


def link_documents(tokens) -> None:
    """Links to other documents go to their pages; links to files of the clone (examples/...)
    are not pages of the site, so they stay as their text."""
    for token in tokens:
        if token.type != "inline" or not token.children:
            continue
        kept, dropped_depth = [], 0
        for child in token.children:
            if child.type == "link_open":
                href = child.attrGet("href") or ""
                if re.match(r"^[a-z][a-z0-9+.-]*:|^#", href):
                    kept.append(child)
                    continue
                url = page_url(href)
                if url is None:
                    dropped_depth += 1
                    continue
                child.attrSet("href", url)
            elif child.type == "link_close" and dropped_depth:
                dropped_depth -= 1
                continue
            kept.append(child)
        token.children = kept


def anchor_headings(tokens) -> list[tuple[str, str]]:
    """Every heading gets the id GitHub would give it (so `#the-jail` links work on both)."""
    seen: dict[str, int] = {}
    toc = []
    for i, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        text = tokens[i + 1].content
        slug = slugify(re.sub(r"[`*]", "", text)) or "section"
        if slug in seen:
            seen[slug] += 1
            slug = f"{slug}-{seen[slug]}"
        else:
            seen[slug] = 0
        token.attrSet("id", slug)
        if token.tag == "h2":
            toc.append((slug, re.sub(r"[`*]", "", text)))
    return toc


@lru_cache(maxsize=32)
def render_file(path: Path, mtime: float) -> Document:
    text = path.read_text(encoding="utf-8")
    # The documents are the repository's own, but no raw HTML: a page shows what a clone shows.
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = md.parse(text)
    link_documents(tokens)
    headings = anchor_headings(tokens)
    title = next(
        (tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open"),
        path.stem,
    )
    return Document(title=title, html=md.renderer.render(tokens, md.options, {}), headings=headings)


def render_document(name: str) -> Document | None:
    path = document_path(name)
    if path is None:
        return None
    return render_file(path, path.stat().st_mtime)


@lru_cache(maxsize=len(LANGUAGES))
def starter_zip(language: str) -> bytes:
    """A bundle that passes the server's checks and plays every variant legally (random play):
    the one `python -m engine new-bot mybot --language LANGUAGE` writes, zipped."""
    with tempfile.TemporaryDirectory(prefix="truco-starter-") as scratch:
        folder = Path(scratch) / STARTER_NAME
        made = new_bot(str(folder), language, STARTER_NAME)
        for path in made.files:  # the kit wrote the scratch folder's path into its commands
            if path.name in ("README.md", "bot.toml"):
                path.write_text(clone_paths(path.read_text(encoding="utf-8"), str(folder)))
        return zipped(folder)


def clone_paths(text: str, scratch: str) -> str:
    """The README's commands as run next to an unzipped `mybot/` folder."""
    text = text.replace(f"{scratch}-logs", f"{STARTER_NAME}-logs")
    text = text.replace(f"`{scratch}`", f"`{STARTER_NAME}`")
    return text.replace(scratch, f"./{STARTER_NAME}")


def starters() -> list[dict]:
    return [
        {"language": code, "title": lang.title, "code": lang.code}
        for code, lang in LANGUAGES.items()
    ]
