"""Who may do what: anyone reads public results, organisers (staff, or users for the tournaments
they created when the site allows it) manage tournaments, owners their bots."""

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


class IsOrganiserOrReadOnly(BasePermission):
    """Reading is open; creating a tournament needs staff, or any account when the site lets
    users create tournaments; changing one needs to be its organiser (tournaments/registration.py)."""

    message = "only staff, or the user who created this tournament, may change it"

    def has_permission(self, request, view) -> bool:
        from tournaments.registration import may_create_tournaments

        if request.method in SAFE_METHODS:
            return True
        if getattr(view, "action", None) == "create":
            return may_create_tournaments(request.user)
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request, view, obj) -> bool:
        from tournaments.registration import is_organiser

        return request.method in SAFE_METHODS or is_organiser(request.user, obj)
