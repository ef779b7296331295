"""Turning every expected failure into a 400 with a message, so that no input gives a 500: model
validation, lifecycle refusals, protected rows, malformed records, values out of the
database's range (an id of 30 digits), and request bodies too large (413) or with too many
fields. `exception_handler` does it for every API view (REST_FRAMEWORK's EXCEPTION_HANDLER).

The apps' own refusals (a tournament that cannot start, a registration that is closed) are
registered by each app (`answer_with`), so that this module knows no app."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import (
    RequestDataTooBig,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError, IntegrityError
from django.db.models import ProtectedError
from django.http import JsonResponse
from django.views.defaults import page_not_found
from rest_framework import exceptions, serializers
from rest_framework.views import exception_handler as drf_exception_handler

from engine.errors import RecordError, TrucoError
from restapi.parsers import BodyTooLarge


class BadRequest(exceptions.APIException):
    """A 400 whose body is `{"detail": "<message>"}`: for refusals that are about no field."""

    status_code = 400
    default_detail = "bad request"
    default_code = "invalid"


def django_errors(exc: DjangoValidationError):
    """A Django ValidationError as DRF detail: field messages when it has them."""
    if hasattr(exc, "error_dict"):
        return {
            ("non_field_errors" if field == "__all__" else field): messages
            for field, messages in exc.message_dict.items()
        }
    return {"non_field_errors": exc.messages}


class Refused(exceptions.APIException):
    """A refusal with its own status (403 not yours, 404, 409 closed or full) and message."""

    default_code = "refused"

    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status_code = status


# An app's exception type -> the HTTP status it is answered with (`answer_with`).
REFUSALS: dict[type[Exception], int | None] = {}


def answer_with(exception: type[Exception], status: int | None = 400) -> None:
    """Answer `exception` (an app's refusal) with its message and `status`; None: the status
    the exception carries (its `status` attribute)."""
    REFUSALS[exception] = status


def as_api_error(exc: Exception) -> Exception:
    for kind, status in REFUSALS.items():
        if isinstance(exc, kind):
            code = status if status is not None else getattr(exc, "status", 400)
            return BadRequest(str(exc)) if code == 400 else Refused(str(exc), code)
    if isinstance(exc, DjangoValidationError):
        return serializers.ValidationError(django_errors(exc))
    if isinstance(exc, ProtectedError):
        return BadRequest("it is in use (entered in a tournament or rated) and cannot be deleted")
    if isinstance(exc, RecordError):
        return BadRequest(exc.to_json())
    if isinstance(exc, TrucoError):
        return BadRequest(str(exc))
    if isinstance(exc, (OverflowError, DataError)):
        return BadRequest("a value is out of range")
    if isinstance(exc, IntegrityError):
        return BadRequest("this conflicts with existing data")
    if isinstance(exc, RequestDataTooBig):
        return BodyTooLarge(
            f"the request body is over {settings.DATA_UPLOAD_MAX_MEMORY_SIZE} bytes"
        )
    if isinstance(exc, TooManyFieldsSent):
        return BadRequest(
            f"the request has more than {settings.DATA_UPLOAD_MAX_NUMBER_FIELDS} fields"
        )
    if isinstance(exc, TooManyFilesSent):
        return BadRequest(
            f"the request has more than {settings.DATA_UPLOAD_MAX_NUMBER_FILES} files"
        )
    if isinstance(exc, RecursionError):
        return BadRequest("the request is nested too deeply")
    return exc


def exception_handler(exc, context):
    """DRF's handler, after the expected failures above became API errors with a message."""
    return drf_exception_handler(as_api_error(exc), context)


class FriendlyErrorsMixin:
    """For API views: expected failures become 400 responses with their message."""

    def handle_exception(self, exc):
        return super().handle_exception(as_api_error(exc))


def is_api_path(path: str) -> bool:
    return path == "/api" or path.startswith("/api/")


def unknown_api_url(request, *args, **kwargs):
    """The last /api/ route: an unknown API URL answers a JSON 404 (not Django's HTML page or,
    with DEBUG on, its URL list), whatever the method."""
    return JsonResponse(
        {
            "detail": f"no API endpoint at {request.path}; the list is at /api/, the docs at /api/docs/"
        },
        status=404,
    )


def not_found(request, exception=None):
    """handler404: JSON under /api/ (an Http404 raised outside DRF's own handling), Django's
    page elsewhere."""
    if is_api_path(request.path):
        return JsonResponse({"detail": "not found"}, status=404)
    return page_not_found(request, exception)
