"""URLs: the admin, a health check, and the REST API and web pages once their modules exist
(`tournaments/api/urls.py` under /api/, `tournaments/web/urls.py` at the root), so those parts
plug in without editing this file."""

from importlib.util import find_spec

from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView

from .health import healthz


def _module_exists(name: str) -> bool:
    try:
        return find_spec(name) is not None
    except ModuleNotFoundError:  # the parent package does not exist yet
        return False


urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
]
if _module_exists("tournaments.api.urls"):
    urlpatterns.append(path("api/", include("tournaments.api.urls")))
if _module_exists("tournaments.web.urls"):
    urlpatterns.append(path("", include("tournaments.web.urls")))
else:  # until the web pages exist, the home page is the admin's list of tournaments
    urlpatterns.append(path("", RedirectView.as_view(url="/admin/tournaments/tournament/")))
