"""What each legal bet and answer of the seat to act is worth, for its observation
(`Observation.bet_values`), so that a bot in any language need not re-implement the ladder or a
variant's side-bet arithmetic (Argentino's envido and falta envido).

By action, from the acting seat's team's point of view:

- a bet or a raise (`truco`; a side bet's calls, `envido`, `real_envido`, `falta_envido`):
  `won` what the team scores if it is accepted and the team wins it (the hand, or the side bet),
  `lost` what the opponents score if it is accepted and they win it, `refused` what the team
  scores at once if the opponents refuse it;
- `accept` (a pending bet, or playing a hand of eleven/ten): `won` and `lost`, as above;
- `refuse` (running from a bet or from a hand of eleven/ten): `conceded`, what the opponents
  score at once; so does a `truco` that loses the game (`truco_at_eleven = "loses_game"`).

Everything here is arithmetic on public facts (the score, the ladder, the calls so far): the
envido's points come from the variant's own API (engine/side_bets.py), never from a card.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from .errors import PluginError
from .observation import NOTHING
from .plugins import get_variant
from .state import ANSWER, DECIDE, NORMAL

# The public facts of a pending side bet in `extra` (docs/bot-protocol.md, Argentino's extra).
SIDE_CALLS = "envido_calls"
SIDE_STATUS = "envido_status"
FALTA_RULE_OPTION = "falta_envido"


def side_bets_of(rules) -> Any:
    """The variant's side bets (engine/side_bets.py), or None; looked up once per rules."""
    try:
        return rules._side_bets
    except AttributeError:
        pass
    try:
        found = get_variant(rules.variant_name).side_bets
    except PluginError:  # rules of a variant this process has not registered
        found = None
    rules._side_bets = found
    return found


class BetValues(Mapping):
    """The observation's `bet_values`, worked out on first reading: observations are built at
    every decision and most bots never look (the encoder and `to_dict` read it as a mapping).
    Made by `lazy_bet_values`, for the seat to act of a state."""

    __slots__ = ("_of", "_values")

    def _get(self) -> Mapping[str, Mapping[str, int]]:
        try:
            return self._values
        except AttributeError:
            rules, s, seat = self._of
            legal = s.legal_actions()
            values = self._values = bet_values(
                rules, s, seat, legal, rules.extra_observation(s, seat)
            )
            del self._of
            return values

    def __getitem__(self, action: str) -> Mapping[str, int]:
        return self._get()[action]

    def __iter__(self):
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())

    def __repr__(self) -> str:
        return repr(dict(self._get()))

    def __reduce__(self):  # pickled as the plain mapping it stands for
        return (dict, ({action: dict(value) for action, value in self._get().items()},))


_new = BetValues.__new__


def lazy_bet_values(rules, s, seat: int) -> BetValues:
    """`bet_values` of the seat to act, when first read (this is called at every decision: a
    fraction of a microsecond, where working them out costs a few)."""
    made = _new(BetValues)
    made._of = (rules, s, seat)
    return made


def bet_values(
    rules, s, seat: int, legal: tuple[str, ...], extra: Mapping[str, Any]
) -> Mapping[str, Mapping[str, int]]:
    if not legal:
        return NOTHING
    phase = s.phase
    if phase == DECIDE:
        return MappingProxyType(
            {
                "accept": {"won": rules.decided_value, "lost": rules.decided_value},
                "refuse": {"conceded": rules.refused_value},
            }
        )
    values: dict[str, Mapping[str, int]] = {}
    team = seat & 1
    ladder = rules.ladder
    if "truco" in legal:
        if s.kind != NORMAL:  # truco at eleven loses the game: the opponents get what they lack
            values["truco"] = {"conceded": max(0, rules.target - s.score[1 - team])}
        elif phase == ANSWER:  # raising accepts the pending bet first
            value = ladder[s.pending + 1]
            values["truco"] = {"won": value, "lost": value, "refused": ladder[s.pending]}
        else:
            value = ladder[s.level + 1]
            values["truco"] = {"won": value, "lost": value, "refused": s.stake}
    if phase == ANSWER and "accept" in legal:
        value = ladder[s.pending]
        values["accept"] = {"won": value, "lost": value}
        values["refuse"] = {"conceded": s.stake}
    side = side_bets_of(rules)
    if side is not None:
        _side_bet_values(values, side, rules, s, team, legal, extra)
    return MappingProxyType(values) if values else NOTHING


def _side_bet_values(values, side, rules, s, team, legal, extra) -> None:
    pending = extra.get(SIDE_STATUS) == "pending"
    made = tuple(extra.get(SIDE_CALLS, ())) if pending else ()
    rule = rules.options.get(FALTA_RULE_OPTION, "leader_lacks")
    score, target = s.score, rules.target

    def accepted(chain) -> dict[str, int]:
        return {
            "won": side.value_if_accepted(chain, score, target, team, rule),
            "lost": side.value_if_accepted(chain, score, target, 1 - team, rule),
        }

    for call in side.calls:
        if call in legal:
            chain = (*made, call)
            values[call] = {**accepted(chain), "refused": side.value_if_refused(chain)}
    if pending and made and "accept" in legal:
        values["accept"] = accepted(made)
        values["refuse"] = {"conceded": side.value_if_refused(made)}
