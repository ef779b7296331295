"""Validating a new version in a worker: its smoke match (engine/bundles/smoke.py) in the jail,
then `ready` or `rejected` with the reason, the games and terminations per game setting, and the
bot's log for its owner. A redelivered task finds the version decided and does nothing."""

from __future__ import annotations

import logging

from django.conf import settings
from django.utils import timezone

from engine.bot_logs import bounded
from engine.bundles import BundleError, Manifest
from engine.bundles.smoke import SmokeReport, smoke_test
from engine.errors import TrucoError
from engine.jail.probe import JailUnavailable
from engine.plugins import registry
from submitted_bots.bundles.cache import BundleUnavailable
from submitted_bots.bundles.files import spec_for_bundle
from submitted_bots.models import Bot

logger = logging.getLogger(__name__)
MAX_LOG_CHARS = 64 * 1024


def run_smoke_match(bot: Bot) -> SmokeReport:
    spec = spec_for_bundle(bot)
    return smoke_test(
        spec,
        Manifest.from_json(bot.manifest),
        registry(),
        games=settings.TRUCO_VALIDATION_GAMES,
        decision_seconds=settings.TRUCO_VALIDATION_DECISION_SECONDS,
    )


def validate_version(bot_id: int) -> str:
    """Decide a `validating` version; its status afterwards."""
    bot = Bot.objects.select_related("owner").filter(pk=bot_id).first()
    if bot is None or bot.status != Bot.Status.VALIDATING:
        return bot.status if bot else "missing"
    try:
        report = run_smoke_match(bot)
    except (JailUnavailable, BundleUnavailable):
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
