"""What happened in the hand that just ended, in a sentence or two: who won it, for how many
points, and why (the tricks, a refused truco, a fold, a run from the hand of eleven, an envido
won with 33, a flor). Built only from the hand's public summary (`previous_hand`, the same for
every seat), so it tells nobody anything they did not see."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext as _

from engine.side_bets import SideBets
from tables.table_words import Words, accepted_step, points, raise_name, side_calls

TIE = -1


def hand_story(
    summary: Mapping[str, Any],
    ladder: tuple[int, ...],
    words: Words,
    team_name: Callable[[int], str],
    seat_name: Callable[[int], str],
    side_bets: SideBets | None = None,
) -> dict[str, Any] | None:
    """{hand, points, winner, headline, reasons, tricks, results}; None before any hand ended."""
    if not summary or "points" not in summary:
        return None
    scored = list(summary["points"])
    history = [tuple(a) for a in summary.get("history", [])]
    extra = summary.get("extra") or {}
    reasons: list[str] = []
    if side_bets is not None:
        envido_reason(extra, history, seat_name, reasons, words, side_bets)
        flor_reason(extra, seat_name, reasons, side_bets)
    ending_reason(history, summary, ladder, words, team_name, seat_name, reasons)
    winner = None if scored[0] == scored[1] else (0 if scored[0] > scored[1] else 1)
    if winner is None:
        headline = (
            _("Hand %(n)d: nobody scores") % {"n": summary["hand_no"] + 1}
            if not any(scored)
            else _("Hand %(n)d: both teams score %(points)s")
            % {"n": summary["hand_no"] + 1, "points": points(scored[0])}
        )
    else:
        headline = _("Hand %(n)d: %(team)s +%(points)s") % {
            "n": summary["hand_no"] + 1,
            "team": team_name(winner),
            "points": points(scored[winner]),
        }
        if scored[1 - winner]:
            headline += " · " + _("%(team)s +%(points)s") % {
                "team": team_name(1 - winner),
                "points": points(scored[1 - winner]),
            }
    tricks = summary.get("tricks", [])
    results = summary.get("results", [])
    return {
        "hand": summary["hand_no"],
        "points": scored,
        "winner": winner,
        "headline": headline,
        "reasons": reasons,
        "tricks": tricks,
        "results": results,
        # Who is who in that hand (the seats of the game it belongs to, which may not be the
        # seats of the next game): the seat of each card, and each trick's winner.
        "seats": {str(seat): seat_name(seat) for trick in tricks for seat, *_card in trick},
        "trick_winners": [_("tied") if result == TIE else team_name(result) for result in results],
    }


def envido_reason(extra, history, seat_name, reasons: list[str], words, side_bets) -> None:
    calls = extra.get("envido_calls") or []
    if not calls:
        return
    names = " + ".join(words.side_bets.get(c, c) for c in calls)
    accept = words.side_bet_accept or words.accept
    refuse = words.side_bet_refuse or words.refuse
    status = extra.get("envido_status")
    revealed = (extra.get("revealed") or {}).get("envido")
    if status == "accepted" and revealed:
        # A falta envido's worth depends on the score before it: the line names no figure.
        value = (
            side_bets.value_if_accepted(calls, (0, 0), 0, 0)
            if "falta_envido" not in calls
            else None
        )
        text = _("%(calls)s (%(answer)s): %(seat)s won with %(envido)d") % {
            "calls": names,
            "answer": accept,
            "seat": seat_name(revealed["seat"]),
            "envido": revealed["points"],
        }
        if value is not None:
            text += " · " + points(value)
        reasons.append(text)
        return
    if status == "refused":
        caller = next((s for s, a in reversed(history) if a in side_calls(words)), None)
        reasons.append(
            _("%(calls)s (%(answer)s): %(seat)s scores the refused envido")
            % {"calls": names, "answer": refuse, "seat": seat_name(caller)}
        )
    elif status == "void":
        reasons.append(_("%(calls)s: void, a flor was declared") % {"calls": names})


def flor_reason(extra, seat_name, reasons: list[str], side_bets) -> None:
    revealed = extra.get("revealed") or {}
    flors = revealed.get("flor") or []
    if not flors:
        return
    best = revealed.get("best_flor")
    if best:
        reasons.append(
            _("flor: %(seat)s had the best, %(points)d")
            % {
                "seat": seat_name(best["seat"]),
                "points": best["points"],
            }
        )
    else:
        reasons.append(
            _("flor: %(seats)s (%(points)s each)")
            % {
                "seats": ", ".join(seat_name(s) for s in flors),
                "points": points(side_bets.flor_value),
            }
        )


def ending_reason(
    history, summary, ladder, words, team_name, seat_name, reasons: list[str]
) -> None:
    """Why the hand ended: its last action says it (a refusal, a fold, a run), else the tricks."""
    if not history:
        return
    seat, last = history[-1]
    side = side_calls(words)
    if last == "refuse":
        bet = last_bet(history, side)
        if bet is None:  # nothing was bet: the hand of eleven (ten) was refused
            reasons.append(_("%(seat)s ran from the hand") % {"seat": seat_name(seat)})
        elif bet in side:
            return  # the envido line says it
        else:
            step = bet_step(history)
            reasons.append(
                _("%(seat)s refused %(bet)s (%(answer)s)")
                % {
                    "seat": seat_name(seat),
                    "bet": f"{raise_name(words, step)} ({ladder[min(step, len(ladder) - 1)]})",
                    "answer": words.refuse,
                }
            )
        return
    if last == "fold":
        reasons.append(_("%(seat)s went to the mazo") % {"seat": seat_name(seat)})
        return
    if last == "truco":
        reasons.append(
            _("%(seat)s called truco when it was barred: the game is lost")
            % {"seat": seat_name(seat)}
        )
        return
    results = summary.get("results") or []
    if results:
        won = [sum(1 for r in results if r == team) for team in (0, 1)]
        ties = sum(1 for r in results if r == TIE)
        text = _("tricks won: %(a)s %(won_a)d, %(b)s %(won_b)d") % {
            "a": team_name(0),
            "won_a": won[0],
            "b": team_name(1),
            "won_b": won[1],
        }
        if ties:
            text += " " + _("(%(n)d tied)") % {"n": ties}
        step = accepted_step(history, side)
        if step:  # the hand was played for a raise: say which
            text += " · " + _("played for %(bet)s (%(value)d)") % {
                "bet": raise_name(words, step),
                "value": ladder[min(step, len(ladder) - 1)],
            }
        reasons.append(text)


def last_bet(history, side: tuple[str, ...] = ()) -> str | None:
    """What the final refusal answered: "truco", a side-bet call (`side`: an envido call), or
    None (the hand of eleven)."""
    pending: list[str] = []
    for _seat, action in history[:-1]:
        if action == "truco" or action in side:
            kind = "truco" if action == "truco" else "envido"
            if not pending or pending[-1] != kind:
                pending.append(kind)
        elif action in ("accept", "refuse") and pending:
            pending.pop()
    if not pending:
        return None
    return "truco" if pending[-1] == "truco" else side[0]


def bet_step(history) -> int:
    """The ladder step of the refused truco: the k-th truco of a hand raises to step k."""
    return max(1, sum(1 for _seat, action in history[:-1] if action == "truco"))
