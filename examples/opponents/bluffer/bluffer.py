"""An aggressive raiser and bluffer: calls truco with weak hands, raises often, rarely runs."""

import kit

from engine.bot import Bot

BLUFF = 0.45  # chance of calling (or raising) with a hand that does not justify it
STRONG = 0.55  # win chance from which it always raises


class Bluffer(Bot):
    def act(self, obs):
        forced = kit.default_action(obs)
        if forced is not None:
            return forced
        legal = obs.legal
        if obs.phase == "decide":
            return "accept"  # always plays the hand of eleven
        if obs.phase == "envido":  # Argentino: answers an envido chain boldly too
            points = kit.envido(obs)
            raises = [a for a in legal if a in ("envido", "real_envido")]
            if raises and (points >= 29 or self.rng.random() < 0.2):
                return raises[0]
            return "accept" if points >= 24 or self.rng.random() < 0.4 else "refuse"
        chance = kit.win_chance(obs, self.rng, 100)
        if "accept" in legal:  # a truco to answer
            if kit.may_truco(obs) and (chance > STRONG or self.rng.random() < BLUFF / 2):
                return "truco"
            if chance > 0.2 or self.rng.random() < 0.6:
                return "accept"
            return "refuse"
        if "envido" in legal and (kit.envido(obs) >= 26 or self.rng.random() < 0.3):
            return "envido"
        if kit.may_truco(obs) and (chance > STRONG - 0.1 or self.rng.random() < BLUFF):
            return "truco"
        return kit.greedy_action(obs)
