"""Truco Argentino: bets the envido by its points (and the flor as the rules make it), chains
real envido on big points, and bluffs falta envido near the end of the game when the others are
about to win anyway; plays the truco by its sampled chance of taking the hand."""

import kit

from engine.bot import Bot

# The least points (the mano counting one more) to accept a chain ending in each call.
ACCEPT = {"envido": 26, "real_envido": 28, "falta_envido": 30}


class EnvidoShark(Bot):
    def act(self, obs):
        forced = kit.default_action(obs)  # a flor is declared here: it is then the only action
        if forced is not None:
            return forced
        legal = obs.legal
        points = kit.envido(obs)
        mano = 1 if obs.mano == obs.seat else 0  # the mano wins envido ties
        if obs.phase == "envido":
            return self.answer_envido(obs, points + mano)
        if obs.phase == "decide":
            return "accept" if kit.win_chance(obs, self.rng, 200) > 0.35 else "refuse"
        call = self.envido_call(obs, points + mano)
        if call is not None:
            return call
        chance = kit.win_chance(obs, self.rng, 150)
        if "accept" in legal:
            if kit.may_truco(obs) and chance > 0.8:
                return "truco"
            return "accept" if chance > kit.accept_threshold(obs) + 0.05 else "refuse"
        if kit.may_truco(obs) and chance > 0.7:
            return "truco"
        return kit.best_card(obs, self.rng, 40)

    def desperate(self, obs) -> bool:
        """The others need at most four points and lead by more than five: a falta envido is then
        worth the game to us and costs little more than we are losing anyway."""
        mine, theirs = obs.score[obs.seat & 1], obs.score[1 - (obs.seat & 1)]
        return obs.target - theirs <= 4 and theirs - mine > 5

    def envido_call(self, obs, points: int):
        legal = obs.legal
        if "falta_envido" in legal and (
            points >= 31 or (self.desperate(obs) and (points >= 25 or self.rng.random() < 0.5))
        ):
            return "falta_envido"
        if "real_envido" in legal and points >= 30:
            return "real_envido"
        if "envido" in legal and (points >= 27 or (points <= 7 and self.rng.random() < 0.15)):
            return "envido"  # the rare bluff with no pair
        return None

    def answer_envido(self, obs, points: int) -> str:
        legal = obs.legal
        calls = list(obs.extra.get("envido_calls", ()))
        last = calls[-1] if calls else "envido"
        if "falta_envido" in legal and (points >= 32 or (self.desperate(obs) and points >= 27)):
            return "falta_envido"
        if "real_envido" in legal and points >= 31:
            return "real_envido"
        if "envido" in legal and points >= 29 and calls.count("envido") == 1:
            return "envido"
        need = ACCEPT.get(last, 27) + (len(calls) - 1)  # a longer chain shows a stronger hand
        if last == "falta_envido" and self.desperate(obs):
            need = 24
        return "accept" if points >= need else "refuse"
