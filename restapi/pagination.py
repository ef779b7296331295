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


class BracketPagination(BoundedLimitOffsetPagination):
    """The pages of a tournament's bracket (tournaments/api/bracket.py): a response holds at
    most MAX_LIMIT matches, and MAX_LIMIT when no `limit` is given. Bad values are read as
    DRF reads them: a limit that is not a positive whole number is the default one, an offset
    that is not a whole number from 0 is 0."""

    default_limit = MAX_LIMIT

    def links(self, request, limit: int, offset: int, count: int) -> dict:
        """`next` and `previous` of the page at `offset` of `limit` matches out of `count`."""
        self.request, self.limit, self.offset, self.count = request, limit, offset, count
        return {"next": self.get_next_link(), "previous": self.get_previous_link()}
