"""The site's own 404 page for visitors, also while DEBUG is on: Django's debug 404 lists every
URL pattern of the site, which is for the developer (DJANGO_DEBUG_PAGES, or an address in
DJANGO_INTERNAL_IPS), not for whoever guesses `/bots/`. Under /api/ a 404 stays JSON."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404

from restapi.errors import not_found


def debug_pages_for(request) -> bool:
    if not settings.DEBUG:
        return False  # Django shows its handler404 then, nothing to do here
    return settings.DEBUG_PAGES or request.META.get("REMOTE_ADDR") in settings.INTERNAL_IPS


class SiteNotFoundMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        # No view matched the URL: with DEBUG on, Django answered with its debug page.
        if (
            response.status_code == 404
            and getattr(request, "resolver_match", None) is None
            and settings.DEBUG
            and not debug_pages_for(request)
        ):
            return not_found(request)
        return response

    def process_exception(self, request, exception):
        """A view's Http404 (get_object_or_404...), which DEBUG would show as the debug page."""
        if isinstance(exception, Http404) and settings.DEBUG and not debug_pages_for(request):
            return not_found(request, exception)
        return None
