"""The head-to-head of a tournament (a round robin, or a ladder's tournament) as a heatmap: for
each pair of entrants, the share of their games the row's entrant won. Read from the finished
matches in one query; drawn by tournaments/templates/tournaments/_heatmap.html as SVG, each
cell with its words (a <title>) for screen readers and for a pointer's hover."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from tournaments.models import Match, Tournament

CELL = 28  # pixels of a cell
LABEL = 150  # pixels of the names' column


@dataclass(frozen=True)
class Cell:
    row: int
    col: int
    x: int
    y: int
    wins: int
    games: int
    colour: str
    words: str

    @property
    def share(self) -> float | None:
        return self.wins / self.games if self.games else None

    @property
    def percent(self) -> str:
        return "" if self.share is None else f"{round(100 * self.share)}"


def colour(share: float | None) -> str:
    """Red for a pair the row lost, white for even, green for one it won; grey when unplayed."""
    if share is None:
        return "#eef0f3"
    if share >= 0.5:
        t = (share - 0.5) * 2
        return f"rgb({round(255 - 244 * t)},{round(255 - 145 * t)},{round(255 - 176 * t)})"
    t = (0.5 - share) * 2
    return f"rgb({round(255 - 75 * t)},{round(255 - 220 * t)},{round(255 - 231 * t)})"


def head_to_head(tournament: Tournament, entrant_ids: list[int], names: dict[int, str]) -> dict:
    """The heatmap of these entrants (in this order): cells, labels and the SVG's size."""
    wins: dict[tuple[int, int], int] = {}
    games: dict[tuple[int, int], int] = {}
    wanted = set(entrant_ids)
    rows = Match.objects.filter(
        Q(entrant_a_id__in=wanted) & Q(entrant_b_id__in=wanted),
        tournament=tournament,
        status=Match.Status.DONE,
    ).values_list("entrant_a_id", "entrant_b_id", "wins_a", "wins_b", "games_played")
    for a, b, wins_a, wins_b, played in rows:
        for me, them, won in ((a, b, wins_a), (b, a, wins_b)):
            wins[me, them] = wins.get((me, them), 0) + won
            games[me, them] = games.get((me, them), 0) + played
    cells = []
    for r, a in enumerate(entrant_ids):
        for c, b in enumerate(entrant_ids):
            if a == b:
                continue
            n, w = games.get((a, b), 0), wins.get((a, b), 0)
            words = (
                f"{names[a]} v {names[b]}: won {w} of {n} games ({round(100 * w / n)}%)"
                if n
                else f"{names[a]} v {names[b]}: not played yet"
            )
            cells.append(
                Cell(
                    r, c, LABEL + c * CELL, 20 + r * CELL, w, n, colour(w / n if n else None), words
                )
            )
    size = len(entrant_ids)
    return {
        "cells": cells,
        "labels": [
            {
                "name": names[e],
                "y": 20 + k * CELL + CELL // 2 + 4,
                "x": LABEL + k * CELL + CELL // 2,
            }
            for k, e in enumerate(entrant_ids)
        ],
        "width": LABEL + size * CELL + 4,
        "height": 20 + size * CELL + 4,
        "cell": CELL,
        "label_width": LABEL - 6,
    }
