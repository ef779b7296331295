"""What a bot learns about its opponents from the hands of this match (a bot with
`match_memory` keeps one `OpponentProfile` across the games of a match).

Only what everyone saw is counted (each hand's public `previous_hand`: its history and the
points each team scored), never a card of a deal, so the second game of a duplicate pair, which
repeats the deals, teaches nothing a person at the table would not know.

Every rate is a mean with a prior (a few imaginary hands at a typical value), so a bot starts from
ordinary play and moves away from it only as the evidence grows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.observation import Observation

BETS = ("truco",)
ENVIDO_CALLS = ("envido", "real_envido", "falta_envido")


@dataclass
class Rate:
    """A proportion with a prior: `prior` counted as `weight` observations."""

    prior: float
    weight: float
    hits: float = 0.0
    total: float = 0.0

    def add(self, hit: bool) -> None:
        self.total += 1
        self.hits += 1.0 if hit else 0.0

    @property
    def value(self) -> float:
        return (self.hits + self.prior * self.weight) / (self.total + self.weight)


@dataclass
class RaiseWar:
    """How the other team's raise wars fared (a raise over a truco, by either side): what it
    answers a raise of ours over its own truco, and whether its hands held once a war was on."""

    # When we raised a truco of theirs: how often they raised back.
    raise_back: Rate = field(default_factory=lambda: Rate(0.15, 4))
    # A hand with a raise over a truco, played out (no one ran): how often they won it.
    held: Rate = field(default_factory=lambda: Rate(0.6, 3))


@dataclass
class Calibration:
    """How our answers to one kind of bet of theirs fared: the chance we believed when we
    accepted, against how often we then won the hand. A model of the other side (the doubt a
    bet brings, the odds scaled by how often its bets held) can still be off for a side unlike
    the typical one (one that raises only sure hands wins far more of the raises we take than
    the model says); the ratio of the odds we saw to the odds we believed corrects it, the more
    hands there are, the more (`weight` hands of a correct model before any)."""

    weight: float = 4.0
    believed: float = 0.0  # the sum of the chances we believed
    won: float = 0.0
    total: float = 0.0

    def add(self, believed: float, won: bool) -> None:
        self.believed += believed
        self.won += 1.0 if won else 0.0
        self.total += 1

    def factor(self) -> float:
        """What to multiply the odds we believe by (1: the model has been right)."""
        if not self.total:
            return 1.0
        mean = min(0.95, max(0.05, self.believed / self.total))
        seen = (self.won + self.weight * mean) / (self.total + self.weight)
        seen = min(0.95, max(0.05, seen))
        return (seen / (1 - seen)) / (mean / (1 - mean))

    def apply(self, p: float) -> float:
        p = min(max(p, 0.0), 1.0)
        if p in (0.0, 1.0) or not self.total:
            return p
        odds = p / (1 - p) * self.factor()
        return odds / (1 + odds)


# Where our chance to take the hand (as `heuristic` reads its cards) is cut into bands, for
# `TrucoOutcomes`: a bluff, a poor hand, a fair one, a good one, a strong one.
TRUCO_BANDS = (0.35, 0.5, 0.65, 0.8)


def band_of(chance: float) -> int:
    return sum(1 for edge in TRUCO_BANDS if chance >= edge)


@dataclass
class TrucoBand:
    """Our trucos opened with a chance in one band: how many, how many they ran from, and of
    those they took (accepted or raised), how many we then won."""

    opened: int = 0
    refused: int = 0
    won: int = 0

    @property
    def taken(self) -> int:
        return self.opened - self.refused


class TrucoOutcomes:
    """What our opening trucos brought, by how good our cards were when we called: a side that
    answers by its own cards (takes a truco only with a good hand, raises later when it is sure)
    runs from most trucos but takes those made on poor cards more often, and wins nearly all it
    takes; the overall refusal rate hides that, and bluffs into such a side lose three points
    where staying quiet lost one."""

    def __init__(self):
        self.bands = [TrucoBand() for _ in range(len(TRUCO_BANDS) + 1)]
        self.noted: dict[object, int] = {}  # hand key -> band, hands not yet over

    def band(self, chance: float) -> TrucoBand:
        return self.bands[band_of(chance)]

    def note(self, key, chance: float) -> None:
        self.noted.setdefault(key, band_of(chance))

    def learn(self, key, history, points, my_team: int) -> None:
        band = self.noted.pop(key, None) if key is not None else None
        if key is None and self.noted:
            band = self.noted.pop(next(iter(self.noted)))
        if band is None:
            return
        first, answer = answer_to_our_first_truco(history, my_team)
        if first is None or any(a == "truco" for _s, a in history[:first]):
            return  # not an opening truco of ours after all
        if answer is None or points[0] == points[1] and answer != "refuse":
            return  # unanswered, or a hand all tied: it tells nothing
        entry = self.bands[band]
        entry.opened += 1
        if answer == "refuse":
            entry.refused += 1
        elif points[my_team] > points[1 - my_team]:
            entry.won += 1


class OpponentProfile:
    """The other team's tendencies, from the hands seen so far in the match."""

    def __init__(self):
        # How often they open a truco in a hand (a bot betting its good hands only: about 0.2).
        self.truco_rate = Rate(0.2, 10)
        # How often they refuse a truco of ours, and raise it.
        self.refuse_rate = Rate(0.5, 6)
        self.raise_rate = Rate(0.1, 6)
        # When we accepted a truco of theirs and the hand was played out: how often they won it.
        # Its prior weighs little: a side that bets only sure hands shows it within a game.
        self.called_win = Rate(0.65, 3)
        # When they raised a truco of ours and we accepted: how often they won it.
        self.raise_win = Rate(0.75, 3)
        # When they accepted a truco of ours and the hand was played out: how often they won it
        # (a side that takes only good hands makes every raise over its acceptance a loss).
        self.accepted_win = Rate(0.45, 3)
        # Their truco made facing a card of ours on the trick (they saw it before betting), when
        # we accepted: how often they won it. Few bots bet there on nothing; some do.
        self.late_win = Rate(0.8, 3)
        # When we raised a truco of theirs: how often they ran from the raise.
        self.reraise_fold = Rate(0.5, 4)
        # When they accepted a truco of ours, bet again at a later turn and we accepted: how
        # often they won (counted apart from `raise_win` and `late_win`).
        self.later_win = Rate(0.7, 3)
        # Their bet made facing the last card we had (nothing left for us to play: they knew
        # whether their card beats it), when we accepted: how often they won. A side that bets
        # there only on a sure win is never bluffing; a bluffer bets there on anything.
        self.final_win = Rate(0.85, 3)
        # When they took the first trick with no truco called yet: how often they called one in
        # the second. Written bots often call it there whatever they hold ("won the first
        # round: raise"): a bet they make nearly every time says nothing of their cards.
        self.truco_after_first = Rate(0.35, 4)
        # Their raise wars: raising back our raises, and whether their hands held in them.
        self.war = RaiseWar()
        # Argentino: how often they open an envido chain, and win one we accepted.
        self.envido_rate = Rate(0.3, 10)
        self.envido_win = Rate(0.6, 6)
        # Argentino: how often they refuse an envido chain we open (a raise is not a refusal).
        # A side that accepts only good points makes any envido of ours worth a point.
        self.envido_refuse = Rate(0.5, 6)
        # Our acceptances of their bets, by kind ("called", "raise", "late"): the chance we
        # believed against the hands' outcomes (`accepted` holds those of hands not yet over).
        self.answers: dict[str, Calibration] = {}
        self.accepted: list[tuple[object, str, float]] = []
        # ... and by the call that opened our chain (envido, real envido, falta envido): counts
        # only, the prior is the reader's (bots/envido_ev.py: a larger call is refused more).
        self.envido_refuse_by = {call: Rate(0.5, 0) for call in ENVIDO_CALLS}
        # Argentino: how often they take (accept or raise again) our raise over their own envido
        # call. A side that opened on its points refuses a raise only with its poorest hands.
        self.envido_raise_taken = Rate(0.8, 4)
        # How often they ran from our bluffs (a truco of ours on a weak hand), and the hands
        # where we bluffed, not yet over. (`heuristic` takes its prior from `refuse_rate`.)
        self.bluff_refuse = Rate(0.5, 6)
        self.bluffs: list = []
        # Our opening trucos by the chance our cards had: refused, taken and won.
        self.trucos = TrucoOutcomes()
        self.seen: set = set()

    def calibration(self, kind: str) -> Calibration:
        return self.answers.setdefault(kind, Calibration())

    def note_bluff(self, key) -> None:
        """We opened a truco on a weak hand (a bluff) in the hand `key` names."""
        self.bluffs.append(key)

    def note_accept(self, key, kind: str, believed: float) -> None:
        """We accepted a bet of theirs of this kind believing this chance to win the hand
        (`key` names the hand, as `learn`'s key does)."""
        self.accepted.append((key, kind, believed))

    def learn(self, my_team: int, hand: Mapping, key=None) -> None:
        """Count one finished hand (an observation's `previous_hand`); `key` tells a hand already
        counted (the game-end notice repeats the last one)."""
        history = hand.get("history") or ()
        if not history:
            return
        if key is not None:
            if key in self.seen:
                return
            self.seen.add(key)
        points = hand.get("points") or (0, 0)
        self.trucos.learn(key, history, points, my_team)
        theirs_scored = points[1 - my_team] > points[my_team]
        if self.bluffs:
            if key is None or key in self.bluffs:
                _first, answer = answer_to_our_first_truco(history, my_team)
                if answer is not None:
                    self.bluff_refuse.add(answer == "refuse")
            self.bluffs = []
        if self.accepted:
            decided = points[my_team] != points[1 - my_team]  # a hand all tied tells nothing
            for noted, kind, believed in self.accepted:
                if decided and (key is None or noted == key):
                    self.calibration(kind).add(believed, points[my_team] > points[1 - my_team])
            self.accepted = []
        ended_by_refusal = history[-1][1] in ("refuse", "fold")
        opened = opened_envido = we_opened_envido = False
        players = max(2, len({s for s, _ in history}))
        on_trick: list[int] = []  # the seats that have played to the current trick
        ours_played = 0  # cards our team has played this hand
        plays = 0  # cards played this hand, by anyone
        results = hand.get("results") or ()
        took_first = bool(results) and results[0] == 1 - my_team
        # Once they took the first trick with no bet made (not a hand of eleven): their first
        # decision of the second trick, a truco or not, is counted.
        second_trick_open = False
        for i, (seat, action) in enumerate(history):
            theirs = seat % 2 != my_team
            if second_trick_open and theirs:
                self.truco_after_first.add(action == "truco")
                second_trick_open = False
            if action.startswith(("play", "cover")):
                on_trick = [] if len(on_trick) >= players else on_trick
                on_trick.append(seat)
                ours_played += not theirs
                plays += 1
                if plays == players and took_first:
                    unbet = not any(a == "truco" for _s, a in history[: i + 1])
                    plain = history[0][1] not in ("accept", "refuse")  # no hand of eleven
                    second_trick_open = unbet and plain
            answer = _answer_after(history, i, seat)
            if action == "truco":
                if theirs and not opened:
                    opened = True
                if not theirs and answer is not None:
                    if answer == "accept" and not ended_by_refusal:
                        self.accepted_win.add(theirs_scored)
                    self.refuse_rate.add(answer == "refuse")
                    self.raise_rate.add(answer == "truco")
                    over_theirs = any(a == "truco" for s, a in history[:i] if s % 2 != my_team)
                    if over_theirs:
                        self.reraise_fold.add(answer == "refuse")
                        self.war.raise_back.add(answer == "truco")
                late = facing(on_trick, seat, my_team, players)
                final = late and ours_played >= 3 * (players // 2)  # our last cards are down
                later = theirs and taken_then_raised(history, i)
                if theirs and final:
                    if answer == "accept" and not ended_by_refusal:
                        self.final_win.add(theirs_scored)
                elif later and answer == "accept" and not ended_by_refusal:
                    self.later_win.add(theirs_scored)
                elif theirs and late and answer == "accept" and not later:
                    self.late_win.add(theirs_scored)
                if (
                    theirs
                    and answer == "accept"
                    and not ended_by_refusal
                    and not late
                    and not later
                ):
                    # their bet, called: did it hold? (a raise of theirs over ours counts apart)
                    raised_ours = i > 0 and any(
                        a == "truco" for s, a in history[:i] if s % 2 == my_team
                    )
                    (self.raise_win if raised_ours else self.called_win).add(theirs_scored)
            if action in ENVIDO_CALLS and not theirs and opened_envido:
                reply = _envido_reply(history, i, seat)
                if reply is not None:
                    self.envido_raise_taken.add(reply != "refuse")
            if action in ENVIDO_CALLS and not theirs and not (opened_envido or we_opened_envido):
                we_opened_envido = True
                reply = _envido_reply(history, i, seat)
                if reply is not None:
                    self.envido_refuse.add(reply == "refuse")
                    self.envido_refuse_by[action].add(reply == "refuse")
            if action in ENVIDO_CALLS and theirs and not opened_envido:
                opened_envido = True
                revealed = (hand.get("extra") or {}).get("revealed") or {}
                winner = (revealed.get("envido") or {}).get("seat")
                if winner is not None:
                    self.envido_win.add(winner % 2 != my_team)
        self.truco_rate.add(opened)
        if sum(1 for _s, a in history if a == "truco") >= 2 and not ended_by_refusal:
            self.war.held.add(theirs_scored)
        if "envido_calls" in (hand.get("extra") or {}):
            self.envido_rate.add(opened_envido)


def habitual_truco(profile: OpponentProfile, obs: Observation, bettor_team: int) -> float:
    """How little a truco of `bettor_team` says of its cards, 0 (as any bet) to 1 (nothing),
    when `obs` (anyone's view: that truco its last action, or about to be made) is at that
    team's first decision of the second trick after it took the first with no bet made: as far
    as `truco_after_first` shows it calls truco there nearly every time."""
    if len(obs.results) != 1 or obs.results[0] != bettor_team:
        return 0.0
    trucos = [seat for seat, action in obs.history if action == "truco"]
    if trucos and trucos[-1] % 2 == bettor_team and obs.history[-1][1] == "truco":
        trucos.pop()  # the one being answered
    if trucos:
        return 0.0  # a raise, not the bet of the habit
    if any(seat % 2 == bettor_team for seat, _card, _covered in obs.trick):
        return 0.0  # they had played to the trick already: not their first decision there
    return min(1.0, max(0.0, (profile.truco_after_first.value - 0.55) / 0.3))


def facing(on_trick: list[int], bettor: int, my_team: int, players: int) -> bool:
    """Whether a bet is made facing our cards: every seat of our team has played to the
    current trick and the bettor has not (it bets knowing the cards it must beat)."""
    if len(on_trick) >= players:  # the trick is complete: the next one has not begun
        return False
    ours = sum(1 for s in on_trick if s % 2 == my_team)
    return bettor not in on_trick and ours == players // 2


def taken_then_raised(history, i: int) -> bool:
    """Whether the truco at `history[i]` follows a truco of the other team that the bettor's
    team had accepted (a bet of a later turn, not a raise made at once)."""
    team = history[i][0] % 2
    for j in range(i - 1, -1, -1):
        seat, action = history[j]
        if action == "truco":
            return seat % 2 != team and any(
                a == "accept" and s % 2 == team for s, a in history[j + 1 : i]
            )
    return False


def answer_to_our_first_truco(history, my_team: int) -> tuple[int | None, str | None]:
    """Where in `history` our team's first truco of the hand is (None: it called none), and the
    other team's answer to it (None: none)."""
    first = next((i for i, (s, a) in enumerate(history) if a == "truco" and s % 2 == my_team), None)
    if first is None:
        return None, None
    return first, _answer_after(history, first, history[first][0])


def _answer_after(history, i: int, seat: int) -> str | None:
    """The answer the other team gave to the bet at `history[i]`."""
    for later_seat, action in history[i + 1 :]:
        if later_seat % 2 != seat % 2 and action in ("accept", "refuse", "truco"):
            return action
        if action.startswith(("play", "cover")):
            return None
    return None


def _envido_reply(history, i: int, seat: int) -> str | None:
    """The other team's first answer to the envido call at `history[i]`: accept, refuse or a
    raise (None: a flor put the envido off, or the hand ended first)."""
    for later_seat, action in history[i + 1 :]:
        if later_seat % 2 == seat % 2:
            continue
        if action in ("accept", "refuse"):
            return action
        if action in ENVIDO_CALLS:
            return "raise"
        return None
    return None
