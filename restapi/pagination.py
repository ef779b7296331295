"""Pages of every list: `limit` and `offset`, bounded. A limit beyond MAX_LIMIT is cut down to
it (as DRF does with `max_limit`), and so is an offset beyond MAX_OFFSET: numbers past what a
database column holds overflowed inside the query and answered a misleading 400."""

from __future__ import annotations

from rest_framework.pagination import LimitOffsetPagination

MAX_LIMIT = 500
MAX_OFFSET = 10**12


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    max_limit = MAX_LIMIT

    def get_offset(self, request) -> int:
        return min(super().get_offset(request), MAX_OFFSET)
