"""The parts of a table's state that tell a person what is going on, in their language: seat
labels, the labelled choices of their own seats, the hand's log in the variant's words, the
last hand's summary, the envido and flor facts, the manilhas, and the end of a game.

Everything here comes from the public view, the finished games' records (a game that is over is
public) or the viewer's own seats; nothing shows a card a seat may not see."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from engine.errors import RecordError
from engine.observation import plain
from engine.plugins import get_variant
from engine.records import replay
from tables.hand_story import hand_story
from tables.models import settings_of
from tables.table_words import choices, log_lines, manilhas, words_of
from tournaments.models import Game, Match
from tournaments.seat_labels import seat_labels, team_label
from tournaments.seating import seating


def explain(state: dict[str, Any], match: Match, game, finished: list, mine: list[int]) -> dict:
    """Additions to `state` (tables.views_state.table_state)."""
    tournament = match.tournament
    labels = seat_labels(state["seats"], mine)
    for seat in state["seats"]:
        seat["label"] = labels[seat["seat"]]
    out: dict[str, Any] = {"choices": {}, "log": [], "hand_summary": None, "envido": None}
    players = {s["player"] for s in state["seats"] if s["seat"] in mine and s["player"]}
    out["game_over"] = last_game(match, finished, players) if game is None and finished else None
    if game is None:
        if out["game_over"] is not None:
            out["hand_summary"] = out["game_over"].pop("hand_summary")
        return out
    rules = game.state.rules
    words = words_of(tournament.variant, rules)
    view = state["table"]
    name = labels.__getitem__
    for seat in mine:
        observation = state["observations"].get(str(seat))
        if observation and observation["legal"]:
            out["choices"][str(seat)] = choices(observation, rules)
    out["log"] = [
        {**line, "who": name(line["seat"])}
        for line in log_lines(view["history"], rules.ladder, words)
    ]
    out["hand_summary"] = hand_story(
        view.get("previous_hand") or {},
        rules.ladder,
        words,
        lambda team: team_label(team, labels, mine),
        name,
        get_variant(tournament.variant).side_bets,
    )
    # The manilhas by their rank (the one after the vira): the page marks the four cards of it.
    # Never the cards themselves: a payload names no card of a hand that is not the viewer's.
    view["manilha_rank"] = manilha_rank(game.state) if words.manilha else None
    view["manilha_word"] = words.manilha
    view["hand_of_n_word"] = words.hand_of_n
    out["envido"] = envido_facts(view, game, mine, name)
    return out


def manilha_rank(state) -> str | None:
    """The rank of the manilhas where a vira makes them (Paulista, Truc Tete); None where they
    are fixed (Mineiro: the rules panel names them) or not dealt yet."""
    if not state.rules.uses_vira:
        return None
    top = manilhas(state.strength)
    return top[0][:-1] if top else None


def envido_facts(view: dict[str, Any], game, mine: list[int], name) -> dict[str, Any] | None:
    """The envido of the hand in play (Argentino): the calls and their answer, the points each
    side has shown, and your own points (your cards are yours to count)."""
    side_bets = get_variant(game.state.rules.variant_name).side_bets
    if side_bets is None:
        return None
    extra = view.get("extra") or {}
    revealed = extra.get("revealed") or {}
    dealt = game.state.dealt or ()
    facts: dict[str, Any] = {
        "calls": extra.get("envido_calls") or [],
        "status": extra.get("envido_status"),
        "yours": {str(seat): side_bets.points(dealt[seat]) for seat in mine if seat < len(dealt)},
        "shown": None,
        "flor": [name(seat) for seat in revealed.get("flor") or []],
    }
    if revealed.get("envido"):
        shown = revealed["envido"]
        facts["shown"] = {
            "seat": shown["seat"],
            "who": name(shown["seat"]),
            "points": shown["points"],
        }
    return facts


def last_game(match: Match, finished: list, players: set[int]) -> dict[str, Any] | None:
    """The game that just ended: its winner, final score, last hand and replay link."""
    played = finished[-1]
    record = played.result.record
    tournament = match.tournament
    seats = [s.to_json() for s in seating(match, tournament.players, played.a_team)]
    # Sides change seats from one game to the next: the viewer's seats in that game.
    viewer = [s["seat"] for s in seats if s["player"] in players]
    labels = seat_labels(seats, viewer)
    score = list(played.result.score)
    winner = played.result.winner
    try:
        final = replay(record).state
        summary = plain(dict(final.previous_hand))
        rules = final.rules
    except (RecordError, KeyError, TypeError, ValueError):
        summary, rules = {}, None
    pk = None
    if match.status == Match.Status.DONE:  # a match's games are written when it is recorded
        game_row = Game.objects.filter(match=match, index=played.index).values_list("pk", flat=True)
        pk = game_row.first()
    winner_name = team_label(winner, labels, viewer) if winner is not None else None
    story = None
    if rules is not None:
        story = hand_story(
            summary,
            rules.ladder,
            words_of(tournament.variant, rules),
            lambda team: team_label(team, labels, viewer),
            labels.__getitem__,
            get_variant(tournament.variant).side_bets,
        )
    return {
        "index": played.index,
        "score": score,
        "teams": [team_label(0, labels, viewer), team_label(1, labels, viewer)],
        "winner": winner,
        "winner_name": winner_name,
        "you_won": winner is not None and any(seat % 2 == winner for seat in viewer),
        "you_lost": winner is not None
        and bool(viewer)
        and all(seat % 2 != winner for seat in viewer),
        "termination": played.result.termination,
        "headline": headline(winner_name, winner, viewer, score),
        "replay": reverse("web:replay", args=[pk]) if pk else None,
        "hand_summary": story,
    }


def headline(winner_name, winner, viewer, score) -> str:
    if winner is None:
        return _("The game ended without a winner")
    final = f"{score[winner]}-{score[1 - winner]}"
    if any(seat % 2 == winner for seat in viewer):
        return _("You won the game, %(score)s") % {"score": final}
    return _("%(winner)s won the game, %(score)s") % {"winner": winner_name, "score": final}


def rematch(match: Match, mine: list[int]) -> dict[str, Any] | None:
    """What `POST /api/play/quick/` takes to open the same table again, for its players."""
    tournament = match.tournament
    if not mine or match.status != Match.Status.DONE:
        return None
    settings = settings_of(tournament)
    opponent = match.entrant_b
    return {
        "variant": tournament.variant,
        "preset": tournament.preset,
        "options": tournament.options,
        "players": tournament.players,
        "bot": str(opponent.bot_id) if opponent is not None and opponent.bot_id else "",
        "games": tournament.games_per_match,
        "turn_seconds": settings.turn_seconds,
        "competitive": settings.competitive,
        "stake": settings.stake,
        "private": settings.private,
        "spectators": settings.spectators,
    }
