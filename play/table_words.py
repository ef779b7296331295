"""The words of each variant at the table: what a raise is called at each step of the ladder
(truco, seis, nove, doze; truco, retruco, vale cuatro), how one accepts or refuses (aceito /
corro, quiero / no quiero), and, for a seat's legal actions, a label, a group (cards, bets,
answers, other) and what choosing it is worth.

The bet names are the players' own words and stay as they are in every language; what they are
worth and what an action does is translated (gettext).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from variants.argentino_envido import (
    CALL_VALUE,
    ENVIDO_CALLS,
    FALTA_ENVIDO,
    FLOR_VALUE,
    refused_value,
)


@dataclass(frozen=True)
class Words:
    raises: tuple[str, ...]  # the names of the ladder's steps after the hand's own value
    accept: str
    refuse: str
    manilha: str | None  # what the strongest cards are called, where they have a name
    hand_of_n: str | None  # the hand a team plays on the threshold (mão de onze / dez)


BRAZILIAN = Words(("truco", "seis", "nove", "doze"), "aceito", "corro", "manilha", "mão de onze")
MINEIRO = Words(("truco", "seis", "nove", "doze"), "aceito", "corro", "manilha", "mão de dez")
ARGENTINE = Words(("truco", "retruco", "vale cuatro"), "quiero", "no quiero", None, None)
VOCABULARY = {"paulista": BRAZILIAN, "truc-tete": BRAZILIAN, "mineiro": MINEIRO}
ENVIDO_NAMES = {"envido": "envido", "real_envido": "real envido", "falta_envido": "falta envido"}
FLOR = "flor"

CARD, BET, ANSWER, OTHER = "card", "bet", "answer", "other"


def words_of(variant: str, rules=None) -> Words:
    if variant == "argentino":
        return ARGENTINE
    words = VOCABULARY.get(variant, BRAZILIAN)
    if rules is not None and words.hand_of_n == "mão de dez" and rules.threshold == 11:
        return BRAZILIAN  # Mineiro's pagat presets play the hand of eleven
    return words


def raise_name(words: Words, step: int) -> str:
    """The name of ladder step `step` (1: the first raise)."""
    return words.raises[step - 1] if 0 < step <= len(words.raises) else words.raises[-1]


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
    if verb in ENVIDO_CALLS:
        calls = tuple(extra.get("envido_calls") or ()) if phase == "envido" else ()
        return choice(action, BET, ENVIDO_NAMES[verb], envido_worth((*calls, verb), obs, rules))
    if verb == FLOR:
        return choice(
            action, BET, FLOR, _("declare it: %(points)s") % {"points": points(FLOR_VALUE)}
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
    if verb == "keep":
        return choice(action, OTHER, _("keep these cards"))
    if verb == "burn":
        return choice(action, OTHER, _("burn them"), _("face up, for the next three"))
    if verb == "pass":
        return choice(action, OTHER, _("pass them"), _("to your partner, for the next three"))
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
        argentine = ARGENTINE
        if verb == "accept":
            return choice(verb, ANSWER, argentine.accept, envido_worth(calls, obs, rules))
        return choice(
            verb,
            ANSWER,
            argentine.refuse,
            _("the others score %(points)s") % {"points": points(refused_value(calls))},
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
    if FALTA_ENVIDO in calls:
        lacking = rules.target - max(obs["score"])
        return _("if accepted: what the leader lacks (%(points)s)") % {"points": points(lacking)}
    return _("if accepted: %(points)s") % {"points": points(sum(CALL_VALUE[c] for c in calls))}


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


def walk(history: Sequence):
    """Each action of a hand with what it means: (seat, action, answered, step). `answered`,
    for accept and refuse, is what they answer ("truco", "envido", or "decide": the hand of
    eleven); `step` is the ladder step a truco calls, or the step an accepted truco makes."""
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
        if verb in ENVIDO_CALLS and not (pending and pending[-1] == "envido"):
            pending.append("envido")
        elif verb in ("accept", "refuse"):
            answered = pending.pop() if pending else "decide"
            if answered == "truco" and verb == "accept":
                level = step
        yield seat, action, answered, level


def accepted_step(history: Sequence) -> int:
    """The ladder step the hand was played for: 0 unless a truco was accepted."""
    last = 0
    for _seat, action, answered, step in walk(history):
        if action == "truco":
            last = step - 1  # calling or raising: the step below stands
        elif answered == "truco" and action == "accept":
            last = step
    return last


def log_lines(history: Sequence, ladder: Sequence[int], words: Words) -> list[dict[str, Any]]:
    """A hand's actions in the players' words: {seat, text, card}. A raise is named by its step, an
    answer by what it answered (a truco, an envido, or the hand of eleven)."""
    out = []
    for seat, action, answered, step in walk(history):
        verb = action.split(" ")[0]
        card = None
        if verb == "truco":
            text = f"{raise_name(words, step)} ({ladder[min(step, len(ladder) - 1)]})"
        elif verb in ENVIDO_CALLS:
            text = ENVIDO_NAMES[verb]
        elif answered == "envido":
            text = ARGENTINE.accept if verb == "accept" else ARGENTINE.refuse
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
