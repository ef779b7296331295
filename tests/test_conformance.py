"""The conformance suite: invariants every registered variant must keep (third-party ones too,
since the cases are collected from the plugin registry), for every player count and preset."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine.cards import DECKS
from engine.errors import IllegalAction
from engine.plugins import registry
from engine.records import RecordKeeper, replay
from engine.state import GameState

MAX_ACTIONS = 20_000


def configurations():
    for name, variant in sorted(registry().variants.items()):
        for players in variant.players:
            for preset in (None, *sorted(variant.presets)):
                yield pytest.param(
                    name, players, preset, id=f"{name}-{players}p-{preset or 'default'}"
                )


CASES = list(configurations())
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_game(name, players, preset, seed, choice_seed, on_state=None):
    """Play a random game, calling on_state(state) before every action; return the final state,
    its record, and every state visited."""
    variant = registry().variant(name)
    state = variant.new_game(players, preset=preset, seed=seed)
    chooser = random.Random(choice_seed)
    keeper = RecordKeeper(state)
    states = [state]
    for _ in range(MAX_ACTIONS):
        if state.is_over:
            break
        if on_state:
            on_state(state)
        seat = state.to_act
        hand_no = state.hand_no
        action = chooser.choice(state.legal_actions())
        state = state.apply(action)
        keeper.open_hand(hand_no).append([seat, action])
        states.append(state)
    else:
        pytest.fail(f"{name}: a random game did not end within {MAX_ACTIONS} actions")
    return state, keeper.record(state), states


seeds = st.integers(min_value=0, max_value=2**32 - 1)


@pytest.mark.parametrize(("name", "players", "preset"), CASES)
@SETTINGS
@given(seed=seeds, choice_seed=seeds)
def test_random_games_end_with_exactly_one_winner_and_scores_never_decrease(
    name, players, preset, seed, choice_seed
):
    final, _, states = random_game(name, players, preset, seed, choice_seed)
    target = final.rules.target
    for before, after in zip(states, states[1:], strict=False):
        assert after.score[0] >= before.score[0] and after.score[1] >= before.score[1]
    assert final.is_over
    assert sum(1 for points in final.score if points >= target) == 1
    assert final.score[final.winner] >= target


@pytest.mark.parametrize(("name", "players", "preset"), CASES)
@SETTINGS
@given(seed=seeds, choice_seed=seeds)
def test_legal_actions_are_sorted_unique_and_present_until_the_end(
    name, players, preset, seed, choice_seed
):
    final, _, states = random_game(name, players, preset, seed, choice_seed)
    for state in states[:-1]:
        legal = state.legal_actions()
        assert legal, f"no legal action in a game that is not over: {state!r}"
        assert list(legal) == sorted(set(legal))
        assert all(isinstance(a, str) for a in legal)
        observation = state.observation(state.to_act)
        assert observation.legal == legal
        others = [s for s in range(players) if s != state.to_act]
        assert all(state.observation(s).legal == () for s in others)
    assert final.legal_actions() == ()


@pytest.mark.parametrize(("name", "players", "preset"), CASES)
@SETTINGS
@given(seed=seeds, choice_seed=seeds)
def test_replaying_the_written_record_rebuilds_the_same_final_state(
    name, players, preset, seed, choice_seed
):
    final, record, _ = random_game(name, players, preset, seed, choice_seed)
    rebuilt = replay(record).state
    assert rebuilt.snapshot() == final.snapshot()
    assert record["result"] == {"score": list(final.score), "winner": final.winner}


@pytest.mark.parametrize(("name", "players", "preset"), CASES)
@SETTINGS
@given(seed=seeds, choice_seed=seeds)
def test_same_seed_gives_the_same_game(name, players, preset, seed, choice_seed):
    _, first, _ = random_game(name, players, preset, seed, choice_seed)
    _, second, _ = random_game(name, players, preset, seed, choice_seed)
    assert first == second


@pytest.mark.parametrize(("name", "players", "preset"), CASES)
@SETTINGS
@given(
    seed=seeds,
    choice_seed=seeds,
    bad=st.sampled_from(
        [
            "play 9z",
            "cover 9z",
            "accept",
            "refuse",
            "truco",
            "envido",
            "flor",
            "fold",
            "pair 9z 9y",
            "play #7",
            "",
            "nonsense",
        ]
    ),
)
def test_an_illegal_action_is_rejected_and_changes_nothing(
    name, players, preset, seed, choice_seed, bad
):
    _, _, states = random_game(name, players, preset, seed, choice_seed)
    state = random.Random(choice_seed).choice(states)
    assume(bad not in state.legal_actions())
    before = state.snapshot()
    legal = state.legal_actions()
    with pytest.raises(IllegalAction) as error:
        state.apply(bad)
    assert repr(bad) in str(error.value)
    for action in legal:
        assert action in str(error.value)
    assert state.snapshot() == before
    assert state.legal_actions() == legal


def known_cards(state: GameState, viewer: int) -> set[str]:
    """What `viewer` may know of the current hand, from the rules rather than from the
    observation under test: its own cards, the public ones, and in a hand of eleven of its
    team, its partner's."""
    known = set(state.dealt[viewer]) | state.rules.public_cards(state)
    if state.kind == "eleven" and state.players == 4 and viewer % 2 == state.deciding_team:
        known |= set(state.dealt[(viewer + 2) % 4])
    return known


def remap(value, mapping):
    if isinstance(value, str):
        return " ".join(mapping.get(t, t) for t in value.split(" "))
    if isinstance(value, list):
        return [remap(v, mapping) for v in value]
    return value


@pytest.mark.parametrize(("name", "players", "preset"), CASES)
@SETTINGS
@given(seed=seeds, choice_seed=seeds, pick=st.randoms(use_true_random=False))
def test_an_observation_does_not_change_when_hidden_cards_of_other_seats_change(
    name, players, preset, seed, choice_seed, pick
):
    """Swap every card a seat cannot see (other seats' unseen cards and the undealt stock) for
    others it cannot see either, replay the same game, and the seat's observation must be the
    same, unless the public course of the game changed (e.g. an envido won by other cards)."""
    final, record, states = random_game(name, players, preset, seed, choice_seed)
    index = pick.randrange(len(states))
    state: GameState = states[index]
    assume(state.phase != "deal")
    viewer = pick.randrange(players)
    observation = state.observation(viewer)
    deck = set(DECKS[state.rules.deck_name])
    k = state.hand_no
    hidden_pool = sorted(deck - known_cards(state, viewer))
    shuffled = hidden_pool[:]
    pick.shuffle(shuffled)
    mapping = dict(zip(hidden_pool, shuffled, strict=True))

    # The record up to this state, with hand k's hidden cards swapped.
    actions_before = index - sum(len(h["actions"]) for h in record["hands"][:k])
    altered = dict(record)
    hands = [dict(h) for h in record["hands"][: k + 1]]
    current = hands[k]
    current["actions"] = [
        [seat, action if seat == viewer else remap(action, mapping)]
        for seat, action in current["actions"][:actions_before]
    ]
    current["cards"] = [
        cards if seat == viewer else remap(cards, mapping)
        for seat, cards in enumerate(current["cards"])
    ]
    for key, value in record["hands"][k].items():
        if key not in ("cards", "actions", "vira"):
            current[key] = remap(value, mapping)
    altered["hands"] = hands
    try:
        other = replay(altered).state
    except Exception:
        assume(False)  # the swap made some other seat's action impossible: not a comparable game
        return
    assume(
        other.score == state.score and other.results == state.results and other.phase == state.phase
    )
    assume(other.rules.revealed_facts(other) == state.rules.revealed_facts(state))
    assert other.observation(viewer) == observation


@pytest.mark.parametrize("name, players, preset", CASES)
def test_a_variant_describes_its_table_words_deck_and_side_bets(name, players, preset):
    """Plugins describe themselves: the table, the story of a hand and the page's script ask the
    variant for its words, its deck and its side bets, never its name. Every raise of the
    ladder has a word, every action the variant can offer that is not a card, a raise or an
    answer is named by the variant, and the side bets' calls are named at the table."""
    variant = registry().variant(name)
    rules = variant.rules(preset=preset)
    words = variant.words_for(rules)
    assert words.raises and words.accept and words.refuse
    assert variant.deck_for(rules) in DECKS
    state = variant.new_game(players, preset=preset, seed=3)
    side_calls = set(variant.side_bets.calls) if variant.side_bets is not None else set()
    assert side_calls <= set(words.side_bets)
    generic = {"play", "cover", "pair", "truco", "accept", "refuse", "fold"}
    chooser = random.Random(5)
    for _ in range(MAX_ACTIONS):
        if state.is_over:
            break
        for action in state.legal_actions():
            verb = action.split(" ")[0]
            assert verb in generic or verb in words.side_bets or verb in words.extra_actions, (
                f"{name} offers {action!r} but does not say what the table calls it"
            )
        state = state.apply(chooser.choice(state.legal_actions()))
    if variant.side_bets is not None and state.dealt:
        for cards in state.dealt:
            assert isinstance(variant.side_bets.points(cards), int)
