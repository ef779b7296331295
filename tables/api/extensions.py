"""What the tables app adds to the other apps' API (restapi/extensions.py): a tournament's
`table` section (RULES.md section 5: its stake, privacy, spectators and disconnection grace, and
for compatibility the tournament's own time per decision and `competitive`), and a person's
chips and ranking points on their player. Registered by TablesConfig.ready()."""

from __future__ import annotations

from typing import Any

from django.db.models import F
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from players.api.serializers import PLAYER_FIELDS
from restapi.extensions import Extension
from tables.checks import check_table_settings
from tables.models import TableSettings, Wallet, settings_of
from tournaments.api.serializers import TOURNAMENT_SECTIONS
from tournaments.models import Tournament

# The table section's keys that are the tournament's own fields.
TOURNAMENT_KEYS = ("turn_seconds", "competitive")


class TableSettingsSerializer(serializers.ModelSerializer):
    """RULES.md section 5: the settings of the tables the tournament's games are played at."""

    turn_seconds = serializers.IntegerField(min_value=0, max_value=3600, required=False)
    competitive = serializers.BooleanField(required=False)
    stake = serializers.IntegerField(min_value=0, max_value=10**9, required=False)
    disconnect_grace_seconds = serializers.IntegerField(
        min_value=0, max_value=86400, required=False
    )

    class Meta:
        model = TableSettings
        fields = [
            "turn_seconds",
            "competitive",
            "stake",
            "private",
            "spectators",
            "disconnect_grace_seconds",
        ]
        # `master` and `daily` belong to a player's own table (the play page), not a tournament.


@extend_schema_field(TableSettingsSerializer)
class TableSection(serializers.Field):
    """A tournament's table settings: read from the tournament, written back by `save_table`."""

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("source", "*")
        super().__init__(**kwargs)

    def to_representation(self, tournament: Tournament) -> dict[str, Any]:
        return TableSettingsSerializer(settings_of(tournament)).data

    def to_internal_value(self, data) -> dict[str, Any]:
        checked = TableSettingsSerializer(data=data, partial=True)
        checked.is_valid(raise_exception=True)
        return {"table": dict(checked.validated_data)}


def validate_table(serializer, table: dict[str, Any], attrs: dict[str, Any]) -> dict[str, Any]:
    """A stake needs a competitive table; the section's time and `competitive` are the
    tournament's fields (set here, so that the tournament's own checks see them)."""
    table = dict(table.get("table", table))
    for key in TOURNAMENT_KEYS:
        if key in table:
            attrs[key] = table.pop(key)
    instance = serializer.instance
    current = settings_of(instance) if instance is not None else TableSettings()
    competitive = attrs.get("competitive", instance.competitive if instance is not None else True)
    errors = check_table_settings(competitive, table.get("stake", current.stake))
    if errors:
        raise serializers.ValidationError({"table": errors})
    return table


def save_table(tournament: Tournament, table: dict[str, Any]) -> None:
    # Kept on the instance, so that the answer shows the table as it now is.
    tournament.table_settings, _ = TableSettings.objects.update_or_create(
        tournament=tournament, defaults=table
    )


@extend_schema_field(OpenApiTypes.INT)
class WalletField(serializers.Field):
    """One of a person's wallet figures (chips or ranking points); null for a bot. The list
    annotates it (for ordering); a person without a wallet yet has the starting figures."""

    def __init__(self, figure: str, **kwargs):
        self.figure = figure
        kwargs.update(source="*", read_only=True)
        super().__init__(**kwargs)

    def to_representation(self, player) -> int | None:
        if player.kind != player.Kind.HUMAN:
            return None
        value = getattr(player, self.figure, None)  # the list's annotation
        if value is None:
            wallet = Wallet.objects.filter(player=player).first()
            value = (
                getattr(wallet, self.figure)
                if wallet
                else Wallet._meta.get_field(self.figure).default
            )
        return value


def register() -> None:
    TOURNAMENT_SECTIONS.add(
        Extension("table", TableSection, validate=validate_table, save=save_table)
    )
    for figure in ("chips", "ranking_points"):
        PLAYER_FIELDS.add(
            Extension(
                figure,
                lambda figure=figure: WalletField(figure),
                annotation=F(f"wallet__{figure}"),
            )
        )
