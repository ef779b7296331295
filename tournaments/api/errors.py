"""Turning every expected failure into a 400 with a message, so that no input gives a 500: model
validation, lifecycle refusals, protected rows, malformed records, and values out of the
database's range (an id of 30 digits)."""

from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError, IntegrityError
from django.db.models import ProtectedError
from rest_framework import exceptions, serializers

from engine.errors import RecordError, TrucoError

from ..lifecycle import LifecycleError
from ..registration import RegistrationError


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


def as_api_error(exc: Exception) -> Exception:
    if isinstance(exc, RegistrationError):
        return Refused(str(exc), exc.status)
    if isinstance(exc, DjangoValidationError):
        return serializers.ValidationError(django_errors(exc))
    if isinstance(exc, LifecycleError):
        return BadRequest(str(exc))
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
    return exc


class FriendlyErrorsMixin:
    """For API views: expected failures become 400 responses with their message."""

    def handle_exception(self, exc):
        return super().handle_exception(as_api_error(exc))
