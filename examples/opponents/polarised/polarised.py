"""A polarised bettor, in the style of the strongest bots students wrote for a Paulista course
(docs/bots.md, "Against bots that students wrote"): it never bets before it has taken the first
trick; once it has (no bet yet), it calls truco either with nothing (nothing above a king: a
bluff) or with the best (one of the four strongest cards and another
good one), and plays on quietly in between. It answers a bet by its cards alone: raises with two
of the strongest cards, takes it when their mean strength is high, else runs.

A side that reads every truco as strength runs from its bluffs; one that takes every truco pays
for its sure hands. Only counting how its trucos of the second trick ended tells the two apart.
"""

import kit

from engine.bot import Bot

TOP = 4  # the strongest cards: Paulista's manilhas, Argentino's bravas
GOOD = 12  # ... and the good ones below them (the threes and twos)
TAKE = 0.7  # mean grade of its cards from which it takes a bet (about an ace each)


class Polarised(Bot):
    def act(self, obs):
        forced = kit.default_action(obs)
        if forced is not None:
            return forced
        legal = obs.legal
        if obs.phase == "decide":
            return "accept" if kit.win_chance(obs, self.rng, 200) > 0.5 else "refuse"
        if obs.phase == "envido":
            return "accept" if kit.envido(obs) >= 27 else "refuse"
        places = self.places(obs)
        if "accept" in legal:  # a bet to answer, by the cards alone
            if kit.may_truco(obs) and sum(p < GOOD // 2 for p in places) >= 2:
                return "truco"
            grades = [self.grade(p) for p in places]
            return "accept" if grades and sum(grades) / len(grades) >= TAKE else "refuse"
        if kit.may_truco(obs) and self.took_first_unbet(obs) and self.polarised(places):
            return "truco"
        return kit.greedy_action(obs)

    @staticmethod
    def places(obs) -> list[int]:
        """Each held card's place in the deck by strength, 0 the strongest (ties share one)."""
        table = kit.strength(obs)
        order = sorted(set(table.values()), reverse=True)
        ranked = {value: sum(1 for v in table.values() if v > value) for value in order}
        return [ranked[table[card]] for card in obs.hand if card in table]

    def grade(self, place: int) -> float:
        deck = 40  # the Spanish and the clean French deck
        return 1.0 - place / deck

    @staticmethod
    def took_first_unbet(obs) -> bool:
        trucos = any(action == "truco" for _seat, action in obs.history)
        return len(obs.results) == 1 and obs.results[0] == obs.seat % 2 and not trucos

    @staticmethod
    def polarised(places: list[int]) -> bool:
        if not places:
            return False
        nothing = all(p >= 16 for p in places)  # nothing above a king (Paulista)
        best = min(places) < TOP and sorted(places)[1:2] and sorted(places)[1] < GOOD
        return nothing or bool(best)
