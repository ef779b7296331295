"""The standings as CSV (`/api/tournaments/{id}/standings/?format=csv`): one row per entrant,
rank, entrant, each metric under its label, rating; for a spreadsheet."""

from __future__ import annotations

import csv
import io

from rest_framework.renderers import BaseRenderer


class StandingsCSVRenderer(BaseRenderer):
    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        if not isinstance(data, dict) or "rows" not in data:  # an error: its message
            writer.writerow(["detail"])
            writer.writerow([data.get("detail", "") if isinstance(data, dict) else data])
            return out.getvalue().encode(self.charset)
        metrics = data.get("metrics", [])
        labels = data.get("metric_labels") or metrics
        writer.writerow(["rank", "entrant", *labels, "rating"])
        for row in data["rows"]:
            values = row.get("values", {})
            writer.writerow(
                [
                    row["rank"],
                    row["entrant"]["name"],
                    *(number(values.get(m)) for m in metrics),
                    row.get("rating") or "",
                ]
            )
        return out.getvalue().encode(self.charset)


def number(value) -> str:
    if value is None:
        return ""
    return str(int(value)) if float(value).is_integer() else f"{value:.4g}"
