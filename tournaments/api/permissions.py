"""Who may manage a tournament: staff, or users for the tournaments they created when the site
allows it (tournaments/registration.py)."""

from __future__ import annotations

from rest_framework.permissions import SAFE_METHODS, BasePermission

from tournaments.registration import is_organiser, may_create_tournaments


class IsOrganiserOrReadOnly(BasePermission):
    """Reading is open; creating a tournament needs staff, or any account when the site lets
    users create tournaments; changing one needs to be its organiser (tournaments/registration.py)."""

    message = "only staff, or the user who created this tournament, may change it"

    def has_permission(self, request, view) -> bool:
        if request.method in SAFE_METHODS:
            return True
        if getattr(view, "action", None) == "create":
            return may_create_tournaments(request.user)
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request, view, obj) -> bool:
        return request.method in SAFE_METHODS or is_organiser(request.user, obj)
