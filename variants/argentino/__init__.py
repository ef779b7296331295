"""Truco Argentino (RULES.md section 4, seed 002): Spanish deck, parda rules, truco / retruco /
vale cuatro, envido / real envido / falta envido, optional flor, folding (irse al mazo).

How the turns go where RULES.md leaves it open (and what the engine's records rely on):

- **Envido** may be called by the seat to act, during the first trick, before it has played a card
  and before any truco was accepted: on its turn, or as its answer to a truco (the truco waits:
  "envido goes first"). One envido chain per hand. Each call or raise is answered by the opponent
  who plays next after the caller (phase `envido`); once it is settled, the seat that was to act
  when the chain began goes on, and a truco that waited must still be answered.
- **Flor** (option `flor`): a seat holding three cards of one suit must declare it (`flor`, its only
  legal action) the first time it is to act; it then goes on with its turn. Once a flor is
  declared nobody may call envido. An envido called before some flor holder had a turn is void:
  those flors are declared at once (singing flor is compulsory) and nobody scores the envido.
  Declared flors are scored when the first trick ends, or before the hand's points if the hand
  ends sooner.
- **Fold** (option `mazo`): on one's turn, the opponents score the hand's current value; folding in
  the first trick while the envido is still open (not called, no flor, no truco accepted) gives
  them one more point, for the envido the folding team avoided (the common Argentine rule).
- Envido and flor points are scored as soon as they are settled; if they win the game, it ends
  there and the tricks do not count.

Observations (`extra`): `envido_calls`, `envido_status` (pending, accepted, refused, void) and, while
pending, `envido_bettor`; `revealed` holds only what the rules show: the declared flor seats, the
winner and points of an accepted envido, the winner and points of a contested flor.
"""

from __future__ import annotations

from types import MappingProxyType

from engine.hookspecs import hookimpl
from engine.observation import NOTHING
from engine.options import Option, OptionSchema
from engine.ranking import fixed_table
from engine.rules import TrucoRules
from engine.state import ANSWER, PLAY, GameState
from engine.table_words import Words
from engine.variant import Variant

from .envido import (
    ENVIDO_BETS,
    ENVIDO_CALLS,
    FLOR_VALUE,
    accepted_value,
    best_seat,
    envido_points,
    falta_value,
    flor_points,
    has_flor,
    raises_after,
    refused_value,
)

ENVIDO_PHASE = "envido"  # an envido call waits for accept, refuse or a higher call

# Strongest first; cards in one group tie (parda between teams).
STRENGTH_ORDER = [
    ["1e"],
    ["1b"],
    ["7e"],
    ["7o"],
    ["3e", "3b", "3o", "3c"],
    ["2e", "2b", "2o", "2c"],
    ["1o", "1c"],
    ["12e", "12b", "12o", "12c"],
    ["11e", "11b", "11o", "11c"],
    ["10e", "10b", "10o", "10c"],
    ["7b", "7c"],
    ["6e", "6b", "6o", "6c"],
    ["5e", "5b", "5o", "5c"],
    ["4e", "4b", "4o", "4c"],
]
STRENGTH = fixed_table(STRENGTH_ORDER)

ARGENTINO_OPTIONS = (
    Option(
        "target",
        "int",
        30,
        "points that win the game: 30 (15 malas, then 15 buenas) or 15",
        choices=(30, 15),
    ),
    Option(
        "flor",
        "bool",
        False,
        "three cards of one suit are a flor: declared before one's first card, 3 points for each "
        "flor of the team with the best one, and no envido in that hand",
    ),
    Option(
        "mazo",
        "bool",
        True,
        "a player may fold on their turn: the opponents score the hand's value, plus 1 for the "
        "envido if it was still open in the first trick",
    ),
    Option(
        "falta_envido",
        "choice",
        "leader_lacks",
        "falta envido is worth what the leading team lacks to reach the target (leader_lacks), or "
        "wins the game while the leader is in the malas of a game to 30 (game_in_malas)",
        ("leader_lacks", "game_in_malas"),
    ),
)

PRESETS = {
    "argentino-15": {"target": 15},
    "argentino-flor": {"flor": True},
}


class ArgentinoState(GameState):
    __slots__ = (
        "envido_calls",  # this hand's envido chain, e.g. ("envido", "real_envido")
        "envido_status",  # None, "pending", "accepted", "refused" or "void" (cancelled by a flor)
        "envido_bettor",  # the seat that made the last call of the chain
        "envido_resume",  # (phase, seat) when the chain began: where the game goes on afterwards
        "envido_shown",  # (seat, points) of an accepted envido's winner
        "flor_holders",  # seats dealt a flor (hidden: only the rules read it), with flor on
        "flors",  # seats that declared a flor, in order
        "flor_settled",  # the declared flors have been scored
        "flor_shown",  # (seat, points) of the best flor when both teams declared one
        "public",  # the observation's `extra`, rebuilt only when an envido or flor fact changes
    )


class ArgentinoRules(TrucoRules):
    uses_vira = False
    hand_of_n = False
    default_ladder = (1, 2, 3, 4)
    deck_name = "spanish40"
    state_class = ArgentinoState

    def __init__(self, variant_name, options):
        super().__init__(variant_name, options)
        self.all_tied = "mano_team"  # three pardas: the mano's team wins
        self.flor = options.get("flor", False)
        self.mazo = options.get("mazo", True)
        self.falta_rule = options.get("falta_envido", "leader_lacks")
        for call in ENVIDO_CALLS:
            self.handlers[call] = self.on_envido
        self.handlers["flor"] = self.on_flor
        self.handlers["fold"] = self.on_fold

    def strength_table(self, vira):
        return STRENGTH

    # --- hands ----------------------------------------------------------------------------
    def start_hand(self, s: ArgentinoState) -> None:
        super().start_hand(s)
        s.envido_calls = ()
        s.envido_status = None
        s.envido_bettor = None
        s.envido_resume = None
        s.envido_shown = None
        s.flors = ()
        s.flor_settled = False
        s.flor_shown = None
        s.public = NOTHING
        if self.flor and s.dealt:
            s.flor_holders = tuple(seat for seat, cards in enumerate(s.dealt) if has_flor(cards))
        else:
            s.flor_holders = ()

    # --- legal actions --------------------------------------------------------------------
    def must_declare_flor(self, s: ArgentinoState, seat: int) -> bool:
        return bool(s.flor_holders) and seat in s.flor_holders and seat not in s.flors

    def may_call_envido(self, s: ArgentinoState, seat: int) -> bool:
        """First trick, before the caller's first card, before any truco was accepted, once per
        hand, and never once a flor has been declared."""
        return (
            s.trick_no == 0
            and s.level == 0
            and not s.envido_calls
            and not s.flors
            and None not in s.hands[seat]
        )

    def legal_play(self, s: ArgentinoState) -> list[str]:
        seat = s.to_act
        if s.flor_holders and self.must_declare_flor(s, seat):
            return ["flor"]
        play = self.play_actions
        actions = [play[c] for c in s.hands[seat] if c is not None]
        if self.may_call_truco(s, seat):
            actions.append("truco")
        if self.mazo:
            actions.append("fold")
        if self.may_call_envido(s, seat):
            actions.extend(ENVIDO_CALLS)
        return actions

    def legal_answer(self, s: ArgentinoState) -> list[str]:
        seat = s.to_act
        if s.flor_holders and self.must_declare_flor(s, seat):
            return ["flor"]
        actions = super().legal_answer(s)
        if self.may_call_envido(s, seat):
            actions.extend(ENVIDO_CALLS)
        return actions

    def legal_other(self, s: ArgentinoState) -> list[str]:
        if s.phase == ENVIDO_PHASE:
            return ["accept", "refuse", *raises_after(s.envido_calls)]
        return []

    def why_illegal(self, s: ArgentinoState, action: object) -> str:
        if s.phase in (PLAY, ANSWER, ENVIDO_PHASE):
            seat = s.to_act
            if self.must_declare_flor(s, seat):
                return f"seat {seat} holds a flor and must declare it first"
            if action in ENVIDO_CALLS:
                if s.phase == ENVIDO_PHASE:
                    return "that call cannot follow " + " ".join(s.envido_calls)
                if s.envido_calls:
                    return "the envido was already called in this hand"
                if s.flors:
                    return "there is no envido in a hand where a flor was declared"
                return (
                    "envido may be called only in the first trick, before the caller has played "
                    "a card and before a truco is accepted"
                )
            if action == "fold":
                if not self.mazo:
                    return "folding is off at this table (option mazo)"
                return "a player may fold only on their turn to play"
            if action == "flor":
                if not self.flor:
                    return "flor is off at this table (option flor)"
                return "only a seat dealt three cards of one suit declares a flor, once"
        return super().why_illegal(s, action)

    # --- envido ---------------------------------------------------------------------------
    def on_envido(self, s: ArgentinoState, seat: int, action: str) -> None:
        s.envido_calls = s.envido_calls + (action,)
        if s.phase != ENVIDO_PHASE:
            undeclared = tuple(x for x in s.flor_holders if x not in s.flors)
            if undeclared:
                # A flor holder would interrupt the call: the flor is declared and the envido
                # is off. The caller goes on with its turn (or its answer to a truco).
                s.flors = s.flors + undeclared
                s.envido_status = "void"
                self.publish(s)
                return
            s.envido_resume = (s.phase, seat)
            s.phase = ENVIDO_PHASE
        s.envido_status = "pending"
        s.envido_bettor = seat
        s.to_act = (seat + 1) % s.players  # the opponent who plays next after the caller
        self.publish(s)

    def accept_envido(self, s: ArgentinoState) -> None:
        points = {seat: envido_points(cards) for seat, cards in enumerate(s.dealt)}
        winner = best_seat(points, s.mano, s.players)
        team = winner & 1
        falta = falta_value(s.score, team, self.target, self.falta_rule)
        s.envido_status = "accepted"
        s.envido_shown = (winner, points[winner])
        self.finish_envido(s, team, accepted_value(s.envido_calls, falta))

    def refuse_envido(self, s: ArgentinoState) -> None:
        s.envido_status = "refused"
        self.finish_envido(s, s.envido_bettor & 1, refused_value(s.envido_calls))

    def finish_envido(self, s: ArgentinoState, team: int, points: int) -> None:
        s.envido_bettor = None
        self.publish(s)
        if self.award(s, team, points):
            self.close_hand(s)  # envido points that win the game end it before any trick
            return
        s.phase, s.to_act = s.envido_resume

    def on_accept(self, s: ArgentinoState, seat: int, action: str) -> None:
        if s.phase == ENVIDO_PHASE:
            self.accept_envido(s)
        else:
            super().on_accept(s, seat, action)

    def on_refuse(self, s: ArgentinoState, seat: int, action: str) -> None:
        if s.phase == ENVIDO_PHASE:
            self.refuse_envido(s)
        else:
            super().on_refuse(s, seat, action)

    # --- flor -----------------------------------------------------------------------------
    def on_flor(self, s: ArgentinoState, seat: int, action: str) -> None:
        s.flors = s.flors + (seat,)
        self.publish(s)

    def settle_flor(self, s: ArgentinoState) -> bool:
        """Score the declared flors: the team of the best one scores 3 for each flor it holds.
        True when that wins the game."""
        s.flor_settled = True
        points = {seat: flor_points(s.dealt[seat]) for seat in s.flors}
        best = best_seat(points, s.mano, s.players)
        team = best & 1
        if any((seat & 1) != team for seat in s.flors):
            s.flor_shown = (best, points[best])  # contested: the winning flor is shown
            self.publish(s)
        held = sum(1 for seat in s.flors if (seat & 1) == team)
        return self.award(s, team, FLOR_VALUE * held)

    def after_trick(self, s: ArgentinoState, winner: int, result: int) -> None:
        if s.trick_no == 0 and s.flors and not s.flor_settled and self.settle_flor(s):
            self.close_hand(s)
            return
        super().after_trick(s, winner, result)

    def end_hand(self, s: ArgentinoState, team: int, points: int) -> None:
        if s.flors and not s.flor_settled and self.settle_flor(s):
            self.close_hand(s)  # the flor won the game: the hand's points do not count
            return
        super().end_hand(s, team, points)

    # --- folding --------------------------------------------------------------------------
    def on_fold(self, s: ArgentinoState, seat: int, action: str) -> None:
        points = s.stake
        if s.trick_no == 0 and s.level == 0 and not s.envido_calls and not s.flors:
            points += 1  # the envido the folding team avoided
        self.end_hand(s, 1 - (seat & 1), points)

    # --- observations ---------------------------------------------------------------------
    def publish(self, s: ArgentinoState) -> None:
        """Rebuild the public envido and flor facts that observations carry in `extra`."""
        info: dict = {}
        if s.envido_calls:
            info["envido_calls"] = s.envido_calls
            info["envido_status"] = s.envido_status
            if s.envido_status == "pending":
                info["envido_bettor"] = s.envido_bettor
        revealed: dict = {}
        if s.flors:
            revealed["flor"] = s.flors
        if s.envido_shown is not None:
            revealed["envido"] = MappingProxyType(
                {"seat": s.envido_shown[0], "points": s.envido_shown[1]}
            )
        if s.flor_shown is not None:
            revealed["best_flor"] = MappingProxyType(
                {"seat": s.flor_shown[0], "points": s.flor_shown[1]}
            )
        if revealed:
            info["revealed"] = MappingProxyType(revealed)
        s.public = MappingProxyType(info)

    def extra_observation(self, s: ArgentinoState, seat: int):
        return s.public

    def hand_summary(self, s: ArgentinoState):
        """The previous hand's public summary keeps its envido and flor facts: an envido settled
        just before a fold or a refused truco is otherwise seen only in the next deal."""
        summary = super().hand_summary(s)
        if s.public:
            return MappingProxyType({**summary, "extra": s.public})
        return summary

    def revealed_facts(self, s: ArgentinoState):
        return (s.flors, s.envido_shown, s.flor_shown)


class Argentino(Variant):
    name = "argentino"
    title = "Truco Argentino"
    summary = (
        "Spanish 40-card deck, 2 or 4 players. 1 of espadas, 1 of bastos, 7 of espadas, 7 of oros, "
        "then 3 2 1 12 11 10 7 6 5 4. Two tricks win the hand; with a parda (tie) the first team "
        "to win a trick wins, and three pardas go to the mano's team. A hand is worth 1; truco, "
        "retruco and vale cuatro raise it to 2, 3 and 4, and only the team that accepted last may "
        "raise. In the first trick, envido (2), real envido (3) and falta envido bet on the best "
        "two cards of a suit plus 20; ties go to the seat nearest the mano, and envido goes first "
        "over a pending truco. Optional flor: 3 per flor, no envido. Players may fold. Envido and "
        "flor score first and can end the game. First to 30 (or 15)."
    )
    players = (2, 4)
    schema = OptionSchema(ARGENTINO_OPTIONS, PRESETS)
    rules_class = ArgentinoRules
    words = Words(
        raises=("truco", "retruco", "vale cuatro"),
        accept="quiero",
        refuse="no quiero",
        side_bets={**ENVIDO_BETS.names, "flor": "flor"},
        fold="mazo",
    )
    side_bets = ENVIDO_BETS


@hookimpl
def truco_register_variants(register):
    register(Argentino())
