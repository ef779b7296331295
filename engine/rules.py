"""The rules machinery shared by every Truco variant: hands, tricks, ties, the bet ladder, the hand
of eleven (or ten) and the iron hand. A variant configures it with its options and overrides the
few methods where its rules differ (card strengths, tie handling, extra phases, extra bets).

Every method that changes a state works on a fresh open copy made by `apply` (see frozen.py) and
is never called on a state that someone else holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from .bet_values import lazy_bet_values
from .cards import DECKS
from .deals import Deal
from .errors import IllegalAction, RecordError
from .observation import NOTHING, Observation
from .state import (
    ANSWER,
    DEAL,
    DECIDE,
    ELEVEN,
    IRON,
    NORMAL,
    OVER,
    PLAY,
    TIE,
    GameState,
)

ALL_TIED = 2  # hand outcome: every trick tied
_new_observation = tuple.__new__
SLOT_ACTIONS = ("play #0", "play #1", "play #2")
SLOT_NAMES = ("#0", "#1", "#2")


def trick_winner(plays, strength) -> tuple[int, int]:
    """(winning seat, winning team or TIE). A covered card is worth less than any card; equal top
    cards of partners win for their team, the first of them played counting as the winner."""
    best = -2
    winner = -1
    teams = 0
    for seat, card, covered in plays:
        value = -1 if covered else strength[card]
        if value > best:
            best = value
            winner = seat
            teams = 1 << (seat & 1)
        elif value == best:
            teams |= 1 << (seat & 1)
    return winner, (TIE if teams == 3 else winner & 1)


class TrucoRules:
    """Configured once per (variant, options) and shared by every game with those options."""

    uses_vira = True
    hand_of_n = True  # the hand of eleven / ten and the iron hand exist
    default_ladder: tuple[int, ...] = (1, 3, 6, 9, 12)
    deck_name = "french40"
    # Variants with per-hand facts of their own subclass GameState with more slots.
    state_class: type[GameState] = GameState

    def __init__(self, variant_name: str, options: Mapping[str, Any]):
        self.variant_name = variant_name
        self.options = options
        self.target: int = options.get("target", 12)
        self.ladder: tuple[int, ...] = tuple(options.get("ladder", self.default_ladder))
        self.covered_cards: bool = options.get("covered_cards", False)
        self.all_tied: str = options.get("all_tied", "no_points")
        self.truco_at_eleven: str = options.get("truco_at_eleven", "illegal")
        self.iron_hand_blind: bool = options.get("iron_hand_blind", False)
        # A hand of eleven is the score from which the base hand value wins; deciding to play it
        # makes it worth the first bet, and running gives the base value (Paulista 11: 3 or 1;
        # Mineiro 10: 4 or 2).
        self.threshold = self.target - self.ladder[0]
        self.decided_value = self.ladder[1]
        self.refused_value = self.ladder[0]
        self.deck: tuple[str, ...] = DECKS[self.deck_name]
        self.play_actions = {c: "play " + c for c in self.deck}
        self.cover_actions = {c: "cover " + c for c in self.deck}
        self.handlers = {
            "play": self.on_play,
            "cover": self.on_cover,
            "truco": self.on_truco,
            "accept": self.on_accept,
            "refuse": self.on_refuse,
        }
        self.handler_of: dict[str, Any] = {}  # action string -> handler, filled as actions are seen
        self._trick_winners: tuple[tuple, tuple[int, ...]] = ((), ())  # see trick_winners

    # --- card strength --------------------------------------------------------------------
    def strength_table(self, vira: str | None) -> dict[str, int]:
        raise NotImplementedError

    # --- starting games and hands ---------------------------------------------------------
    def new_state(self, players: int, deals, first_dealer: int, start_score=(0, 0)) -> GameState:
        s = self.state_class._blank()
        s.rules = self
        s.deals = deals
        s.players = players
        s.first_dealer = first_dealer
        s.score = (int(start_score[0]), int(start_score[1]))
        s.hand_no = 0
        s.hand_points = ()
        s.winner = None
        s.previous_hand = NOTHING
        self.start_hand(s)
        return s._freeze()

    def start_hand(self, s: GameState) -> None:
        n = s.players
        s._legal = None
        s.dealer = (s.first_dealer + s.hand_no) % n
        s.mano = (s.dealer + 1) % n
        s.points = (0, 0)
        s.kind = NORMAL
        s.blind = False
        s.deciding_team = None
        s.trick_no = 0
        s.leader = s.mano
        s.trick = ()
        s.tricks = ()
        s.results = ()
        s.level = 0
        s.stake = self.ladder[0]
        s.pending = None
        s.bettor = None
        s.turn_seat = None
        s.resume_phase = PLAY
        s.raise_holder = None
        s.log = ()
        s.covered = ()
        deal = s.deals.deal(s.hand_no)
        if deal is None:
            s.phase = DEAL
            s.to_act = s.mano
            s.hands = s.dealt = ()
            s.vira = None
            s.extra_cards = ()
            s.strength = {}
            return
        s.hands = s.dealt = deal.hands
        s.vira = deal.vira
        s.extra_cards = deal.extra
        s.strength = self.strength_table(deal.vira)
        s.phase = PLAY
        s.to_act = s.mano
        if self.hand_of_n:
            self.start_hand_of_n(s)

    def start_hand_of_n(self, s: GameState) -> None:
        on0 = s.score[0] >= self.threshold
        on1 = s.score[1] >= self.threshold
        if on0 and on1:
            s.kind = IRON
            s.blind = self.iron_hand_blind
        elif on0 or on1:
            s.kind = ELEVEN
            team = 0 if on0 else 1
            s.deciding_team = team
            s.phase = DECIDE
            # The decision is taken by the team's seat nearest the mão.
            s.to_act = s.mano if (s.mano & 1) == team else (s.mano + 1) % s.players

    # --- legal actions --------------------------------------------------------------------
    def legal_actions(self, s: GameState) -> tuple[str, ...]:
        phase = s.phase
        if phase == PLAY:
            actions = self.legal_play(s)
        elif phase == ANSWER:
            actions = self.legal_answer(s)
        elif phase == DECIDE:
            return ("accept", "refuse")
        else:
            actions = self.legal_other(s)
        actions.sort()
        return tuple(actions)

    def legal_play(self, s: GameState) -> list[str]:
        seat = s.to_act
        hand = s.hands[seat]
        if s.blind:
            actions = [SLOT_ACTIONS[i] for i in range(3) if hand[i] is not None]
        else:
            play = self.play_actions
            actions = [play[c] for c in hand if c is not None]
            if self.covered_cards and s.trick_no > 0:
                cover = self.cover_actions
                actions += [cover[c] for c in hand if c is not None]
        if self.may_call_truco(s, seat):
            actions.append("truco")
        return actions

    def legal_answer(self, s: GameState) -> list[str]:
        actions = ["accept", "refuse"]
        nxt = s.pending + 1
        if nxt < len(self.ladder) and self.may_raise_to(s, s.to_act & 1, nxt):
            actions.append("truco")
        return actions

    def legal_other(self, s: GameState) -> list[str]:
        """Legal actions of phases a variant adds; none by default (DEAL, OVER)."""
        return []

    def may_call_truco(self, s: GameState, seat: int) -> bool:
        """On one's own turn: the team may raise (nobody raised yet, or it accepted the last
        bet), the ladder has a next step, and the hand is not one where truco is barred."""
        team = seat & 1
        if s.raise_holder is not None and s.raise_holder != team:
            return False
        if s.kind != NORMAL:
            return self.truco_at_eleven == "loses_game"
        nxt = s.level + 1
        return nxt < len(self.ladder) and self.may_raise_to(s, team, nxt)

    def may_raise_to(self, s: GameState, team: int, level: int) -> bool:
        """A hook for variants that bar some raises (Mineiro pagat)."""
        return True

    # --- applying actions -----------------------------------------------------------------
    def apply(self, state: GameState, action: str) -> GameState:
        legal = state._legal
        if legal is None:
            legal = state.legal_actions()
        if action not in legal:
            raise IllegalAction(action, legal, self.why_illegal(state, action))
        s = state._thaw()
        s._legal = None
        seat = s.to_act
        s.log = s.log + ((seat, action),)
        handler = self.handler_of.get(action)
        if handler is None:
            space = action.find(" ")
            handler = self.handler_of[action] = self.handlers[
                action if space < 0 else action[:space]
            ]
        handler(s, seat, action)
        return s._freeze()

    def why_illegal(self, s: GameState, action: object) -> str:
        if s.phase == OVER:
            return "the game is over"
        if s.phase == DEAL:
            return "there are no cards for the next hand"
        if action == "truco" and s.kind != NORMAL:
            return "nobody may call truco in this hand"
        return f"seat {s.to_act} is to act in phase {s.phase}"

    def on_play(self, s: GameState, seat: int, action: str) -> None:
        hands = s.hands
        hand = hands[seat]
        if action[5] == "#":
            slot = int(action[6:])
            card = hand[slot]
        else:
            card = action[5:]
            slot = hand.index(card)
        s.hands = hands[:seat] + (hand[:slot] + (None,) + hand[slot + 1 :],) + hands[seat + 1 :]
        self.lay(s, seat, card, False)

    def on_cover(self, s: GameState, seat: int, action: str) -> None:
        card = action[6:]
        hands = s.hands
        hand = hands[seat]
        slot = hand.index(card)
        s.hands = hands[:seat] + (hand[:slot] + (None,) + hand[slot + 1 :],) + hands[seat + 1 :]
        # The trick and the log keep only what everyone sees; the card itself is remembered
        # apart, for its owner's eyes.
        s.covered = s.covered + ((seat, card),)
        s.log = s.log[:-1] + ((seat, "cover"),)
        self.lay(s, seat, None, True)

    def lay(self, s: GameState, seat: int, card: str, covered: bool) -> None:
        trick = s.trick + ((seat, card, covered),)
        if len(trick) < s.players:
            s.trick = trick
            s.to_act = (seat + 1) % s.players
        else:
            winner, result = trick_winner(trick, s.strength)
            s.tricks = s.tricks + (trick,)
            s.results = s.results + (result,)
            s.trick = ()
            self.after_trick(s, winner, result)

    def after_trick(self, s: GameState, winner: int, result: int) -> None:
        outcome = self.hand_outcome(s)
        if outcome is None:
            # The trick winner leads next; after a tie, whoever led the tied trick leads again.
            leader = s.leader if result == TIE else winner
            s.trick_no += 1
            s.leader = s.to_act = leader
        elif outcome == ALL_TIED:
            self.end_all_tied(s)
        else:
            self.end_hand(s, outcome, s.stake)

    def hand_outcome(self, s: GameState) -> int | None:
        """The team that won the hand, ALL_TIED, or None while it goes on. Two tricks win; once
        any trick is tied, the first team to have won a trick wins."""
        won0 = won1 = 0
        first = None
        tied = False
        for result in s.results:
            if result == TIE:
                tied = True
                continue
            if result:
                won1 += 1
            else:
                won0 += 1
            if first is None:
                first = result
        if won0 >= 2:
            return 0
        if won1 >= 2:
            return 1
        if tied and first is not None:
            return first
        if len(s.results) == 3:
            return ALL_TIED
        return None

    def end_all_tied(self, s: GameState) -> None:
        if s.kind == IRON:  # an all-tied iron hand is dealt again
            self.close_hand(s)
        elif self.all_tied == "dealer_team":
            self.end_hand(s, s.dealer & 1, s.stake)
        elif self.all_tied == "mano_team":
            self.end_hand(s, s.mano & 1, s.stake)
        else:
            self.close_hand(s)

    def on_truco(self, s: GameState, seat: int, action: str) -> None:
        team = seat & 1
        if s.kind != NORMAL:  # legal only with truco_at_eleven = loses_game
            self.lose_game(s, team)
            return
        if s.phase == ANSWER:
            # Raising accepts the pending bet first: refusing the raise gives the raiser that value.
            s.level = s.pending
            s.stake = self.ladder[s.level]
            s.pending += 1
        else:
            s.turn_seat = seat
            s.resume_phase = s.phase
            s.pending = s.level + 1
        s.bettor = seat
        s.phase = ANSWER
        # Answered by the opponent who plays next after the bettor.
        s.to_act = (seat + 1) % s.players

    def on_accept(self, s: GameState, seat: int, action: str) -> None:
        if s.phase == DECIDE:
            s.stake = self.decided_value
            s.level = 1
            s.phase = PLAY
            s.to_act = s.mano
            return
        s.level = s.pending
        s.stake = self.ladder[s.level]
        s.pending = None
        s.bettor = None
        s.raise_holder = seat & 1
        s.phase = s.resume_phase
        s.to_act = s.turn_seat

    def on_refuse(self, s: GameState, seat: int, action: str) -> None:
        if s.phase == DECIDE:
            self.end_hand(s, 1 - s.deciding_team, self.refused_value)
        else:
            # The bettors score what the hand was worth before the refused bet.
            self.end_hand(s, s.bettor & 1, s.stake)

    # --- scoring --------------------------------------------------------------------------
    def award(self, s: GameState, team: int, points: int) -> bool:
        """Score `points` for `team`; True when that wins the game."""
        if team:
            s.points = (s.points[0], s.points[1] + points)
            s.score = (s.score[0], s.score[1] + points)
        else:
            s.points = (s.points[0] + points, s.points[1])
            s.score = (s.score[0] + points, s.score[1])
        if s.score[team] >= self.target:
            s.winner = team
            return True
        return False

    def end_hand(self, s: GameState, team: int, points: int) -> None:
        self.award(s, team, points)
        self.close_hand(s)

    def close_hand(self, s: GameState) -> None:
        s.hand_points = s.hand_points + (s.points,)
        s.previous_hand = self.hand_summary(s)
        if s.winner is not None:
            s.phase = OVER
            s.to_act = -1
            return
        s.hand_no += 1
        self.start_hand(s)

    def lose_game(self, s: GameState, team: int) -> None:
        """`team` loses at once: the opponents are given what they lack to reach the target."""
        other = 1 - team
        self.award(s, other, max(0, self.target - s.score[other]))
        self.close_hand(s)

    # --- observations ---------------------------------------------------------------------
    def observation(self, s: GameState, seat: int) -> Observation:
        if s.phase == DEAL or s.phase == OVER and not s.hands:
            hand: tuple = ()
        elif s.blind:
            hand = tuple(SLOT_NAMES[i] for i, c in enumerate(s.hands[seat]) if c is not None)
        else:
            hand = s.hands[seat]
            if None in hand:
                hand = tuple(filter(None, hand))
        legal = (s._legal or s.legal_actions()) if seat == s.to_act else ()
        # tuple.__new__ skips the NamedTuple's generated __new__: observations are built at every
        # decision, and this is a fifth of their cost.
        return _new_observation(
            Observation,
            (
                self.variant_name,
                self.options,
                s.players,
                seat,
                s.score,
                self.target,
                s.hand_no,
                s.dealer,
                s.mano,
                s.phase,
                s.to_act,
                legal,
                hand,
                tuple(card for owner, card in s.covered if owner == seat) if s.covered else (),
                s.vira,
                s.kind,
                s.stake,
                None if s.pending is None else self.ladder[s.pending],
                s.bettor,
                s.raise_holder,
                s.tricks,
                s.results,
                s.trick,
                NOTHING if s.kind == NORMAL else self.partner_cards(s, seat),
                s.log,
                self.extra_observation(s, seat),
                s.winner,
                s.previous_hand,
                s.leader,
                self.trick_winners(s) if s.tricks else (),
                lazy_bet_values(self, s, seat) if legal else NOTHING,
            ),
        )

    def trick_winners(self, s: GameState) -> tuple[int, ...]:
        """Per completed trick of the hand, the seat that won it (-1 for a tie): the team alone
        (`results`) does not say which partner took it. The last answer is kept, since a hand's
        tricks are one tuple from one trick's end to the next."""
        tricks = s.tricks
        known, winners = self._trick_winners
        if known is tricks:
            return winners
        strength = s.strength
        winners = tuple(
            -1 if result == TIE else trick_winner(trick, strength)[0]
            for trick, result in zip(tricks, s.results, strict=False)
        )
        self._trick_winners = (tricks, winners)
        return winners

    def partner_cards(self, s: GameState, seat: int) -> Mapping[int, tuple[str, ...]]:
        """In a hand of eleven the team on it sees its partner's cards (never in an iron hand)."""
        if s.kind == ELEVEN and s.players == 4 and (seat & 1) == s.deciding_team:
            partner = (seat + 2) % 4
            return {partner: s.dealt[partner]}
        return NOTHING

    def extra_observation(self, s: GameState, seat: int) -> Mapping[str, Any]:
        return NOTHING

    def hand_summary(self, s: GameState) -> Mapping[str, Any]:
        """What everyone saw of the hand that just ended, kept for the next observations: the
        next hand is dealt within the action that ends this one, so without it nobody would
        ever see the last trick. Variants that reveal more at the end (a showdown) add it."""
        return MappingProxyType(
            {
                "hand_no": s.hand_no,
                "tricks": s.tricks + ((s.trick,) if s.trick else ()),
                "results": s.results,
                "points": s.points,
                "history": s.log,
            }
        )

    def public_cards(self, s: GameState) -> set[str]:
        """The cards of the current hand that every seat has seen: the vira and the cards played
        face up. Variants that show cards in other ways (a showdown) add them. The conformance
        suite swaps every other card a seat has not been shown and checks that its observation
        stays the same."""
        cards = {card for trick in s.tricks for _, card, covered in trick if not covered}
        cards.update(card for _, card, covered in s.trick if not covered)
        if s.vira is not None:
            cards.add(s.vira)
        return cards

    def revealed_facts(self, s: GameState) -> Any:
        """What the rules have announced in the current hand that depends on hidden cards
        (Argentino: the declared flors, an accepted envido's winning seat and points). The
        conformance suite counts a hidden-card swap that changes these as a different public
        game, not as a leak. None where nothing is announced."""
        return None

    # --- auto-play ------------------------------------------------------------------------
    def default_action(self, s: GameState) -> str:
        """What the game plays for a seat whose time ran out: run from a bet (it never risks
        more points), else the weakest card face up."""
        legal = s.legal_actions()
        if "refuse" in legal:
            return "refuse"
        plays = [a for a in legal if a.startswith("play ")]
        if not plays:
            return legal[0]
        if s.blind:
            return plays[0]
        return min(plays, key=lambda a: (s.strength[a[5:]], a))

    # --- records --------------------------------------------------------------------------
    def deal_to_record(self, deal: Deal) -> dict[str, Any]:
        out: dict[str, Any] = {"cards": [list(h) for h in deal.hands]}
        if self.uses_vira:
            out["vira"] = deal.vira
        return out

    def deal_from_record(self, hand: Mapping[str, Any], players: int, k: int) -> Deal:
        """The deal of hand `k` of a record; RecordError for missing, unknown or repeated cards."""
        cards = hand.get("cards")
        if not isinstance(cards, list) or len(cards) != players:
            raise RecordError(
                f"hand {k}: 'cards' must list the three cards of each of the {players} seats",
                hand=k,
            )
        seen: set[str] = set()
        hands = []
        for seat, held in enumerate(cards):
            if not isinstance(held, list) or len(held) != 3:
                raise RecordError(f"hand {k}: seat {seat} must hold exactly three cards", hand=k)
            hands.append(tuple(self.record_card(c, seen, k) for c in held))
        vira = None
        if self.uses_vira:
            if "vira" not in hand:
                raise RecordError(f"hand {k}: {self.variant_name} needs a 'vira'", hand=k)
            vira = self.record_card(hand["vira"], seen, k)
        elif hand.get("vira") is not None:
            raise RecordError(f"hand {k}: {self.variant_name} has no vira", hand=k)
        return Deal(tuple(hands), vira)

    def record_card(self, card: object, seen: set[str], k: int) -> str:
        if not isinstance(card, str) or card not in self.play_actions:
            raise RecordError(
                f"hand {k}: unknown card {card!r} for the {self.deck_name} deck", hand=k
            )
        if card in seen:
            raise RecordError(f"hand {k}: card {card} is dealt twice", hand=k)
        seen.add(card)
        return card
