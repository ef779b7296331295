"""Who may do what, for every app's API: anyone reads public results, staff change, owners change
what they own. Tournament organisers are tournaments/api/permissions.py."""

from __future__ import annotations

from rest_framework.permissions import SAFE_METHODS, BasePermission


class IsStaffOrReadOnly(BasePermission):
    message = "only staff may change tournaments"

    def has_permission(self, request, view) -> bool:
        return request.method in SAFE_METHODS or bool(request.user and request.user.is_staff)


class IsOwnerOrStaffOrReadOnly(BasePermission):
    """Reading is open; creating needs an account; changing needs to be the owner (or staff)."""

    message = "only the bot's owner (or staff) may change it"

    def has_permission(self, request, view) -> bool:
        return request.method in SAFE_METHODS or bool(
            request.user and request.user.is_authenticated
        )

    def has_object_permission(self, request, view, obj) -> bool:
        if request.method in SAFE_METHODS:
            return True
        user = request.user
        return bool(user.is_staff or (obj.owner_id is not None and obj.owner_id == user.id))
