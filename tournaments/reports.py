"""Standings as text and as JSON, for the commands."""

from __future__ import annotations

from tournaments.scheduling import Standing


def _number(value: float) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def standings_text(rows: list[Standing]) -> str:
    metrics = list(rows[0].values) if rows else []
    header = ["#", "entrant", *metrics, "rating"]
    body = [
        [str(r.rank), r.name, *(_number(r.values[m]) for m in metrics), r.rating or "-"]
        for r in rows
    ]
    widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]
    lines = []
    for line in [header, *body]:
        cells = [
            cell.ljust(w) if i == 1 else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(line, widths, strict=True))
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def standings_json(rows: list[Standing]) -> list[dict]:
    return [
        {"rank": r.rank, "entrant": r.name, "values": r.values, "rating": r.rating} for r in rows
    ]
