"""How long a Celery task waits before it is tried again."""

from __future__ import annotations

from django.conf import settings

# A busy or failed match is tried again after at most this long; kept well under the Redis
# visibility timeout so that a waiting retry is not mistaken for a lost message.
MAX_RETRY_COUNTDOWN = 60.0


def retry_countdown(wait: float) -> float:
    visibility = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("visibility_timeout")
    cap = min(MAX_RETRY_COUNTDOWN, visibility / 2) if visibility else MAX_RETRY_COUNTDOWN
    return max(0.5, min(wait + 0.5, cap))
