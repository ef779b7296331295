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
