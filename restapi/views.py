"""The base of every app's API views: who may authenticate, the filters, ids that fit the
database, and expected failures answered as 400s with a message."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django_filters.rest_framework import DjangoFilterBackend
from rest_framework import authentication, exceptions
from rest_framework.authentication import SessionAuthentication
from rest_framework.filters import OrderingFilter, SearchFilter

from restapi.errors import FriendlyErrorsMixin

# Ids in URLs are numbers that fit the database: anything else is a 404, never a 500.
ID = r"[0-9]{1,18}"


class TokenAuthentication(authentication.TokenAuthentication):
    """REST framework's, the user's player read with the token and the user (`user.player`,
    the reverse of Player.user; None: none yet): a script's requests at a table read it, in a
    query of its own (players.people.player_of)."""

    def authenticate_credentials(self, key):
        model = self.get_model()
        try:
            token = model.objects.select_related("user__player").get(key=key)
        except model.DoesNotExist:
            raise exceptions.AuthenticationFailed(_("Invalid token.")) from None
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return (token.user, token)


class ApiMixin(FriendlyErrorsMixin):
    authentication_classes = [SessionAuthentication, TokenAuthentication]
    filter_backends = [DjangoFilterBackend, SearchFilter, OrderingFilter]
    lookup_value_regex = ID
