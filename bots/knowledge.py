"""What a bot can work out from its observation and the public rules alone: how strong each card
is in this hand, the cards it has seen, and a rough chance to win the hand.

Everything here works for any variant built on `engine.rules.TrucoRules`: strengths come from
`rules.strength_table(vira)`, never from a table of a known variant.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from engine.cards import DECKS
from engine.observation import Observation
from engine.plugins import get_variant
from engine.rules import TrucoRules


def options_key(options: Mapping[str, Any]) -> tuple:
    return tuple(sorted(options.items()))


@lru_cache(maxsize=256)
def _rules(variant: str, key: tuple) -> TrucoRules:
    return get_variant(variant).rules(dict(key))


def rules_for(obs: Observation) -> TrucoRules:
    """The rules object of the observation's game (shared and cached by the variant)."""
    return _rules(obs.variant, options_key(obs.options))


_quality_cache: dict[tuple[int, str | None], dict[str, float]] = {}


def card_quality(rules: TrucoRules, vira: str | None) -> dict[str, float]:
    """Per card, the share of the other cards of the deck it beats, from 0 (weakest) to 1 (the
    best card): the chance it beats one card drawn at random."""
    key = (id(rules), vira)
    table = _quality_cache.get(key)
    if table is None:
        strength = rules.strength_table(vira)
        deck = [c for c in DECKS[rules.deck_name] if c != vira]
        values = sorted(strength[c] for c in deck)
        below: dict[int, int] = {}
        for i, v in enumerate(values):
            below.setdefault(v, i)
        top = max(1, len(deck) - 1)
        table = {c: below[strength[c]] / top for c in deck}
        if vira is not None:
            table[vira] = below.get(strength[vira], 0) / top
        _quality_cache[key] = table
    return table


@lru_cache(maxsize=8)
def deck_set(deck_name: str) -> frozenset[str]:
    return frozenset(DECKS[deck_name])


def card_tokens(value: Any, deck: frozenset[str], found: set[str] | None = None) -> set[str]:
    """Every card named anywhere in `value` (strings, action strings, nested tuples and maps)."""
    if found is None:
        found = set()
    if isinstance(value, str):
        if value in deck:
            found.add(value)
        elif " " in value:
            for token in value.split(" "):
                if token in deck:
                    found.add(token)
    elif isinstance(value, Mapping):
        for k, v in value.items():
            card_tokens(k, deck, found)
            card_tokens(v, deck, found)
    elif isinstance(value, (tuple, list, set, frozenset)):
        for v in value:
            card_tokens(v, deck, found)
    return found


def played_by(obs: Observation) -> dict[int, list[str]]:
    """The cards each seat has played face up this hand, in order."""
    out: dict[int, list[str]] = {}
    for trick in (*obs.tricks, obs.trick):
        for seat, card, _covered in trick:
            if card is not None:
                out.setdefault(seat, []).append(card)
    return out


def own_dealt(obs: Observation) -> list[str]:
    """This seat's cards of the hand that it can name: held, covered and played face up."""
    if obs.hand and obs.hand[0].startswith("#"):  # a blind hand: only the played ones are known
        return played_by(obs).get(obs.seat, [])
    return [*obs.hand, *obs.covered, *played_by(obs).get(obs.seat, [])]


def trick_standing(obs: Observation, strength: Mapping[str, int]) -> tuple[int, int]:
    """(best strength the opponents have on the current trick, best of my team), -1 for none;
    a covered card counts as nothing."""
    mine = obs.seat & 1
    opp = own = -1
    for seat, card, covered in obs.trick:
        if covered or card is None:
            continue
        value = strength[card]
        if seat & 1 == mine:
            own = max(own, value)
        else:
            opp = max(opp, value)
    return opp, own


def trick_win_chance(quality: float, players: int) -> float:
    """Chance that a card of this quality takes a trick against unknown cards: it must beat each
    opponent's card; in 2v2 the unknown partner card may take it instead."""
    if players <= 2:
        return quality
    mine = quality * quality
    return 1.0 - (1.0 - mine) * 0.75


def hand_win_chance(
    obs: Observation,
    quality: Mapping[str, float],
    strength: Mapping[str, int],
    cards: list[str],
    players: int | None = None,
) -> float:
    """A rough chance that this seat's team wins the hand's tricks, from the tricks already
    played, the cards on the table and the quality of `cards` (the cards still to play), treating
    tricks as independent. Good enough for thresholds; the search bot does better by sampling."""
    mine = obs.seat & 1
    won = lost = 0
    tied = False
    first: int | None = None
    for result in obs.results:
        if result == -1:
            tied = True
            continue
        if first is None:
            first = result
        if result == mine:
            won += 1
        else:
            lost += 1
    players = players or obs.players
    ordered = sorted(cards, key=lambda c: -quality.get(c, 0.5))
    chances = [trick_win_chance(quality.get(c, 0.5), players) for c in ordered]
    if obs.trick and ordered:
        # The current trick: the cards on the table are known, so the best card either beats
        # them (and must still beat those yet to play) or does not.
        opp, own = trick_standing(obs, strength)
        best = strength[ordered[0]]
        to_play = sum(1 for s in range(players) if s & 1 != mine) - sum(
            1 for s, _, _ in obs.trick if s & 1 != mine
        )
        if own > opp and own >= best:
            chances[0] = quality.get(ordered[0], 0.5) ** to_play if to_play else 1.0
            chances[0] = max(chances[0], 0.6)
        elif best > opp:
            chances[0] = quality.get(ordered[0], 0.5) ** to_play if to_play else 1.0
        else:
            chances[0] = 0.0
    elif obs.trick and not ordered:
        # Nothing left to play: the trick hangs on whether the cards still to come beat ours.
        opp, own = trick_standing(obs, strength)
        to_play = sum(1 for s in range(players) if s & 1 != mine) - sum(
            1 for s, _, _ in obs.trick if s & 1 != mine
        )
        if own <= opp:
            chances = [0.0]
        else:
            best_own = max(
                (quality.get(c, 0.5) for s, c, cov in obs.trick if s & 1 == mine and c and not cov),
                default=0.0,
            )
            chances = [best_own**to_play if to_play else 1.0]
    return _chance_from(won, lost, tied, first, mine, chances)


def _chance_from(won, lost, tied, first, mine, chances: list[float]) -> float:
    """The chance to win the hand when the remaining tricks are won with these chances in turn:
    two tricks win; after a tie, the first team to have won a trick wins."""
    if won >= 2:
        return 1.0
    if lost >= 2:
        return 0.0
    if tied and first is not None:
        return 1.0 if first == mine else 0.0
    if not chances:
        return 0.5
    p, rest = chances[0], chances[1:]
    if tied:  # the tie came first: the next trick won decides
        return p
    win = _chance_from(won + 1, lost, tied, mine if first is None else first, mine, rest)
    lose = _chance_from(won, lost + 1, tied, (1 - mine) if first is None else first, mine, rest)
    return p * win + (1 - p) * lose


def side_bet_points(obs: Observation, cards) -> int:
    """What `cards` are worth in the variant's side bet (Argentino's envido), asked of the
    variant's API (engine/side_bets.py); 0 in a variant without side bets."""
    side_bets = get_variant(obs.variant).side_bets
    return side_bets.points(cards) if side_bets is not None else 0
