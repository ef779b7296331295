"""Validating a new version in a worker: its smoke match (engine/bundles/smoke.py) in the jail,
then `ready` or `rejected` with the reason, the games and terminations per game setting, and the
bot's log for its owner. A redelivered task finds the version decided and does nothing.

The smoke match looks like the tournaments the version will play: their decision budget (the
tournaments app says which are open to it: ENTERABLE_BUDGETS, filled at its start-up), an
opponent among the built-in bots and deals drawn from a keyed hash of the version (the server's
secret: its author cannot know them in advance)."""

from __future__ import annotations

import hashlib
import hmac
import logging
from collections.abc import Callable, Iterable

from django.conf import settings
from django.utils import timezone

from engine.bot_logs import bounded
from engine.bundles import BundleError, Manifest
from engine.bundles.smoke import SmokeReport, smoke_draw, smoke_test
from engine.errors import TrucoError
from engine.jail.probe import JailUnavailable
from engine.plugins import registry
from submitted_bots.budgets import server_cap
from submitted_bots.bundles.files import spec_for_bundle
from submitted_bots.models import Bot

logger = logging.getLogger(__name__)
MAX_LOG_CHARS = 64 * 1024


# The decision budgets (seconds) of the competitions `bot` may be entered in now, by the apps
# that hold them (the tournaments app: tournaments/apps.py).
ENTERABLE_BUDGETS: list[Callable[[Bot], Iterable[float]]] = []


def draw_digest(bot: Bot) -> bytes:
    """A keyed hash of the version: what its smoke match's budget, opponent and deals are
    drawn from. Keyed by the server's secret, so that its author cannot compute it."""
    key = settings.SECRET_KEY.encode()
    return hmac.new(key, f"smoke:{bot.pk}:{bot.sha256}".encode(), hashlib.sha256).digest()


def smoke_budget(bot: Bot, digest: bytes) -> float:
    """The smoke match's seconds per decision: TRUCO_VALIDATION_DECISION_SECONDS if set; else
    one of the budgets of the tournaments the version may enter (drawn from `digest`); else the
    server's cap (what a tournament with the default time gives)."""
    if settings.TRUCO_VALIDATION_DECISION_SECONDS is not None:
        return float(settings.TRUCO_VALIDATION_DECISION_SECONDS)
    budgets = sorted({float(b) for source in ENTERABLE_BUDGETS for b in source(bot)})
    return budgets[digest[-1] % len(budgets)] if budgets else server_cap()


def run_smoke_match(bot: Bot) -> SmokeReport:
    spec = spec_for_bundle(bot)
    digest = draw_digest(bot)
    bots = registry()
    opponent, seed = smoke_draw(digest, bots.bots)
    return smoke_test(
        spec,
        Manifest.from_json(bot.manifest),
        bots,
        games=settings.TRUCO_VALIDATION_GAMES,
        decision_seconds=smoke_budget(bot, digest),
        opponent=opponent,
        seed=seed,
    )


def validate_version(bot_id: int) -> str:
    """Decide a `validating` version; its status afterwards."""
    bot = Bot.objects.select_related("owner").filter(pk=bot_id).first()
    if bot is None or bot.status != Bot.Status.VALIDATING:
        return bot.status if bot else "missing"
    try:
        report = run_smoke_match(bot)
    except JailUnavailable:
        raise  # the server's trouble, not the bot's: the task tries again later
    except (BundleError, TrucoError) as exc:
        report = SmokeReport(ok=False, reason=str(exc))
    except Exception as exc:  # the server's fault, not the bot's: say so, and log it
        logger.exception("validation of bot %s failed", bot_id)
        report = SmokeReport(
            ok=False, reason=f"validation failed on the server ({type(exc).__name__}): try again"
        )
    status = Bot.Status.READY if report.ok else Bot.Status.REJECTED
    Bot.objects.filter(pk=bot_id, status=Bot.Status.VALIDATING).update(
        status=status,
        status_reason=report.reason,
        validation=report.as_json(),
        log=bounded(report.log, MAX_LOG_CHARS),
        validated_at=timezone.now(),
    )
    return status
