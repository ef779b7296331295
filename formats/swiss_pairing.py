"""Swiss pairing: a depth-first search over the standings that never repeats a pairing.

The best unpaired player takes the first allowed partner in order of preference, and the search
backtracks when the players left cannot all be paired. Preference follows the usual Swiss
shape: inside a score group the top half meets the bottom half in order (1st v (k/2+1)th, ...),
an odd player out floats down to the top of the next group. Because the search takes the most
preferred choice at every step, well-behaved fields (the common case) pair in a single descent,
which is what keeps 256 players fast.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .core import Entrant, FormatError

Pair = tuple[Entrant, Entrant]


def pair_players(
    ranked: Sequence[Entrant],
    score: Mapping[Entrant, float],
    opponents: Mapping[Entrant, set[Entrant]],
    byes: Mapping[Entrant, int],
) -> tuple[list[Pair], Entrant | None]:
    """Pairs (higher-ranked first, in table order) and the bye, if the count is odd.

    `ranked` is best first. The bye goes to the lowest-ranked player among those with the fewest
    byes so far for whom the rest can still be paired.
    """
    if len(ranked) % 2 == 0:
        pairs = _pair_even(list(ranked), score, opponents)
        if pairs is None:
            raise FormatError(_impossible(len(ranked)))
        return pairs, None

    bye_order = sorted(reversed(ranked), key=lambda p: byes.get(p, 0))  # stable: lowest first
    for bye in bye_order:
        pairs = _pair_even([p for p in ranked if p != bye], score, opponents)
        if pairs is not None:
            return pairs, bye
    raise FormatError(_impossible(len(ranked)))


def _impossible(n_players: int) -> str:
    return (
        f"no pairing of these {n_players} players avoids a rematch; "
        "the tournament has more rounds than this field can play without repeats"
    )


def _pair_even(
    players: list[Entrant],
    score: Mapping[Entrant, float],
    opponents: Mapping[Entrant, set[Entrant]],
) -> list[Pair] | None:
    most_met = max((len(opponents[p]) for p in players), default=0)
    # Sets of players already proven unpairable: reached again by another order of earlier
    # choices, they are skipped instead of searched again.
    dead_ends: set[frozenset[Entrant]] = set()

    def search(remaining: list[Entrant]) -> list[Pair] | None:
        if not remaining:
            return []
        remaining_set = frozenset(remaining)
        if remaining_set in dead_ends:
            return None
        # Only once few players are left can someone have met all of them already.
        if len(remaining) - 1 <= most_met and any(
            len(opponents[p] & remaining_set) == len(remaining) - 1 for p in remaining
        ):
            dead_ends.add(remaining_set)
            return None
        top, rest = remaining[0], remaining[1:]
        for partner in _preference(top, rest, score):
            if partner in opponents[top]:
                continue
            paired = search([p for p in rest if p != partner])
            if paired is not None:
                return [(top, partner), *paired]
        dead_ends.add(remaining_set)
        return None

    return search(players)


def _preference(top: Entrant, rest: list[Entrant], score: Mapping[Entrant, float]) -> list[Entrant]:
    """`rest` (ranked, all scoring at most `top`) in the order `top` should try them."""
    same = 0
    while same < len(rest) and score[rest[same]] == score[top]:
        same += 1
    group, lower = rest[:same], rest[same:]
    # With `top` first in a group of k, its ideal partner is the group's (k//2)th member.
    ideal = max((same + 1) // 2 - 1, 0)
    return [*group[ideal:], *reversed(group[:ideal]), *lower]
