"""/api/play/: your matches, a match's table, sitting down, acting, and practice games."""

from django.urls import include, path
from rest_framework.routers import SimpleRouter

from tables.api.views import PlayMatchViewSet, QuickMatchView

router = SimpleRouter()
router.register("matches", PlayMatchViewSet, basename="play-match")

urlpatterns = [
    path("quick/", QuickMatchView.as_view(), name="play-quick"),
    path("", include(router.urls)),
]
