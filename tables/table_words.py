"""The words of each variant at the table: what a raise is called at each step of the ladder
(truco, seis, nove, doze; truco, retruco, vale cuatro), how one accepts or refuses (aceito /
corro, quiero / no quiero), and, for a seat's legal actions, a label, a group (cards, bets,
answers, other) and what choosing it is worth.

The bet names are the players' own words and stay as they are in every language; what they are
worth and what an action does is translated (gettext).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine.plugins import get_variant
from engine.table_words import Words

CARD, BET, ANSWER, OTHER = "card", "bet", "answer", "other"


def words_of(variant: str, rules=None) -> Words:
    """The variant's words at a table of these rules (the variant says: engine/table_words.py)."""
    plugin = get_variant(variant)
    return plugin.words_for(rules if rules is not None else plugin.rules())


def side_calls(words: Words) -> tuple[str, ...]:
    """The actions that call or raise a side bet (Argentino's envido chain), flor apart."""
    return tuple(action for action in words.side_bets if action != "flor")


def raise_name(words: Words, step: int) -> str:
    """The name of ladder step `step` (1: the first raise)."""
    return words.raise_name(step)


def points(n: int) -> str:
    return ngettext("%(n)d point", "%(n)d points", n) % {"n": n}


def ladder_words(words: Words, ladder: Sequence[int]) -> list[dict[str, Any]]:
    """The ladder as the rules panel shows it: [{word, value}], the hand's own value first."""
    steps = [{"word": _("the hand"), "value": ladder[0]}]
    steps += [{"word": raise_name(words, k), "value": v} for k, v in enumerate(ladder) if k]
    return steps


def choice(action: str, group: str, label: str, hint: str = "") -> dict[str, str]:
    return {"action": action, "group": group, "label": label, "hint": hint}


def choices(observation: dict[str, Any], rules) -> list[dict[str, str]]:
    """A seat's legal actions, labelled and grouped, in the order they are offered: cards, then
    bets, then answers, then the rest."""
    words = words_of(observation["variant"], rules)
    out = [describe(action, observation, rules, words) for action in observation["legal"]]
    order = {CARD: 0, BET: 1, ANSWER: 2, OTHER: 3}
    return sorted(out, key=lambda c: order[c["group"]])


def describe(action: str, obs: dict[str, Any], rules, words: Words) -> dict[str, str]:
    verb, _space, rest = action.partition(" ")
    ladder = rules.ladder
    phase = obs["phase"]
    extra = obs.get("extra") or {}
    if verb == "play" and rest.startswith("#"):  # the blind iron hand: by slot, unseen
        return choice(action, CARD, _("card %(n)d") % {"n": int(rest[1:]) + 1}, _("unseen"))
    if verb == "play":
        return choice(action, CARD, rest, _("play it face up"))
    if verb == "cover":
        return choice(action, CARD, rest, _("cover it: face down, it wins nothing"))
    if verb == "pair":
        up, down = rest.split(" ")
        return choice(
            action, CARD, f"{up} / {down}", _("%(up)s up, %(down)s down") % {"up": up, "down": down}
        )
    if verb == "truco":
        if obs["kind"] != "normal":
            return choice(action, BET, "truco", _("calling truco now loses the game"))
        level = (
            ladder.index(obs["pending"])
            if obs["pending"] is not None
            else ladder.index(obs["stake"])
        )
        step = level + 1
        return choice(
            action, BET, raise_name(words, step), _("raise to %(value)d") % {"value": ladder[step]}
        )
    side_bets = get_variant(obs["variant"]).side_bets
    if verb in side_calls(words):
        calls = tuple(extra.get("envido_calls") or ()) if phase == "envido" else ()
        return choice(action, BET, words.side_bets[verb], envido_worth((*calls, verb), obs, rules))
    if side_bets is not None and verb == side_bets.flor_action:
        return choice(
            action,
            BET,
            words.side_bets.get(verb, verb),
            _("declare it: %(points)s") % {"points": points(side_bets.flor_value)},
        )
    if verb in ("accept", "refuse"):
        return answer(verb, obs, rules, words)
    if verb == "fold":
        folded = obs["stake"] + (1 if folds_open_envido(obs) else 0)
        return choice(
            action,
            OTHER,
            _("go to the mazo"),
            _("fold: the others score %(points)s") % {"points": points(folded)},
        )
    extra_action = words.extra_actions.get(verb)
    if extra_action is not None:  # the variant's own (Mineiro's lots): its words, translated
        return choice(
            action, OTHER, _(extra_action.label), _(extra_action.hint) if extra_action.hint else ""
        )
    return choice(action, OTHER, action.replace("_", " "))


def answer(verb: str, obs: dict[str, Any], rules, words: Words) -> dict[str, str]:
    phase = obs["phase"]
    extra = obs.get("extra") or {}
    if phase == "decide":  # the hand of eleven (ten): play it, or run
        if verb == "accept":
            return choice(
                verb,
                ANSWER,
                _("play this hand"),
                _("it is worth %(points)s") % {"points": points(rules.decided_value)},
            )
        return choice(
            verb,
            ANSWER,
            _("run"),
            _("the others score %(points)s") % {"points": points(rules.refused_value)},
        )
    if phase == "envido":
        calls = tuple(extra.get("envido_calls") or ())
        side_bets = get_variant(obs["variant"]).side_bets
        if verb == "accept":
            return choice(
                verb, ANSWER, words.side_bet_accept or words.accept, envido_worth(calls, obs, rules)
            )
        refused = side_bets.value_if_refused(calls)
        return choice(
            verb,
            ANSWER,
            words.side_bet_refuse or words.refuse,
            _("the others score %(points)s") % {"points": points(refused)},
        )
    if verb == "accept":
        return choice(
            verb,
            ANSWER,
            words.accept,
            _("the hand is then worth %(value)d") % {"value": obs["pending"]},
        )
    return choice(
        verb,
        ANSWER,
        words.refuse,
        _("the others score %(points)s") % {"points": points(obs["stake"])},
    )


def envido_worth(calls: tuple[str, ...], obs: dict[str, Any], rules) -> str:
    side_bets = get_variant(obs["variant"]).side_bets
    if "falta_envido" in calls:
        lacking = rules.target - max(obs["score"])
        return _("if accepted: what the leader lacks (%(points)s)") % {"points": points(lacking)}
    value = side_bets.value_if_accepted(calls, obs["score"], rules.target, obs["seat"] & 1)
    return _("if accepted: %(points)s") % {"points": points(value)}


def folds_open_envido(obs: dict[str, Any]) -> bool:
    extra = obs.get("extra") or {}
    revealed = extra.get("revealed") or {}
    first_trick = not obs["tricks"]
    return (
        first_trick
        and obs["stake"] == 1
        and not extra.get("envido_calls")
        and not revealed.get("flor")
    )


def walk(history: Sequence, side: tuple[str, ...] = ()):
    """Each action of a hand with what it means: (seat, action, answered, step). `answered`,
    for accept and refuse, is what they answer ("truco", "envido", or "decide": the hand of
    eleven); `step` is the ladder step a truco calls, or the step an accepted truco makes.
    `side` are the variant's side-bet calls (`side_calls`)."""
    level = 0  # the accepted step of the ladder
    step = 0  # the step of the last truco called
    pending: list[str] = []  # what waits for an answer, innermost last: "truco", "envido"
    for seat, action in history:
        verb = action.split(" ")[0]
        answered = None
        if verb == "truco":
            if pending and pending[-1] == "truco":
                level = step  # raising accepts the bet it answers
            else:
                pending.append("truco")
            step = level + 1
            yield seat, action, None, step
            continue
        if verb in side and not (pending and pending[-1] == "envido"):
            pending.append("envido")
        elif verb in ("accept", "refuse"):
            answered = pending.pop() if pending else "decide"
            if answered == "truco" and verb == "accept":
                level = step
        yield seat, action, answered, level


def accepted_step(history: Sequence, side: tuple[str, ...] = ()) -> int:
    """The ladder step the hand was played for: 0 unless a truco was accepted."""
    last = 0
    for _seat, action, answered, step in walk(history, side):
        if action == "truco":
            last = step - 1  # calling or raising: the step below stands
        elif answered == "truco" and action == "accept":
            last = step
    return last


def log_lines(history: Sequence, ladder: Sequence[int], words: Words) -> list[dict[str, Any]]:
    """A hand's actions in the players' words: {seat, text, card}. A raise is named by its step, an
    answer by what it answered (a truco, an envido, or the hand of eleven)."""
    out = []
    side = side_calls(words)
    for seat, action, answered, step in walk(history, side):
        verb = action.split(" ")[0]
        card = None
        if verb == "truco":
            text = f"{raise_name(words, step)} ({ladder[min(step, len(ladder) - 1)]})"
        elif verb in words.side_bets:
            text = words.side_bets[verb]
        elif answered == "envido":
            accept, refuse = (
                words.side_bet_accept or words.accept,
                words.side_bet_refuse or words.refuse,
            )
            text = accept if verb == "accept" else refuse
        elif answered == "truco":
            text = words.accept if verb == "accept" else words.refuse
        elif answered == "decide":
            text = _("plays this hand") if verb == "accept" else _("runs")
        elif verb == "play":
            text, card = _("plays"), action[5:]
        elif verb == "cover":
            text = _("covers a card")
        elif verb == "fold":
            text = _("goes to the mazo")
        else:
            text = action.replace("_", " ")
        out.append({"seat": seat, "text": text, "card": card})
    return out


def manilhas(strength: dict[str, int]) -> list[str]:
    """The cards stronger than every other, each alone in its strength: the manilhas (Paulista's
    from the vira, Mineiro's fixed four). Empty when there is no strength table (no deal)."""
    if not strength:
        return []
    counts: dict[int, int] = {}
    for value in strength.values():
        counts[value] = counts.get(value, 0) + 1
    out = []
    for card, value in sorted(strength.items(), key=lambda cv: -cv[1]):
        if counts[value] != 1:
            break
        out.append(card)
    return out
