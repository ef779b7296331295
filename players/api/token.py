"""/api/auth/token/: a token for a username and password. Wrong passwords are counted by
django-axes like those of the login page; once a username is locked out from an address the
answer is a 429 that says so (players/web/lockout.py), even for the right password. Every
request also counts against a rate per address (the `login` throttle scope), so that one
address cannot try many usernames in turn."""

from __future__ import annotations

from collections.abc import Mapping

from axes.handlers.proxy import AxesProxyHandler
from django.contrib.auth.signals import user_logged_in
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle

from players.web.lockout import lockout_response


class TokenView(ObtainAuthToken):
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES  # bounded JSON, as everywhere
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "login"

    def post(self, request, *args, **kwargs):
        data = request.data
        # Axes sees the Django request; DRF's wrapper would hide its lockout flag.
        if (
            isinstance(data, Mapping)
            and isinstance(data.get("username"), str)
            and AxesProxyHandler.is_locked(request._request, {"username": data["username"]})
        ):
            return lockout_response(request._request)
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = serializer.validated_data["user"]
        # A token is a login: the signal clears the failures Axes counted (and sets last_login).
        user_logged_in.send(sender=type(user), request=request._request, user=user)
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})
