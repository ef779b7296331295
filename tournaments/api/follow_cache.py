"""The standings and the bracket as the tournament page's followers ask for them: every few
seconds each (tournaments/static/tournaments/tournament.js), hundreds of people at once.

Each payload is built once for everyone at most every TRUCO_FOLLOW_CACHE_SECONDS and kept in
the shared `live` cache (Redis in the production shape, files in the embedded default). Built
for every request, 500 people following a round robin of 16 took the site to a look's p50 of
1.5 s and p95 of 3.7 s (`manage.py bench_watch --followers 500`). A payload past its time is
still served while one request builds the next (no crowd of builders when it lapses). The key
holds the tournament's status, so a tournament that ends shows its final standings at once."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import caches

from restapi.pagination import MAX_LIMIT
from tournaments.models import Tournament

log = logging.getLogger(__name__)
BUILDING_SECONDS = 10  # a builder that died frees its claim after this
# The bracket's page sizes that the site's pages ask for (the tournament page's round and
# bracket slices, tournaments/web/views.py's MATCHES_PAGE and BRACKET_PAGE; the API's default
# and largest page): only those slices are kept.
FOLLOWED_PAGE_SIZES = frozenset({64, 128, MAX_LIMIT})


def followed(kind: str, tournament: Tournament, params: tuple, build: Callable[[], Any]) -> Any:
    """`build()`'s payload for `kind` of `tournament` with `params`, at most
    TRUCO_FOLLOW_CACHE_SECONDS old (0: built every time)."""
    seconds = float(settings.TRUCO_FOLLOW_CACHE_SECONDS)
    if seconds <= 0:
        return build()
    cache = caches["live"]
    key = f"follow:{kind}:{tournament.pk}:{tournament.status}:{':'.join(map(str, params))}"
    try:
        entry = cache.get(key)
        if entry is not None and (
            entry["until"] > time.time() or not cache.add(f"{key}:building", 1, BUILDING_SECONDS)
        ):
            return entry["payload"]  # fresh, or being built again by another request
    except Exception:  # a cache down costs a build, never the answer
        log.warning("the live cache cannot be read", exc_info=True)
        return build()
    payload = build()
    try:
        cache.set(key, {"payload": payload, "until": time.time() + seconds}, 30 * seconds)
        cache.delete(f"{key}:building")
    except Exception:
        log.warning("the live cache cannot be written", exc_info=True)
    return payload
