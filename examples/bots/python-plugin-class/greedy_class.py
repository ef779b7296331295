"""A bot written against the plugin bot API (engine.bot.Bot), as a pip plugin would be, but
uploaded as a bundle: the jail's shim builds it for each game and calls `act`.

It plays in every variant (its manifest lists none, so it is validated in all of them): it
accepts every truco and plays the last of its legal cards. Write your own strategy in `act`."""

from engine.bot import Bot


class GreedyClassBot(Bot):
    def act(self, observation):
        legal = list(observation.legal)
        plays = [a for a in legal if a.startswith("play ")]
        if "accept" in legal:
            return "accept"
        if plays:
            return plays[-1]
        return legal[0]
