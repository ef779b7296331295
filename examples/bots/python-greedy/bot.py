"""A Truco bot written to the bot protocol (docs/bot-protocol.md) with nothing but the Python
standard library: JSON lines in on standard input, one {"action": ...} line out per "act".

Strategy: lead with the strongest card, follow with the weakest card that beats the table (else
the weakest card), accept a truco when holding a manilha, never raise. Card strength is Truco
Paulista's: ranks 4 5 6 7 Q J K A 2 3, and the rank after the vira's is the manilha (clubs >
hearts > spades > diamonds)."""

import json
import sys

RANKS = ["4", "5", "6", "7", "Q", "J", "K", "A", "2", "3"]
MANILHA_SUITS = ["d", "s", "h", "c"]  # weakest to strongest


def strength(card, vira):
    rank, suit = card[:-1], card[-1]
    if vira and rank in RANKS and vira[:-1] in RANKS:
        manilha = RANKS[(RANKS.index(vira[:-1]) + 1) % len(RANKS)]
        if rank == manilha:
            return 100 + MANILHA_SUITS.index(suit)
    return RANKS.index(rank) if rank in RANKS else 0


def cards_on_table(trick):
    """The cards played in the current trick (entries are [seat, card] or a card)."""
    found = []
    for entry in trick or []:
        if isinstance(entry, str):
            found.append(entry)
        elif isinstance(entry, list):
            found += [x for x in entry if isinstance(x, str) and len(x) >= 2]
        elif isinstance(entry, dict) and isinstance(entry.get("card"), str):
            found.append(entry["card"])
    return found


def decide(legal, observation):
    vira = observation.get("vira") or ""
    plays = [a for a in legal if a.startswith("play ")]
    if "accept" in legal:
        hand = observation.get("hand") or []
        has_manilha = any(strength(card, vira) >= 100 for card in hand)
        return "accept" if has_manilha or "refuse" not in legal else "refuse"
    if plays:
        by_strength = sorted(plays, key=lambda a: strength(a[5:], vira))
        table = [strength(c, vira) for c in cards_on_table(observation.get("trick"))]
        if not table:
            return by_strength[-1]
        winners = [a for a in by_strength if strength(a[5:], vira) > max(table)]
        return winners[0] if winners else by_strength[0]
    return legal[0]


def main():
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("type") == "act":
            action = decide(message["legal"], message.get("observation") or {})
            print(json.dumps({"id": message.get("id"), "action": action}), flush=True)
        elif message.get("type") == "match_end":
            break


if __name__ == "__main__":
    main()
