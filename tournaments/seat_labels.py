"""Who is who at the table, from the viewer's chair: every seat gets a distinct label ("You",
"your partner", opponents numbered when they share a name, as two `heuristic` bots do)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _


def seat_labels(seats: Sequence[dict[str, Any]], you: Sequence[int]) -> dict[int, str]:
    """seats: [{seat, name, kind}], in seat order; you: the viewer's seats."""
    mine = set(you)
    my_teams = {s % 2 for s in mine}
    labels: dict[int, str] = {}
    others = [s for s in seats if s["seat"] not in mine and s["seat"] % 2 not in my_teams]
    counts = Counter(s["name"] for s in others)
    numbered: Counter = Counter()
    for s in seats:
        seat = s["seat"]
        if seat in mine:
            labels[seat] = _("You") if len(mine) == 1 else _("You (seat %(n)d)") % {"n": seat + 1}
        elif seat % 2 in my_teams:
            labels[seat] = (
                _("your partner (robot)")
                if s.get("kind") == "bot"
                else _("your partner %(name)s") % {"name": s["name"]}
            )
        elif counts[s["name"]] > 1:
            numbered[s["name"]] += 1
            labels[seat] = f"{s['name']} {numbered[s['name']]}"
        else:
            labels[seat] = s["name"]
    return labels


def team_label(team: int, labels: dict[int, str], you: Sequence[int]) -> str:
    seats = sorted(seat for seat in labels if seat % 2 == team)
    if any(seat % 2 == team for seat in you):
        return _("You") if len(seats) == 1 else _("your team")
    return " & ".join(labels[seat] for seat in seats)
