"""Plays to reach the hand of eleven first: takes cheap points, refuses marginal bets (running
costs only what the hand is worth now), raises only with near-certain hands, and plays the hand
of eleven whenever its cards give it a fair chance."""

import kit

from engine.bot import Bot

SURE = 0.82  # win chance from which it calls or raises
FAIR = 0.58  # below this it runs from a bet, whatever the price


class ElevenRush(Bot):
    def act(self, obs):
        forced = kit.default_action(obs)
        if forced is not None:
            return forced
        legal = obs.legal
        if obs.phase == "decide":  # worth 3 if played, 1 to the others if refused
            return "accept" if kit.win_chance(obs, self.rng, 200) > 0.4 else "refuse"
        if obs.phase == "envido":
            return "accept" if kit.envido(obs) >= 28 else "refuse"
        chance = kit.win_chance(obs, self.rng, 150)
        if "accept" in legal:
            if kit.may_truco(obs) and chance > SURE + 0.08:
                return "truco"
            return "accept" if chance > max(FAIR, kit.accept_threshold(obs)) else "refuse"
        if "envido" in legal and kit.envido(obs) >= 29:
            return "envido"
        if kit.may_truco(obs) and chance > SURE and not self.would_overshoot(obs):
            return "truco"
        return kit.best_card(obs, self.rng, 40)

    def would_overshoot(self, obs) -> bool:
        """Below the hand of eleven, a bigger hand brings no more than reaching it: a truco that
        would take the team past eleven only gives the others a way out."""
        rules = kit.rules(obs)
        if not getattr(rules, "hand_of_n", False):
            return False
        mine = obs.score[obs.seat & 1]
        return mine + obs.stake >= rules.threshold and mine < rules.threshold
