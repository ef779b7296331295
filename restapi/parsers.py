"""The API's JSON parser, with bounds: a body larger than DATA_UPLOAD_MAX_MEMORY_SIZE is a 413
and JSON nested deeper than MAX_JSON_DEPTH a 400, each with a message, never a 500 (Python's
json module recurses per level and fails with RecursionError on 100,000 nested arrays; and DRF
reads a JSON body as a stream, past Django's own size check). Every JSON endpoint uses it
(REST_FRAMEWORK's DEFAULT_PARSER_CLASSES)."""

from __future__ import annotations

import re
from itertools import accumulate

from django.conf import settings
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import JSONParser
from rest_framework.utils import json

# Far more than any payload of this API needs (a game record is about 5 levels deep).
MAX_JSON_DEPTH = 64


class BodyTooLarge(APIException):
    status_code = 413
    default_detail = "the request body is too large"
    default_code = "too_large"


def max_body_bytes() -> int:
    return settings.DATA_UPLOAD_MAX_MEMORY_SIZE


# A JSON string (with its escapes), and the brackets outside strings with their effect on depth.
STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
BRACKETS = re.compile(r"[^\[\]{}]+")
DEPTH_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def nesting_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON text (brackets inside strings do not
    count), without recursion and in C loops: fast on a body of megabytes."""
    brackets = BRACKETS.sub("", STRING.sub("", text))
    return max(accumulate(map(DEPTH_STEP.__getitem__, brackets)), default=0)


class BoundedJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        if stream is None:
            return super().parse(stream, media_type, parser_context)
        limit = max_body_bytes()
        data = stream.read(limit + 1)
        if len(data) > limit:
            raise BodyTooLarge(f"the request body is over {limit} bytes")
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = data.decode(encoding)
        except (UnicodeDecodeError, LookupError) as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
        if nesting_depth(text) > MAX_JSON_DEPTH:
            raise ParseError(f"JSON nested deeper than {MAX_JSON_DEPTH} levels is refused")
        try:
            return json.loads(text, parse_constant=json.strict_constant if self.strict else None)
        except (ValueError, RecursionError) as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
