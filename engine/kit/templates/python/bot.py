"""A Truco bot written to the bot protocol (docs/bot-protocol.md) with Python's standard library
only: the engine's messages arrive as JSON lines on standard input; each "act" is answered with
one line {"id": ..., "action": ...} on standard output. Anything printed to standard error is
your log (`--logs DIR` keeps it; the server shows it to you alone).

It plays every variant legally: it answers bets at random (`accept_rate`), calls a bet now and
then (`bet_rate`), and otherwise plays a random card. Write your strategy in `choose`.
"""

import json
import random
import sys

params = {}  # this bot's parameters, from bot.toml's [params] (or --bots ./dir:key=value)
rng = random.Random(0)


def log(text):
    print(text, file=sys.stderr, flush=True)


def choose(legal, observation):
    """One of `legal`. `observation` is your seat's view: your `hand`, the `trick` so far, the
    `score`, and `bet_values`, what each bet or answer is worth (docs/bot-protocol.md)."""
    values = observation.get("bet_values", {})
    if "accept" in legal and "refuse" in legal:  # a bet to answer, or a hand of eleven to play
        return "accept" if rng.random() < params.get("accept_rate", 0.5) else "refuse"
    bets = [action for action in legal if "refused" in values.get(action, {})]
    if bets and rng.random() < params.get("bet_rate", 0.1):
        return rng.choice(bets)
    plays = [action for action in legal if action.startswith("play ")]
    if plays:
        return rng.choice(plays)
    # Anything else the variant asks (a flor to declare, a pair to show, lots to keep or burn).
    others = [action for action in legal if action not in bets and action != "fold"]
    return rng.choice(others or list(legal))


def main():
    global params
    won = played = seat = 0  # a bot may keep anything across the games of a match
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "match":
            params = message["params"]
            log(f"match: {message['variant']}, {message['players']} players, params {params}")
        elif kind == "game":
            rng.seed(message["seed"])  # your own seed: the same match plays the same way again
            log(
                f"game {message['game'] + 1}: seat {message['seat']} (won {won} of {played} so far)"
            )
            seat = message["seat"]
        elif kind == "act":
            action = choose(message["legal"], message["observation"])
            print(json.dumps({"id": message["id"], "action": action}), flush=True)
        elif kind == "game_end":
            # Notices reach the bot with its next message: what it logs now shows in the log
            # of the next game.
            played += 1
            won += message["result"]["winner"] == seat % 2
        elif kind == "match_end":
            break
        # hand_end, and any message type a later version adds: nothing to answer.


if __name__ == "__main__":
    main()
