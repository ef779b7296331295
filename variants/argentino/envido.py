"""Envido and flor arithmetic of Truco Argentino (RULES.md section 4), apart from the game flow.

Cards are Spanish deck strings such as "7e" or "12c": rank then suit.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import DECKS

ENVIDO = "envido"
REAL_ENVIDO = "real_envido"
FALTA_ENVIDO = "falta_envido"
ENVIDO_CALLS = (ENVIDO, REAL_ENVIDO, FALTA_ENVIDO)
CALL_VALUE = {ENVIDO: 2, REAL_ENVIDO: 3}  # falta envido depends on the score
FLOR_VALUE = 3  # per flor the winning team holds
MALAS = 15  # in a game to 30, the first 15 points are the malas, the next 15 the buenas


def card_value(card: str) -> int:
    """A card's envido value: its rank, except 10, 11 and 12, which count 0."""
    rank = int(card[:-1])
    return rank if rank < 10 else 0


_VALUE = {card: card_value(card) for card in DECKS["spanish40"]}


def envido_points(cards: Sequence[str]) -> int:
    """The best two cards of one suit plus 20, or the single best card if no two share a suit."""
    a, b, c = cards
    va, vb, vc = _VALUE[a], _VALUE[b], _VALUE[c]
    sa, sb, sc = a[-1], b[-1], c[-1]
    best = 0  # a pair is worth at least 20, more than any single card
    if sa == sb:
        best = 20 + va + vb
    if sa == sc:
        best = max(best, 20 + va + vc)
    if sb == sc:
        best = max(best, 20 + vb + vc)
    return best or max(va, vb, vc)


def has_flor(cards: Sequence[str]) -> bool:
    """Three cards of one suit."""
    return cards[0][-1] == cards[1][-1] == cards[2][-1]


def flor_points(cards: Sequence[str]) -> int:
    """A flor is worth the sum of its three cards plus 20."""
    return 20 + sum(card_value(c) for c in cards)


def best_seat(points_by_seat: dict[int, int], mano: int, players: int) -> int:
    """The seat with the most points; a tie goes to the seat earliest in playing order from the
    mano (the mano wins every tie, the dealer loses them all)."""
    best = -1
    for i in range(players):
        seat = (mano + i) % players
        if seat in points_by_seat and (best < 0 or points_by_seat[seat] > points_by_seat[best]):
            best = seat
    return best


def falta_value(score: tuple[int, int], winner_team: int, target: int, rule: str) -> int:
    """What an accepted falta envido is worth to `winner_team`.

    `leader_lacks` (RULES.md 4, seed 002): what the leading team lacks to reach the target.
    `game_in_malas` (the common club rule): while the leading team is still in the malas of a game
    to 30, the falta envido is played for the game, so it is worth what the winner lacks;
    in the buenas it is what the leading team lacks.
    """
    leader = max(score)
    if rule == "game_in_malas" and target == 2 * MALAS and leader < MALAS:
        return target - score[winner_team]
    return target - leader


def accepted_value(calls: Sequence[str], falta: int) -> int:
    """An accepted chain is worth the sum of its calls; a falta envido replaces the sum."""
    if FALTA_ENVIDO in calls:
        return falta
    return sum(CALL_VALUE[c] for c in calls)


def refused_value(calls: Sequence[str]) -> int:
    """Refusing the last call gives its callers 1 if it was the first call, else the sum of the
    calls already accepted (raising accepts what came before)."""
    if len(calls) == 1:
        return 1
    return sum(CALL_VALUE[c] for c in calls[:-1])


def raises_after(calls: Sequence[str]) -> tuple[str, ...]:
    """The calls that may follow `calls` in the chain envido, envido, real envido, falta envido:
    envido at most twice, real envido once, falta envido last; never a step back down."""
    if not calls:
        return ENVIDO_CALLS
    if FALTA_ENVIDO in calls:
        return ()
    if REAL_ENVIDO in calls:
        return (FALTA_ENVIDO,)
    if len(calls) == 1:
        return ENVIDO_CALLS
    return (REAL_ENVIDO, FALTA_ENVIDO)


class EnvidoBets:
    """Argentino's side bets as the variant's API (engine/side_bets.py): what bots, the table
    and the story of a hand ask of the envido and the flor."""

    calls = ENVIDO_CALLS
    call_value = CALL_VALUE
    flor_action = "flor"
    flor_value = FLOR_VALUE
    names = {ENVIDO: "envido", REAL_ENVIDO: "real envido", FALTA_ENVIDO: "falta envido"}

    def points(self, cards: Sequence[str]) -> int:
        return envido_points(cards)

    def has_flor(self, cards: Sequence[str]) -> bool:
        return has_flor(cards)

    def flor_points(self, cards: Sequence[str]) -> int:
        return flor_points(cards)

    def value_if_accepted(
        self,
        calls: Sequence[str],
        score: Sequence[int],
        target: int,
        team: int,
        rule: str = "leader_lacks",
    ) -> int:
        return accepted_value(calls, falta_value(tuple(score), team, target, rule))

    def value_if_refused(self, calls: Sequence[str]) -> int:
        return refused_value(calls)

    def may_follow(self, calls: Sequence[str]) -> tuple[str, ...]:
        return raises_after(calls)


ENVIDO_BETS = EnvidoBets()
