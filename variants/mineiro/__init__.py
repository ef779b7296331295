"""Truco Mineiro (RULES.md section 2): fixed manilhas and no vira, stakes 2-4-8-12, the mão de dez,
the first-trick-tie showdown, and seed 002's (pagat's) variations as options and presets.

The showdown and the lots live in their own modules; this one holds the options, the card order,
the bets (`no_winning_raise`, `truco_on_trick`) and the variant that ties them together.
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

from engine.errors import OptionError
from engine.hookspecs import hookimpl
from engine.options import Option, OptionSchema
from engine.ranking import fixed_table
from engine.state import ANSWER, PLAY, TIE, GameState
from engine.table_words import BRAZILIAN, ExtraAction, Words, gettext_noop
from engine.variant import Variant
from variants.paulista import PAULISTA_OPTIONS

from .lots import LOT_SIZE, STOCK_LOTS, LotsRules
from .showdown import ShowdownRules

_PAULISTA = {option.name: option for option in PAULISTA_OPTIONS}

# Fixed manilhas, then the common ranks; outside the manilhas suits do not matter.
MINEIRO_STRENGTH = fixed_table(
    [
        ["4c"],  # zap
        ["7h"],  # copas
        ["As"],  # espadilha
        ["7d"],  # pica-fumo
        ["3c", "3h", "3s", "3d"],
        ["2c", "2h", "2s", "2d"],
        ["Ac", "Ah", "Ad"],
        ["Kc", "Kh", "Ks", "Kd"],
        ["Jc", "Jh", "Js", "Jd"],
        ["Qc", "Qh", "Qs", "Qd"],
        ["7c", "7s"],
        ["6c", "6h", "6s", "6d"],
        ["5c", "5h", "5s", "5d"],
        ["4h", "4s", "4d"],
    ]
)

MINEIRO_OPTIONS = (
    Option(
        "ladder",
        "ladder",
        (2, 4, 8, 12),
        "the hand's value, then truco, six, nine...; a team on target minus the hand's value "
        "plays the hand of ten for the second step or gives the first",
    ),
    Option(
        "first_tie_showdown",
        "bool",
        True,
        "after a tied first trick each player plays both cards, one up, one down: the up cards "
        "decide, then the down ones (in a hand of ten an up card not above its down card is "
        "worth nothing)",
    ),
    _PAULISTA["all_tied"],
    _PAULISTA["covered_cards"],
    Option(
        "truco_at_eleven",
        "choice",
        "illegal",
        "truco in a hand of ten or an iron hand: not allowed, or the caller's team loses the game",
        ("illegal", "loses_game"),
    ),
    _PAULISTA["iron_hand_blind"],
    Option(
        "no_winning_raise",
        "bool",
        False,
        "a team may not raise when accepting alone would already win it the game",
    ),
    Option(
        "truco_on_trick",
        "bool",
        False,
        "an accepted truco makes the current trick decide the hand; if it ties, the last bettors "
        "lose when a tying card was already on the table at their bet, else the next trick "
        "decides (a tie in the last trick scores nothing)",
    ),
    Option(
        "deal_lots",
        "bool",
        False,
        "before play the mão may keep its three cards, burn them face up for the next three, or "
        "pass them to its partner (4 players) for the next three, seeing at most four lots",
    ),
    _PAULISTA["target"],
)

PAGAT = {
    "ladder": [1, 3, 6, 9, 12],
    "first_tie_showdown": False,
    "covered_cards": True,
    "iron_hand_blind": True,
    "no_winning_raise": True,
    "truco_on_trick": False,
    "deal_lots": False,
}
MINEIRO_PRESETS = {
    # Seed 002 as pagat.com describes it, with its two table options off.
    "mineiro-pagat": PAGAT,
    # The same with both of seed 002's table options on.
    "mineiro-pagat-full": PAGAT | {"truco_on_trick": True, "deal_lots": True},
}


class MineiroState(GameState):
    __slots__ = (
        "burned",  # cards the mão burned face up this hand (deal_lots)
        "passed",  # the lot the mão passed to its partner this hand (deal_lots)
        # truco_on_trick: the current trick decides the hand; how many of its cards were on the
        # table at the last accepted bet (None: no trick decides, the usual rules apply)
        "decisive_since",
    )


class MineiroRules(ShowdownRules, LotsRules):
    uses_vira = False
    default_ladder = (2, 4, 8, 12)
    state_class = MineiroState

    def __init__(self, variant_name, options):
        super().__init__(variant_name, options)
        if self.ladder[0] >= self.target:
            raise OptionError(
                f"the hand's value (ladder {list(self.ladder)}) must be below the target "
                f"{self.target}"
            )
        self.no_winning_raise: bool = options.get("no_winning_raise", False)
        self.truco_on_trick: bool = options.get("truco_on_trick", False)

    def strength_table(self, vira):
        return MINEIRO_STRENGTH

    def start_hand(self, s) -> None:
        s.decisive_since = None
        super().start_hand(s)

    # --- bets -----------------------------------------------------------------------------
    def may_raise_to(self, s, team: int, level: int) -> bool:
        # Accepting is worth the step below the raise: barred if that alone wins the game.
        return not self.no_winning_raise or s.score[team] + self.ladder[level - 1] < self.target

    def on_accept(self, s, seat: int, action: str) -> None:
        in_trick = s.phase == ANSWER and s.resume_phase == PLAY
        super().on_accept(s, seat, action)
        if in_trick and self.truco_on_trick:
            s.decisive_since = len(s.trick)

    # --- deciding the hand ----------------------------------------------------------------
    def after_trick(self, s, winner: int, result: int) -> None:
        if s.decisive_since is not None:
            self.settle_decisive_trick(s, result)
        elif result == TIE and self.first_tie_showdown and len(s.results) == 1:
            self.start_showdown(s)
        else:
            super().after_trick(s, winner, result)

    def settle_decisive_trick(self, s, result: int) -> None:
        """truco_on_trick (seed 002): the trick that was bet on decides the hand."""
        if result != TIE:
            self.end_hand(s, result, s.stake)
            return
        strength = s.strength
        values = [-1 if covered else strength[card] for _, card, covered in s.tricks[-1]]
        top = max(values)
        index = len(s.results) - 1
        if top in values[: s.decisive_since]:
            # A tying card was already on the table when the last bet was made: the last
            # bettors lose, so the team that accepted it wins.
            self.end_hand(s, s.raise_holder, s.stake)
        elif index == 2:
            self.close_hand(s)  # a tie in the last trick scores nothing
        elif index == 0 and self.first_tie_showdown:
            s.decisive_since = None  # the showdown is the next trick, and it decides anyway
            self.start_showdown(s)
        else:
            s.decisive_since = 0  # the next trick decides, every card of it played after the bet
            s.trick_no += 1
            s.to_act = s.leader

    # --- observations ---------------------------------------------------------------------
    def extra_observation(self, s, seat: int):
        extra = super().extra_observation(s, seat)
        if s.decisive_since is None:
            return extra
        return MappingProxyType({**extra, "trick_decides_hand": True})


class Mineiro(Variant):
    name = "mineiro"
    title = "Truco Mineiro"
    summary = (
        "French deck of 40 cards, no vira: the manilhas are fixed, 4 of clubs (zap) > 7 of hearts "
        "> A of spades > 7 of diamonds, then 3 2 A K J Q 7 6 5 4. Best of three tricks; if the "
        "first ties, each player shows both remaining cards at once, one up and one down. A hand "
        "is worth 2; truco raises it to 4, 8 and 12. A team on 10 sees its partner's cards and "
        "plays for 4 or gives 2; both on 10 play the iron hand blind. First to 12 wins. The "
        "mineiro-pagat presets follow pagat.com: 1-3-6-9-12 and the hand of eleven."
    )
    players = (2, 4)
    schema = OptionSchema(MINEIRO_OPTIONS, MINEIRO_PRESETS)
    rules_class = MineiroRules
    words = Words(
        raises=("truco", "seis", "nove", "doze"),
        accept="aceito",
        refuse="corro",
        manilha="manilha",
        hand_of_n="mão de dez",
        extra_actions={
            "keep": ExtraAction(gettext_noop("keep these cards")),
            "burn": ExtraAction(
                gettext_noop("burn them"), gettext_noop("face up, for the next three")
            ),
            "pass": ExtraAction(
                gettext_noop("pass them"), gettext_noop("to your partner, for the next three")
            ),
        },
    )

    def words_for(self, rules) -> Words:
        if rules.threshold == 11:  # the pagat presets play the hand of eleven
            return replace(self.words, hand_of_n=BRAZILIAN.hand_of_n)
        return self.words

    def extra_cards(self, rules, players: int) -> int:
        return STOCK_LOTS * LOT_SIZE if rules.deal_lots else 0


@hookimpl
def truco_register_variants(register):
    register(Mineiro())
