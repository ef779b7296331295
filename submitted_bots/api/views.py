"""/api/bots/ and /api/bot-plugins/: bot versions (plugins, uploaded bundles, remote bots) and
the registered bot strategies."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from engine.plugins import registry
from restapi.errors import BadRequest
from restapi.permissions import IsOwnerOrStaffOrReadOnly
from restapi.serializers import DetailSerializer
from restapi.views import ApiMixin
from submitted_bots.api import filters, serializers
from submitted_bots.bundles.uploads import upload_version
from submitted_bots.models import Bot

NAME = OpenApiParameter("name", str, OpenApiParameter.PATH, description="its registered name")


@extend_schema_view(
    list=extend_schema(summary="Registered bot strategies (what a bot's `plugin` may name)"),
    retrieve=extend_schema(summary="One bot strategy", parameters=[NAME]),
)
class BotPluginViewSet(ApiMixin, viewsets.ViewSet):
    permission_classes = [AllowAny]
    filter_backends = []
    serializer_class = serializers.BotPluginSerializer
    lookup_field = "name"
    lookup_value_regex = r"[^/]{1,100}"

    def list(self, request):
        plugins = [serializers.bot_plugin_json(name) for name in sorted(registry().bots)]
        return Response(serializers.BotPluginSerializer(plugins, many=True).data)

    def retrieve(self, request, name=None):
        if name not in registry().bots:
            raise Http404(f"no bot {name!r}")
        return Response(serializers.BotPluginSerializer(serializers.bot_plugin_json(name)).data)


@extend_schema_view(
    create=extend_schema(
        summary="Create a plugin bot (JSON), or upload a bundle as a new version (multipart)",
        description=(
            "JSON: `name`, `plugin`, `params`. Multipart: the bundle zip as the file field "
            "`bundle` (docs/bots.md): it becomes the next version of your bot named in its "
            "bot.toml, `validating` until a worker's smoke match makes it `ready` or `rejected`."
        ),
        request={
            "application/json": serializers.BotSerializer,
            "multipart/form-data": serializers.BundleUploadSerializer,
        },
        responses={201: serializers.BotSerializer, 400: DetailSerializer},
    ),
)
class BotViewSet(ApiMixin, viewsets.ModelViewSet):
    """Bots: a registered plugin with its parameters, or an uploaded bundle version. Anyone
    reads; a signed-in user creates bots and uploads bundles (owning them); owners and staff
    change, retire or delete them."""

    queryset = Bot.objects.select_related("owner", "player").order_by("name", "version")
    serializer_class = serializers.BotSerializer
    permission_classes = [IsOwnerOrStaffOrReadOnly]
    filterset_class = filters.BotFilter
    search_fields = ["name", "plugin", "description"]
    ordering_fields = ["name", "created_at"]

    def create(self, request, *args, **kwargs):
        files = getattr(request, "FILES", {}) or {}
        if files or is_multipart(request):
            return self.upload(request, files)
        return super().create(request, *args, **kwargs)

    def upload(self, request, files):
        """A bundle upload: never a file silently dropped, never a 500."""
        unknown = sorted(set(files) - {"bundle"})
        if unknown:
            raise BadRequest(
                f"unexpected file field {', '.join(map(repr, unknown))}: send the bundle zip "
                "as the file field 'bundle'"
            )
        if "bundle" not in files:
            raise BadRequest("no bundle: send the bundle zip as the file field 'bundle'")
        if len(files.getlist("bundle")) > 1:
            raise BadRequest("one bundle per upload")
        form = serializers.BundleUploadSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        bot = upload_version(
            request.user, files["bundle"], description=form.validated_data.get("description", "")
        )
        bot = self.get_queryset().get(pk=bot.pk)
        return Response(self.get_serializer(bot).data, status=status.HTTP_201_CREATED)

    def perform_create(self, serializer):
        serializer.save(owner=self.request.user)

    def perform_destroy(self, instance: Bot):
        if instance.entries.exists():
            raise BadRequest("this bot has played in a tournament; retire it instead")
        player = instance.player
        if instance.bundle:
            instance.bundle.delete(save=False)  # the stored zip goes with its version
        instance.delete()
        player.delete()

    @extend_schema(
        request=None,
        responses={200: serializers.BotSerializer},
        summary="Retire a version: it is no longer entered anywhere (owner or staff)",
    )
    @action(detail=True, methods=["post"])
    def retire(self, request, pk=None):
        bot = self.get_object()
        Bot.objects.filter(pk=bot.pk).update(status=Bot.Status.RETIRED, is_active=False)
        return Response(self.get_serializer(self.get_queryset().get(pk=bot.pk)).data)


def is_multipart(request) -> bool:
    return (request.content_type or "").startswith("multipart/")
