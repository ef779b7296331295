"""URLs: the web pages at the root, the REST API under /api/, the admin, and a health check."""

from django.contrib import admin
from django.urls import include, path

from .health import healthz

urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("api/", include("tournaments.api.urls")),
    path("", include("tournaments.web.urls")),
]

# JSON for a 404 under /api/ (tournaments/api/errors.py), Django's page elsewhere.
handler404 = "tournaments.api.errors.not_found"
