"""A user's player: found, or made on first tables."""

from __future__ import annotations

from players.models import Player


def player_of(user) -> Player | None:
    """The user's player, or None; read once for a user object (a request's, a connection's):
    opening a table read it three times. Read with the user if it was (`user.player`: the
    API's token authentication, restapi.views.TokenAuthentication)."""
    if not user or not user.is_authenticated:
        return None
    found = getattr(user, "_truco_player", None)
    if found is None:
        with_the_user = Player.user.field.remote_field  # `user.player`
        if with_the_user.is_cached(user):
            found = with_the_user.get_cached_value(user)  # None: none yet
        else:
            found = Player.objects.filter(user=user).first()
        if found is not None:  # one made later (player_for) is read then
            user._truco_player = found
    return found


def player_for(user) -> Player:
    """The user's player, created on first tables (named after the user, made unique)."""
    found = player_of(user)
    if found is not None:
        return found
    base = user.get_username()
    name, n = base, 1
    while Player.objects.filter(name=name).exists():
        n += 1
        name = f"{base} ({n})"
    user._truco_player = Player.objects.create(name=name, user=user, kind=Player.Kind.HUMAN)
    return user._truco_player
