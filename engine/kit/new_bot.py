"""`python -m engine new-bot DIR --language python|node|java`: a working bundle in DIR (bot.toml,
the code, a README with the next commands) that passes the server's checks and plays every
variant legally, from the templates in engine/kit/templates/."""

from __future__ import annotations

import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from ..bundles import BundleError, check_name_not_reserved, inspect_folder
from ..bundles.manifest import NAME
from ..errors import TrucoError
from ..plugins import registry as default_registry

TEMPLATES = Path(__file__).with_name("templates")


@dataclass(frozen=True)
class Language:
    title: str
    code: str  # the file holding the bot
    runtime: str  # the program its command starts


LANGUAGES = {
    "python": Language("Python 3 (standard library only)", "bot.py", "python3"),
    "node": Language("JavaScript for Node (no packages)", "bot.js", "node"),
    "java": Language("Java 17 (no libraries; compiled when it starts)", "Bot.java", "java"),
}


class NewBotError(TrucoError):
    """A folder or name new-bot cannot use."""


def name_from_folder(folder: Path) -> str:
    """A manifest name made of the folder's name: letters, digits, - and _ only."""
    name = re.sub(r"[^A-Za-z0-9_-]+", "-", folder.resolve().name).strip("-_")[:40]
    return name or "my-bot"


def bot_argument(folder: str) -> str:
    """How the CLI's --bots names this folder: a bare name needs ./ to be read as a bundle."""
    text = folder.rstrip("/") or folder
    return text if "/" in text else f"./{text}"


@dataclass(frozen=True)
class NewBot:
    name: str  # the manifest's
    files: list[Path]


def new_bot(folder: str, language: str, name: str | None = None, registry=None) -> NewBot:
    """Write the bundle into `folder` (new, or empty)."""
    if language not in LANGUAGES:
        raise NewBotError(f"--language must be one of {', '.join(LANGUAGES)}, not {language!r}")
    root = Path(folder)
    if root.exists() and (not root.is_dir() or any(root.iterdir())):
        raise NewBotError(f"{folder!r} already exists and is not an empty folder: give a new one")
    name = name or name_from_folder(root)
    if not NAME.fullmatch(name):
        raise NewBotError(
            f"{name!r} cannot be a bot's name: 1 to 40 letters, digits, - or _, starting with a "
            "letter or digit (give one with --name)"
        )
    if registry is None:
        registry = default_registry()
    try:
        check_name_not_reserved(name, registry)
    except BundleError as exc:
        raise NewBotError(f"{exc} (give another with --name)") from None
    lang = LANGUAGES[language]
    words = {
        "{{name}}": name,
        "{{dir}}": folder.rstrip("/") or folder,
        "{{arg}}": bot_argument(folder),
        "{{language}}": lang.title,
        "{{code}}": lang.code,
    }
    sources = sorted((TEMPLATES / language).iterdir()) + [TEMPLATES / "README.md"]
    root.mkdir(parents=True, exist_ok=True)
    written = []
    try:
        for source in sources:
            text = source.read_text(encoding="utf-8")
            if source.name in ("bot.toml", "README.md"):
                for word, value in words.items():
                    text = text.replace(word, value)
            target = root / source.name
            target.write_text(text, encoding="utf-8")
            written.append(target)
        inspect_folder(root)  # what it wrote is a bundle the checks accept
    except BaseException:
        for path in written:
            path.unlink(missing_ok=True)
        raise
    return NewBot(name, written)


def run_new_bot(args) -> int:
    made = new_bot(args.folder, args.language, args.name)
    lang = LANGUAGES[args.language]
    arg = bot_argument(args.folder)
    name = made.name
    print(f"wrote {args.folder}: " + ", ".join(path.name for path in made.files))
    if shutil.which(lang.runtime) is None:
        print(f"note: {lang.runtime} is not installed here; check-bot and arena need it")
    print("next:")
    print(f"  python -m engine check-bot {arg}                # the server's checks, smoke match")
    print(f"  python -m engine arena --bots {arg} random --pairs 20 --logs {name}-logs")
    print(f"  python -m engine check-bot {arg} --zip {name}.zip  # then upload {name}.zip")
    print(f"then edit choose() in {Path(args.folder, lang.code)}; docs/bots.md is the guide")
    sys.stdout.flush()
    return 0
