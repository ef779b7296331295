"""Bot names, and picking a bot by name without ever picking the wrong one (issue 8, "Names").

- The names of the registered bot plugins (random, heuristic, mcts, ...) are reserved: they mean
  the built-in bot, which belongs to nobody. No user's bot may be called so (in any case).
- A user's bot is known by owner and name: `alice/greedy` (her newest ready version) or
  `alice/greedy v3` (that version). A bare name never means a user's bot: it is a built-in, or
  a bot the operator saved without an owner (admin, commands).

`resolve` is what every place that takes a bot by name uses: run_tournament --bots, the quick
tables of the play app, the API."""

from __future__ import annotations

import re

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from engine.plugins import registry
from submitted_bots.models import Bot

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")  # fullmatch: "$" lets a final newline by
# owner/name, optionally " vN" (usernames may hold letters, digits and @ . + - _)
QUALIFIED = re.compile(r"(?P<owner>[\w.@+-]{1,150})/(?P<name>[^/\s]+)(?: v(?P<version>\w+))?")


def reserved_names() -> frozenset[str]:
    return frozenset(name.lower() for name in registry().bots)


def check_user_bot_name(name: str) -> None:
    """The name a user may give a bot of theirs, or a ValidationError saying why not."""
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise ValidationError(
            {
                "name": "a bot name is 1 to 40 letters, digits, - or _, starting with a letter "
                f"or digit, not {name!r}"
            }
        )
    if name.lower() in reserved_names():
        raise ValidationError(
            {
                "name": f"{name!r} is the name of a built-in bot and is reserved; "
                f"reserved names: {', '.join(sorted(reserved_names()))}"
            }
        )


def is_qualified(text: str) -> bool:
    return QUALIFIED.fullmatch(text) is not None


def names_a_user(text: str) -> bool:
    """`alice/greedy` where a user alice exists (so that a folder of that path is ambiguous)."""
    found = QUALIFIED.fullmatch(text)
    return bool(found) and get_user_model().objects.filter(username=found["owner"]).exists()


def resolve_qualified(text: str) -> Bot:
    """`alice/greedy` (her newest ready version) or `alice/greedy v3`."""
    found = QUALIFIED.fullmatch(text)
    if not found:
        raise ValidationError(f"{text!r} is not a bot: write owner/name or owner/name vN")
    owner = get_user_model().objects.filter(username=found["owner"]).first()
    if owner is None:
        raise ValidationError(f"no user {found['owner']!r} (in {text!r})")
    versions = Bot.objects.filter(owner=owner, name=found["name"]).select_related("owner")
    if found["version"] is not None:
        bot = versions.filter(version=found["version"]).first()
        if bot is None:
            raise ValidationError(
                f"{owner.username}/{found['name']} has no version {found['version']}"
            )
        return bot
    ready = [bot for bot in versions.enterable() if bot.version.isdigit() or not bot.version]
    if not ready:
        if not versions.exists():
            raise ValidationError(f"{owner.username} has no bot named {found['name']!r}")
        raise ValidationError(f"{text!r} has no ready version: {version_summary(versions)}")
    return max(ready, key=lambda bot: int(bot.version or 0))


def version_summary(versions) -> str:
    return ", ".join(f"v{bot.version} {bot.status}" for bot in versions.order_by("created_at"))


def resolve_operator(name: str) -> Bot | None:
    """An operator's (ownerless) bot saved under this exact name, if any."""
    return Bot.objects.filter(name=name, version="", owner__isnull=True).first()
