"""A user's player: found, or made on first tables."""

from __future__ import annotations

from players.models import Player


def player_of(user) -> Player | None:
    if not user or not user.is_authenticated:
        return None
    return Player.objects.filter(user=user).first()


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
    return Player.objects.create(name=name, user=user, kind=Player.Kind.HUMAN)
