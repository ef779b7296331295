"""A spectator sees only what every seat sees: no card in anyone's hand, in every registered
variant; a replay of a finished game shows everything and steps action by action."""

from __future__ import annotations

import random

import pytest

from engine.plugins import registry
from engine.records import RecordKeeper
from engine.spectator import public_view, replay_frames


def cases():
    for name, variant in sorted(registry().variants.items()):
        for players in variant.players:
            yield pytest.param(name, players, id=f"{name}-{players}p")


def card_tokens(value) -> set[str]:
    if isinstance(value, str):
        return set(value.replace("#", " ").split())
    if isinstance(value, dict):
        return {t for v in value.values() for t in card_tokens(v)} | {
            t for k in value for t in card_tokens(k)
        }
    if isinstance(value, (list, tuple)):
        return {t for v in value for t in card_tokens(v)}
    return set()


@pytest.mark.parametrize(("name", "players"), list(cases()))
def test_spectators_never_see_a_card_that_is_not_on_the_table(name, players):
    variant = registry().variant(name)
    for seed in range(3):
        state = variant.new_game(players, seed=seed)
        chooser = random.Random(seed)
        while not state.is_over:
            hidden = {c for hand in state.hands for c in hand if c is not None}
            hidden -= state.rules.public_cards(state)
            hidden |= {card for _, card in state.covered}
            view = public_view(state)
            # `extra` and `previous_hand` may name cards of the hand before (a new deal reuses
            # them); `extra` is checked by the test below.
            current = {k: v for k, v in view.items() if k not in ("extra", "previous_hand")}
            leaked = hidden & card_tokens(current)
            assert not leaked, f"{name}: a spectator sees {leaked}"
            state = state.apply(chooser.choice(state.legal_actions()))


def test_variant_facts_known_to_one_seat_only_stay_out_of_the_spectator_view(monkeypatch):
    variant = registry().variant("paulista")
    state = variant.new_game(2, seed=5)

    def extra_observation(s, seat):
        return {"own_cards": s.hands[seat], "table_talk": "truco!"}

    monkeypatch.setattr(state.rules, "extra_observation", extra_observation)
    view = public_view(state)
    assert view["extra"] == {"table_talk": "truco!"}
    assert not card_tokens(view) & {c for hand in state.hands for c in hand}


def test_replay_shows_every_card_and_one_frame_per_action():
    variant = registry().variant("paulista")
    state = variant.new_game(2, seed=3)
    keeper = RecordKeeper(state)
    chooser = random.Random(1)
    count = 0
    while not state.is_over:
        seat, hand_no = state.to_act, state.hand_no
        action = chooser.choice(state.legal_actions())
        state = state.apply(action)
        keeper.open_hand(hand_no).append([seat, action])
        count += 1
    record = keeper.record(state)
    replay = replay_frames(record)
    assert len(replay["frames"]) == count + 1
    first = replay["frames"][0]["view"]
    assert first["hands"] == record["hands"][0]["cards"]
    assert replay["frames"][-1]["view"]["score"] == record["result"]["score"]
    assert replay["summary"]["finished"]
