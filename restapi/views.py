"""The base of every app's API views: who may authenticate, the filters, ids that fit the
database, and expected failures answered as 400s with a message."""

from __future__ import annotations

from django_filters.rest_framework import DjangoFilterBackend
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.filters import OrderingFilter, SearchFilter

from restapi.errors import FriendlyErrorsMixin

# Ids in URLs are numbers that fit the database: anything else is a 404, never a 500.
ID = r"[0-9]{1,18}"


class ApiMixin(FriendlyErrorsMixin):
    authentication_classes = [SessionAuthentication, TokenAuthentication]
    filter_backends = [DjangoFilterBackend, SearchFilter, OrderingFilter]
    lookup_value_regex = ID
