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
# manage.py bench_big).
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
)


def match_json(row: tuple, entrants: dict[int, dict[str, Any]]) -> dict[str, Any]:
    key, round_number, match_id, status, a, b, winner, wins_a, wins_b, points_a, points_b, games = (
        row
    )
    side_a, side_b = entrants.get(a), entrants.get(b) if b is not None else None
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


def bracket_payload(tournament: Tournament, round_number: int | None = None) -> dict[str, Any]:
    """The bracket or the rounds; `round_number` keeps one round only (a league's rounds can
    hold thousands of matches)."""
    matches = Match.objects.filter(tournament=tournament)
    if round_number is not None:
        matches = matches.filter(round__number=round_number)
    rows = list(matches.order_by("round__number", "id").values_list(*MATCH_COLUMNS))
    entrants = {
        eid: {"id": eid, "name": name, "seed": seed}
        for eid, name, seed in tournament.entrants.values_list("id", "name", "seed")
    }
    slots = [match_json(row, entrants) for row in rows]
    kind = "rounds"
    if format_of(tournament).has_bracket and tournament.status != Tournament.Status.DRAFT:
        kind = "bracket"
        existing = {row[0] for row in rows} if round_number is None else existing_keys(tournament)
        waiting = waiting_slots(tournament, existing)
        slots += [w for w in waiting if round_number is None or w["round"] == round_number]
    goes_to = winners_go_to(tournament) if kind == "bracket" else {}
    for slot in slots:
        slot["next"] = goes_to.get(slot["key"])
    return {
        "tournament": tournament.pk,
        "format": tournament.format,
        "kind": kind,
        "rounds": round_numbers(tournament),
        "sections": group(slots, by_section=kind == "bracket"),
    }


def existing_keys(tournament: Tournament) -> set[str]:
    return set(Match.objects.filter(tournament=tournament).values_list("key", flat=True))


def round_numbers(tournament: Tournament) -> list[int]:
    return list(tournament.rounds.order_by("number").values_list("number", flat=True))


def group(slots: list[dict[str, Any]], *, by_section: bool) -> list[dict[str, Any]]:
    sections: dict[str, dict[int, list]] = {}
    for slot in slots:
        name = section_of(slot["key"]) if by_section else ""
        sections.setdefault(name, {}).setdefault(slot["round"], []).append(slot)
    order = ["W", "L", "3P", "GF", ""]
    return [
        {
            "name": SECTION_NAMES.get(name, "Rounds"),
            "rounds": [{"number": number, "matches": rounds[number]} for number in sorted(rounds)],
        }
        for name, rounds in sorted(sections.items(), key=lambda item: order.index(item[0]))
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
