"""The chance to win the game from a score: what a point is worth depends on the score (a point
that reaches the target is worth more than one at 0 to 0), so bots weigh bets and search leaves
by it rather than by raw points.

Computed once per rules object by dynamic programming over the scores, assuming evenly matched
teams and a spread of hand values over the first steps of the bet ladder; in a hand of eleven
(or ten) the team on the threshold sees its cards and plays them for the decided value only
when that is worth more to it than giving the others the refused value.
"""

from __future__ import annotations

from functools import lru_cache

from engine.rules import TrucoRules

# How often a hand ends at each step of the ladder between evenly matched players (a rough
# figure from bot play: most hands are not raised, few go past the first raise).
LADDER_SPREAD = (0.55, 0.32, 0.09, 0.03, 0.01)


@lru_cache(maxsize=64)
def _table(target: int, ladder: tuple[int, ...], threshold: int | None, decided: int, refused: int):
    steps = [(v, w) for v, w in zip(ladder, LADDER_SPREAD, strict=False)]
    total = sum(w for _, w in steps)
    steps = [(v, w / total) for v, w in steps]
    table = [[0.0] * (target + 1) for _ in range(target + 1)]
    for a in range(target + 1):
        table[target][a] = 1.0  # table[mine][theirs]
    for total_score in range(2 * target - 2, -1, -1):
        for a in range(max(0, total_score - target + 1), min(target - 1, total_score) + 1):
            b = total_score - a
            if b >= target:
                continue
            on_a = threshold is not None and a >= threshold
            on_b = threshold is not None and b >= threshold
            if on_a != on_b:  # the team on the threshold sees its cards, then plays or runs
                table[a][b] = _hand_of_n(table, target, a, b, on_a, decided, refused)
                continue
            hand = steps
            value = 0.0
            for points, weight in hand:
                value += weight * 0.5 * table[min(target, a + points)][b]
                value += weight * 0.5 * table[a][min(target, b + points)]
            table[a][b] = value
    return table


# The deciding team's chance to win a hand of eleven, spread evenly: it sees its cards first.
DECIDING_CHANCES = tuple((i + 0.5) / 20 for i in range(20))


def _hand_of_n(table, target, a, b, on_a, decided, refused) -> float:
    """My chance to win the game at a hand of eleven (or ten): the team on the threshold looks
    at its cards and plays (the hand worth `decided`) only when that is worth more to it than
    giving the others `refused`. Valued as a coin flip at the decided value, as before, it made
    the threshold worth far less than it is: the team there runs from its bad hands cheaply,
    and the other side cannot bet."""

    def at(mine, theirs):
        return table[min(target, mine)][min(target, theirs)]

    total = 0.0
    for p in DECIDING_CHANCES:
        if on_a:  # we decide: the better of playing and running
            play = p * at(a + decided, b) + (1 - p) * at(a, b + decided)
            total += max(play, at(a, b + refused))
        else:  # they decide, p their chance: the worse for us
            play = p * at(a, b + decided) + (1 - p) * at(a + decided, b)
            total += min(play, at(a + refused, b))
    return total / len(DECIDING_CHANCES)


def win_table(rules: TrucoRules) -> list[list[float]]:
    """`table[mine][theirs]`: my team's chance to win the game from that score (scores past the
    target count as the target)."""
    # Asked at nearly every decision of the search's walks: kept per rules object (which holds
    # a game's options for good), the lookup of its arguments skipped.
    table = _BY_RULES.get(rules)
    if table is None:
        threshold = rules.threshold if getattr(rules, "hand_of_n", False) else None
        table = _table(
            rules.target, tuple(rules.ladder), threshold, rules.decided_value, rules.refused_value
        )
        if len(_BY_RULES) >= 256:
            _BY_RULES.clear()
        _BY_RULES[rules] = table
    return table


_BY_RULES: dict[TrucoRules, list[list[float]]] = {}


def win_chance(table: list[list[float]], mine: int, theirs: int) -> float:
    top = len(table) - 1
    return table[min(top, mine)][min(top, theirs)]
