"""What protocol 1 added to the observation (new keys only): the current trick's `leader`, the
seat that won each trick (`trick_winners`) and what each legal bet and answer is worth
(`bet_values`), checked against what the rules then do, in every variant and player count."""

from __future__ import annotations

import random

import pytest

from engine.observation import Observation
from engine.plugins import registry

SETTINGS = [
    (name, players, preset)
    for name, variant in sorted(registry().variants.items())
    for players in variant.players
    for preset in (None, *variant.presets)
]


def random_states(variant, players, preset, games=6, options=None):
    """Every state of a few random games, with the seed's own generator."""
    game = registry().variant(variant)
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_game(players, options, preset=preset, seed=seed)
        while state.winner is None and state.phase != "deal":
            yield state
            state = state.apply(rng.choice(state.legal_actions()))
        yield state


def gained(before, after) -> list[int]:
    return [after.score[t] - before.score[t] for t in (0, 1)]


def by_team(team: int, ours: int, theirs: int) -> list[int]:
    out = [0, 0]
    out[team], out[1 - team] = ours, theirs
    return out


@pytest.mark.parametrize(("variant", "players", "preset"), SETTINGS)
def test_leader_and_trick_winners_follow_the_tricks(variant, players, preset):
    for state in random_states(variant, players, preset):
        for seat in range(players):
            ob = state.observation(seat)
            if ob.trick:
                assert ob.leader == ob.trick[0][0]
            assert len(ob.trick_winners) == len(ob.tricks) == len(ob.results)
            for trick, team, winner in zip(ob.tricks, ob.results, ob.trick_winners, strict=True):
                if team == -1:
                    assert winner == -1
                else:
                    assert winner % 2 == team and winner in [play[0] for play in trick]
        ob = state.observation(0)
        # Outside Mineiro's showdown, the winner of a trick leads the next one.
        if ob.trick and ob.trick_winners and ob.trick_winners[-1] != -1 and ob.phase == "play":
            assert ob.leader == ob.trick_winners[-1]


def check_bet(state, action, values, flor_on):
    """Apply `action` (and the opponents' answers to it) and compare with its values."""
    seat = state.to_act
    team = seat & 1
    after = state.apply(action)
    if "conceded" in values and action != "refuse":  # a truco that loses the game
        assert after.winner == 1 - team
        assert gained(state, after) == by_team(team, 0, values["conceded"])
        return
    if action == "refuse":
        if not flor_on:  # the declared flors are scored too when a refusal ends the hand
            assert gained(state, after) == by_team(team, 0, values["conceded"])
        return
    if action == "accept":
        check_accepted(state, after, team, values)
        return
    answers = after.legal_actions()
    if "refuse" in answers:
        refused = after.apply("refuse")
        if not flor_on:
            assert gained(after, refused) == by_team(team, values["refused"], 0)
    if "accept" in answers:
        check_accepted(after, after.apply("accept"), team, values)


def check_accepted(before, after, team, values):
    if before.phase in ("answer", "decide"):
        if after.hand_no == before.hand_no:
            assert after.stake == values["won"] == values["lost"]
    else:  # a side bet: its winner scores at once
        assert gained(before, after) in (
            by_team(team, values["won"], 0),
            by_team(team, 0, values["lost"]),
        )


@pytest.mark.parametrize(("variant", "players", "preset"), SETTINGS)
def test_bet_values_are_what_the_rules_then_score(variant, players, preset):
    options = {"falta_envido": "game_in_malas"} if variant == "argentino" and not preset else None
    checked = set()
    for state in random_states(variant, players, preset, options=options):
        if state.winner is not None:
            continue
        ob = state.observation(state.to_act)
        flor_on = bool(ob.options.get("flor"))
        assert set(ob.bet_values) <= set(ob.legal)
        for action, values in ob.bet_values.items():
            check_bet(state, action, dict(values), flor_on)
            checked.add(action)
        for seat in range(players):
            if seat != state.to_act:
                assert not state.observation(seat).bet_values  # for the seat to act only
    assert {"truco", "accept", "refuse"} <= checked
    if variant == "argentino":
        assert {"envido", "real_envido", "falta_envido"} <= checked


def test_a_truco_that_loses_the_game_says_what_it_concedes():
    from tests.support import start

    state = start(
        "paulista",
        [(["4c 5c 6c", "4d 5d 6d"], "Kh")],
        start_score=(11, 4),
        options={"truco_at_eleven": "loses_game"},
    )
    state = state.apply("accept")  # team 0 plays its hand of eleven
    ob = state.observation(state.to_act)
    assert "truco" in ob.legal
    seat = state.to_act
    assert dict(ob.bet_values["truco"]) == {"conceded": 12 - state.score[1 - seat % 2]}
    check_bet(state, "truco", dict(ob.bet_values["truco"]), False)


def test_older_observations_without_the_new_keys_still_read():
    state = registry().variant("paulista").new_game(2, seed=1)
    data = state.observation(state.to_act).to_dict()
    for key in ("leader", "trick_winners", "bet_values"):
        data.pop(key)
    data["a_later_key"] = 1  # and keys of later versions are ignored
    ob = Observation.from_dict(data)
    assert ob.leader == -1 and ob.trick_winners == () and not ob.bet_values
