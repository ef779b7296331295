"""What every opponent of examples/opponents/ needs to read a hand: card strengths from the
variant's own rules, the cards it has not seen, and a Monte Carlo estimate of its team's chance
to take the hand (the unseen cards dealt at random to the other seats, then a greedy playout).

Each opponent is a bundle of its own (uploaded alone), so each folder holds a copy of this file;
tests/bots/test_example_opponents.py checks that the copies are the same as kit/kit.py.
"""

from __future__ import annotations

from functools import lru_cache

from engine.cards import DECKS
from engine.observation import Observation
from engine.plugins import get_variant

TIED = -1
ACTION_WORDS = ("play ", "cover ", "pair ")


@lru_cache(maxsize=64)
def _rules(variant: str, options: tuple):
    return get_variant(variant).rules(dict(options))


def rules(obs: Observation):
    return _rules(obs.variant, tuple(sorted(obs.options.items())))


def strength(obs: Observation) -> dict[str, int]:
    """Card -> strength in this hand (higher wins the trick), from the variant's own rules."""
    return rules(obs).strength_table(obs.vira)


def blind(obs: Observation) -> bool:
    """A blind iron hand: the seat sees none of its cards (slots #0..#2)."""
    return bool(obs.hand) and obs.hand[0].startswith("#")


def played(obs: Observation) -> list[tuple[int, str | None, bool]]:
    """Every play of the hand so far: completed tricks, then the current one."""
    return [p for trick in obs.tricks for p in trick] + list(obs.trick)


def cards_left(obs: Observation) -> dict[int, int]:
    """Seat -> how many cards it still holds (three, less those it played this hand)."""
    left = {seat: 3 for seat in range(obs.players)}
    for seat, _card, _covered in played(obs):
        left[seat] -= 1
    return left


def unseen(obs: Observation) -> list[str]:
    """The deck less every card this seat has seen: its own, the vira, cards played face up and
    the partner's cards it was shown."""
    seen = set(obs.hand) | set(obs.covered)
    if obs.vira:
        seen.add(obs.vira)
    seen.update(card for _seat, card, _covered in played(obs) if card)
    for cards in obs.partner_cards.values():
        seen.update(cards)
    seen.update(obs.extra.get("burned", ()) or ())
    return [c for c in DECKS[rules(obs).deck_name] if c not in seen]


def next_to_play(obs: Observation) -> int:
    """The seat whose card comes next: after the last card of the trick; with none yet, the seat
    whose turn it is (a bet is made on one's own turn: the first bet since the last card)."""
    if obs.trick:
        return (obs.trick[-1][0] + 1) % obs.players
    turn = obs.to_act
    for seat, action in reversed(obs.history):
        if action.startswith(ACTION_WORDS):
            break
        if action in ("truco", "envido", "real_envido", "falta_envido", "fold", "flor"):
            turn = seat
    return turn


def hand_winner(results: list[int], mano_team: int, all_tied_to_mano: bool) -> int | None:
    """The team that takes the hand from these trick results (team, or TIED), None while it is
    open. A tie is decided by the next trick someone wins; a later tie goes to the first
    winner; three ties go to the mano's team (Argentino) or to nobody (TIED)."""
    decided = [r for r in results if r != TIED]
    for team in (0, 1):
        if decided.count(team) >= 2:
            return team
    if len(results) >= 2:
        if results[0] == TIED and results[1] != TIED:
            return results[1]
        if results[0] != TIED and results[1] == TIED:
            return results[0]
    if len(results) == 3:
        if decided:
            return decided[0]
        return mano_team if all_tied_to_mano else TIED
    return None


def trick_result(plays, table: dict[str, int]) -> tuple[int, int]:
    """(winning team or TIED, seat that leads next) of a complete trick."""
    best, winner, teams = -2, plays[0][0], set()
    for seat, card, covered in plays:
        value = -1 if covered or card is None else table[card]
        if value > best:
            best, winner, teams = value, seat, {seat & 1}
        elif value == best:
            teams.add(seat & 1)
    if len(teams) == 2:
        return TIED, plays[0][0]
    return winner & 1, winner


def greedy_card(hand: list[str], plays, seat: int, table: dict[str, int]) -> str:
    """Lead the strongest card; follow with the weakest card that takes the trick, or the weakest
    card when the partner already holds it or nothing takes it."""
    ordered = sorted(hand, key=table.__getitem__)
    if not plays:
        return ordered[-1]
    best_seat, best = max(
        ((s, -1 if cov or c is None else table[c]) for s, c, cov in plays), key=lambda x: x[1]
    )
    if best_seat & 1 == seat & 1:
        return ordered[0]
    for card in ordered:
        if table[card] > best:
            return card
    return ordered[0]


def win_chance(obs: Observation, rng, samples: int = 200, first: str | None = None) -> float:
    """The chance that this seat's team takes the hand, over `samples` random deals of the unseen
    cards to the other seats and a greedy playout by everyone; `first` forces this seat's next
    card. A tie of the whole hand counts as half."""
    if blind(obs) or not obs.hand:
        return 0.5
    table = strength(obs)
    mine = obs.seat & 1
    results0 = list(obs.results)
    left = cards_left(obs)
    pool = unseen(obs)
    shown = {int(s): list(c) for s, c in obs.partner_cards.items()}
    for seat, cards in shown.items():  # the partner's cards minus those it has played
        gone = [c for s, c, _ in played(obs) if s == seat and c]
        shown[seat] = [c for c in cards if c not in gone][: left[seat]]
    to_mano = obs.variant == "argentino"
    mano_team = obs.mano & 1
    start = next_to_play(obs)
    wins = 0.0
    for _ in range(samples):
        rng.shuffle(pool)
        hands, i = {}, 0
        for seat in range(obs.players):
            if seat == obs.seat:
                hands[seat] = list(obs.hand)
            elif seat in shown and len(shown[seat]) == left[seat]:
                hands[seat] = list(shown[seat])
            else:
                hands[seat] = pool[i : i + left[seat]]
                i += left[seat]
        results = list(results0)
        plays = list(obs.trick)
        seat = start
        forced = first
        while hand_winner(results, mano_team, to_mano) is None and any(hands.values()):
            while len(plays) < obs.players:
                if not hands[seat]:
                    break
                if seat == obs.seat and forced is not None:
                    card, forced = forced, None
                else:
                    card = greedy_card(hands[seat], plays, seat, table)
                hands[seat].remove(card)
                plays.append((seat, card, False))
                seat = (seat + 1) % obs.players
            if len(plays) < obs.players:
                break
            team, seat = trick_result(plays, table)
            results.append(team)
            plays = []
        winner = hand_winner(results, mano_team, to_mano)
        wins += 1.0 if winner == mine else 0.5 if winner in (TIED, None) else 0.0
    return wins / samples


def next_stake(obs: Observation) -> int:
    """What the hand would be worth after a (further) truco: the next step of the ladder."""
    ladder = list(rules(obs).ladder)
    now = obs.pending if obs.pending is not None else obs.stake
    higher = [v for v in ladder if v > now]
    return higher[0] if higher else now


def accept_threshold(obs: Observation) -> float:
    """The chance to win above which accepting a bet beats refusing it: accepting wins or loses
    the proposed value, refusing loses what the hand is worth now."""
    proposed = obs.pending or next_stake(obs)
    return (1.0 - obs.stake / proposed) / 2.0


def card_actions(legal) -> list[str]:
    return [a for a in legal if a.startswith(ACTION_WORDS)]


def default_action(obs: Observation) -> str | None:
    """The moves every opponent makes alike: a forced one, a blind card, Mineiro's lots and
    showdown; None when the bot must think."""
    legal = list(obs.legal)
    if len(legal) == 1:
        return legal[0]
    if "keep" in legal:
        return "keep"
    if blind(obs):  # any card is as good as another (Mineiro's showdown pairs slots too)
        return card_actions(legal)[0]
    pairs = [a for a in legal if a.startswith("pair ")]
    if pairs:  # the stronger card face up: it is the one that can win the up cards
        table = strength(obs)
        return max(pairs, key=lambda a: table[a.split(" ")[1]])
    return None


def best_card(obs: Observation, rng, samples: int = 60) -> str:
    """The legal card (face up) that gives the best win chance in sampled playouts."""
    plays = [a for a in obs.legal if a.startswith("play ")]
    if len(plays) == 1:
        return plays[0]
    scored = [(win_chance(obs, rng, samples, first=a[5:]), a) for a in plays]
    best = max(s for s, _ in scored)
    table = strength(obs)
    # Among the best, the weakest card: keep strength for later.
    return min((a for s, a in scored if s >= best - 1e-9), key=lambda a: table[a[5:]])


def greedy_action(obs: Observation) -> str:
    """The greedy card as an action (face up)."""
    table = strength(obs)
    card = greedy_card(list(obs.hand), list(obs.trick), obs.seat, table)
    action = "play " + card
    return action if action in obs.legal else card_actions(obs.legal)[0]


def may_truco(obs: Observation) -> bool:
    """A truco is legal and safe: never in a hand of eleven, where it may lose the game."""
    return "truco" in obs.legal and obs.kind == "normal"


def own_dealt(obs: Observation) -> list[str]:
    """This seat's three cards of the hand: held, covered and played face up."""
    mine = [c for s, c, _cov in played(obs) if s == obs.seat and c]
    return [*obs.hand, *obs.covered, *mine]


def envido(obs: Observation) -> int:
    """Truco Argentino: the envido points of this seat's three cards of the hand (0 in a variant
    without side bets), through the variant's side-bet interface (engine/side_bets.py)."""
    cards = own_dealt(obs)
    if len(cards) != 3:
        return 0
    side_bets = getattr(get_variant(obs.variant), "side_bets", None)
    if side_bets is not None:
        return side_bets.points(cards)
    if obs.variant == "argentino":  # a server from before the side-bet interface
        from variants.argentino_envido import envido_points

        return envido_points(cards)
    return 0
