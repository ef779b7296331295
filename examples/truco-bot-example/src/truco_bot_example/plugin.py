"""The bot `example-greedy`: the cheapest card that takes the trick, never a bet of its own.

A bot only ever sees its observation (engine.observation.Observation): its cards, the table,
the public history of the hand, and its legal actions. The rules object of the game tells it
how strong each card is in this hand, in any variant.
"""

from __future__ import annotations

from engine.bot import Bot
from engine.hookspecs import hookimpl
from engine.plugins import get_variant


class GreedyBot(Bot):
    def act(self, observation):
        legal = observation.legal
        rules = get_variant(observation.variant).rules(observation.options)
        strength = rules.strength_table(observation.vira)
        if "accept" in legal:
            # A bet or a hand-of-eleven decision: play on with a card in the top quarter.
            ranks = sorted(set(strength.values()))
            strong = ranks[len(ranks) * 3 // 4]
            held = [strength[c] for c in observation.hand if c in strength]
            return "accept" if held and max(held) >= strong else "refuse"
        plays = [a for a in legal if a.startswith("play ") and a[5:] in strength]
        if not plays:
            # Anything else (a blind hand's slots, variant-specific actions): not a bet.
            quiet = [a for a in legal if a not in ("truco", "fold")]
            return self.rng.choice(quiet or list(legal))
        on_table = [
            strength[card]
            for seat, card, covered in observation.trick
            if card is not None and not covered and seat % 2 != observation.seat % 2
        ]
        best_against = max(on_table, default=-1)
        by_strength = sorted(plays, key=lambda a: strength[a[5:]])
        winners = [a for a in by_strength if strength[a[5:]] > best_against]
        return winners[0] if winners else by_strength[0]

    def on_game_end(self, observation):
        # Optional notices: on_hand_end(observation) after each hand, on_game_end at the end.
        self.final_score = observation.score


@hookimpl
def truco_register_bots(register):
    register("example-greedy", GreedyBot)
