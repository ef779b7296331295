"""A careful card counter: every bet it calls, answers or raises comes from its chance of taking
the hand against the cards it has not seen (sampled deals and playouts), compared with what the
bet risks; it picks each card by the same sampling."""

import kit

from engine.bot import Bot

CALL = 0.72  # win chance from which it calls truco
RAISE = 0.80  # ... and from which it raises a bet made against it
MARGIN = 0.03  # accepts only a little above the break-even chance


class Counter(Bot):
    def act(self, obs):
        forced = kit.default_action(obs)
        if forced is not None:
            return forced
        legal = obs.legal
        if obs.phase == "decide":
            # Playing risks the hand of eleven's value, refusing gives away the base value.
            rules = kit.rules(obs)
            breakeven = (1 - rules.refused_value / rules.decided_value) / 2
            return "accept" if kit.win_chance(obs, self.rng, 300) > breakeven else "refuse"
        if obs.phase == "envido":
            return "accept" if kit.envido(obs) >= 27 - (obs.mano == obs.seat) else "refuse"
        chance = kit.win_chance(obs, self.rng, 200)
        if "accept" in legal:
            if kit.may_truco(obs) and chance > RAISE:
                return "truco"
            return "accept" if chance > kit.accept_threshold(obs) + MARGIN else "refuse"
        if "envido" in legal and kit.envido(obs) >= 28:
            return "envido"
        if kit.may_truco(obs) and chance > CALL:
            return "truco"
        return kit.best_card(obs, self.rng, 60)
