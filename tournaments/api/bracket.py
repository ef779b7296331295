"""A tournament's matches laid out for display: for elimination formats the whole bracket, the
matches still waiting for their players included ("winner of W1-1"); for leagues, the rounds
played so far."""

from __future__ import annotations

from typing import Any

from formats import FormatError
from formats.bracket import EMPTY, UNDECIDED, Feed, Status, resolve
from formats.core import results_by_key
from tournaments.models import Entrant, Match, Tournament
from tournaments.scheduling import format_of, format_options, results_of

SECTION_NAMES = {"W": "Winners", "L": "Losers", "GF": "Grand final", "3P": "Third place"}
THIRD_PLACE_KEY = "3P"  # formats/single_elimination.py names its third-place match so


def section_of(key: str) -> str:
    if key.startswith("GF"):
        return "GF"
    if key == THIRD_PLACE_KEY:
        return "3P"
    return key[0] if key[:1] in ("W", "L") else ""


def entrant_json(entrant: Entrant | None) -> dict[str, Any] | None:
    if entrant is None:
        return None
    return {"id": entrant.id, "name": entrant.name, "seed": entrant.seed}


# A match's row as read for display: tuples, not model instances (a 1,024-entrant Swiss has
# thousands of matches, and building three model instances a match took over half a second:
# manage.py bench_big); the entrants' names and seeds come in the same query.
MATCH_COLUMNS = (
    "key",
    "round__number",
    "id",
    "status",
    "entrant_a_id",
    "entrant_b_id",
    "winner_id",
    "wins_a",
    "wins_b",
    "points_a",
    "points_b",
    "games_played",
    "entrant_a__name",
    "entrant_a__seed",
    "entrant_b__name",
    "entrant_b__seed",
)


def match_json(row: tuple) -> dict[str, Any]:
    (
        key,
        round_number,
        match_id,
        status,
        a,
        b,
        winner,
        wins_a,
        wins_b,
        points_a,
        points_b,
        games,
        name_a,
        seed_a,
        name_b,
        seed_b,
    ) = row
    side_a = {"id": a, "name": name_a, "seed": seed_a} if a is not None else None
    side_b = {"id": b, "name": name_b, "seed": seed_b} if b is not None else None
    return {
        "key": key,
        "round": round_number,
        "match": match_id,
        "status": status,
        "a": side_a,
        "b": side_b,
        "a_label": side_a["name"] if side_a else "",
        "b_label": side_b["name"] if side_b else "bye",
        "winner": winner,
        "wins": [wins_a, wins_b],
        "points": [points_a, points_b],
        "games_played": games,
        "is_bye": b is None,
        "tiebreak": tiebreak_of(winner, b, wins_a, wins_b, points_a, points_b),
    }


def tiebreak(match: Match) -> str:
    """Why the winner of a match tied in games won (engine/match_plan.py: more games, then
    more points, then extra games), in words for the bracket card; "" when games decided."""
    return tiebreak_of(
        match.winner_id,
        match.entrant_b_id,
        match.wins_a,
        match.wins_b,
        match.points_a,
        match.points_b,
    )


def tiebreak_of(winner, side_b, wins_a, wins_b, points_a, points_b) -> str:
    """`tiebreak` of a match's plain values (the bracket reads rows, not models)."""
    if winner is None or side_b is None or wins_a != wins_b:
        return ""
    if points_a != points_b:
        return f"tied {wins_a}-{wins_b} in games, won on points {points_a}-{points_b}"
    return f"tied {wins_a}-{wins_b} in games and points, won by extra games"


SECTION_ORDER = ["W", "L", "3P", "GF", ""]


class BracketSlots:
    """The matches a bracket shows (`round_number`: one round's only), in the order it shows
    them (section, round, then as paired), as a sequence Django's Paginator and the API's
    pages slice: `count()` and `[start:stop]`. A league's rounds are sliced in the database (a
    1,024-entrant Swiss has thousands of matches); a bracket is laid out whole once (its
    waiting matches have no rows) and sliced in memory."""

    def __init__(self, tournament: Tournament, round_number: int | None = None):
        self.tournament = tournament
        self.round_number = round_number
        self.kind = (
            "bracket"
            if format_of(tournament).has_bracket and tournament.status != Tournament.Status.DRAFT
            else "rounds"
        )
        self._laid_out: list[dict[str, Any]] | None = None

    def _matches(self):
        matches = Match.objects.filter(tournament=self.tournament)
        if self.round_number is not None:
            matches = matches.filter(round__number=self.round_number)
        return matches.order_by("round__number", "id")

    def _bracket(self) -> list[dict[str, Any]]:
        if self._laid_out is None:
            rows = list(self._matches().values_list(*MATCH_COLUMNS))
            slots = [match_json(row) for row in rows]
            existing = (
                {row[0] for row in rows}
                if self.round_number is None
                else existing_keys(self.tournament)
            )
            slots += [
                w
                for w in waiting_slots(self.tournament, existing)
                if self.round_number is None or w["round"] == self.round_number
            ]
            slots.sort(
                key=lambda slot: (SECTION_ORDER.index(section_of(slot["key"])), slot["round"])
            )
            self._laid_out = slots
        return self._laid_out

    def count(self) -> int:
        if self.kind == "bracket":
            return len(self._bracket())
        return self._matches().count()

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, index: slice) -> list[dict[str, Any]]:
        if not isinstance(index, slice):
            raise TypeError("BracketSlots are read in slices")
        if self.kind == "bracket":
            return self._bracket()[index]
        return [match_json(row) for row in self._matches().values_list(*MATCH_COLUMNS)[index]]

    def payload(self, shown: list[dict[str, Any]]) -> dict[str, Any]:
        """The bracket payload of these slots (all of them, or a page of them)."""
        goes_to = winners_go_to(self.tournament) if self.kind == "bracket" else {}
        for slot in shown:
            slot["next"] = goes_to.get(slot["key"])
        return {
            "tournament": self.tournament.pk,
            "format": self.tournament.format,
            "kind": self.kind,
            "rounds": round_numbers(self.tournament),
            "sections": group(shown, by_section=self.kind == "bracket"),
        }


def bracket_payload(
    tournament: Tournament,
    round_number: int | None = None,
    *,
    offset: int = 0,
    limit: int | None = None,
) -> dict[str, Any]:
    """The bracket or the rounds; `round_number` keeps one round only (a league's rounds can
    hold thousands of matches), `offset` and `limit` a page of the matches in the order they
    are shown (`count`: how many there are in all)."""
    slots = BracketSlots(tournament, round_number)
    shown = slots[offset : None if limit is None else offset + limit]
    if (limit is None or len(shown) < limit) and (shown or offset == 0):
        count = offset + len(shown)  # the last page: no need to count
    else:
        count = slots.count()
    return {"count": count, **slots.payload(shown)}


def existing_keys(tournament: Tournament) -> set[str]:
    return set(Match.objects.filter(tournament=tournament).values_list("key", flat=True))


def round_numbers(tournament: Tournament) -> list[int]:
    return list(tournament.rounds.order_by("number").values_list("number", flat=True))


def group(slots: list[dict[str, Any]], *, by_section: bool) -> list[dict[str, Any]]:
    sections: dict[str, dict[int, list]] = {}
    for slot in slots:
        name = section_of(slot["key"]) if by_section else ""
        sections.setdefault(name, {}).setdefault(slot["round"], []).append(slot)
    return [
        {
            "name": SECTION_NAMES.get(name, "Rounds"),
            "rounds": [{"number": number, "matches": rounds[number]} for number in sorted(rounds)],
        }
        for name, rounds in sorted(sections.items(), key=lambda item: SECTION_ORDER.index(item[0]))
    ]


def waiting_slots(tournament: Tournament, existing: set[str]) -> list[dict[str, Any]]:
    """The bracket's matches that have no row yet, with who will (or may) play in them."""
    entrants = list(tournament.entrants.order_by("seed", "id"))
    if len(entrants) < 2:
        return []
    try:
        graph = format_of(tournament).bracket_layout(len(entrants), format_options(tournament))
        states = resolve(graph, [e.id for e in entrants], results_by_key(results_of(tournament)))
    except FormatError:
        return []  # results that no longer fit the bracket: show the matches that exist only
    by_id = {e.id: e for e in entrants}
    slots = []
    for key, state in states.items():
        if key in existing or state.status in (Status.VOID, Status.DONE):
            continue
        home = seat_label(state.home, state.match.home, by_id)
        away = seat_label(state.away, state.match.away, by_id)
        slots.append(
            {
                "key": key,
                "round": state.match.round,
                "match": None,
                "status": "waiting",
                "a": entrant_json(by_id.get(state.home)),
                "b": entrant_json(by_id.get(state.away)),
                "a_label": home,
                "b_label": away,
                "winner": None,
                "wins": [0, 0],
                "points": [0, 0],
                "games_played": 0,
                "is_bye": False,
                "tiebreak": "",
            }
        )
    return slots


def seat_label(seat: Any, feed: Feed, by_id: dict[int, Entrant]) -> str:
    if seat in by_id:
        return by_id[seat].name
    if seat is EMPTY:
        return "bye"
    if seat is UNDECIDED and feed.kind in ("winner", "loser"):
        return f"{feed.kind.capitalize()} of {feed.ref}"
    return "to be decided"


def winners_go_to(tournament: Tournament) -> dict[str, str]:
    """Match key -> the key of the match its winner plays next (the lines a bracket is drawn
    with); empty for a format without a bracket."""
    if not format_of(tournament).has_bracket:
        return {}
    entrants = tournament.entrants.count()
    if entrants < 2:
        return {}
    try:
        graph = format_of(tournament).bracket_layout(entrants, format_options(tournament)) or []
    except FormatError:
        return {}
    return {
        feed.ref: match.key
        for match in graph
        for feed in (match.home, match.away)
        if feed.kind == "winner" and isinstance(feed.ref, str)
    }
