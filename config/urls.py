"""URLs: the web pages at the root, the REST API under /api/, the admin, and a health check."""

from django.contrib import admin
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from config.health import healthz


def favicon(request):
    """The icon's static URL, looked up when asked: with DJANGO_DEBUG=0 it names the hashed file
    of the collected static files, which do not exist yet when `migrate` or `collectstatic`
    itself loads these URLs (looking it up here at import crashed every command)."""
    return redirect(static("website/favicon.svg"), permanent=True)


urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    # Browsers ask for /favicon.ico on every page (the admin's and the API docs' too).
    path("favicon.ico", favicon),
    path("api/", include("config.api_urls")),
    # The language switcher posts to i18n/setlang/ (remembered in a cookie); the scripts read
    # their messages from jsi18n/.
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(domain="djangojs"), name="javascript-catalog"),
    path("", include("website.urls")),
]

# JSON for a 404 under /api/ (restapi/errors.py), Django's page elsewhere.
handler404 = "restapi.errors.not_found"
