"""The attack of issue 8: "the public tournament seed with a match key rebuilds every card of a
human match while it is being played (private tables included)". The attacker takes every
number the public API shows about a live human match and tries each one as the tournament's,
the match's or the game's seed; before the fix the tournament's own `seed` field did it."""

from __future__ import annotations

import pytest

from engine.match import game_seed
from engine.plugins import registry
from tables.services import load
from tests.factories import BotFactory, PlayerFactory, TournamentFactory, human_entrant
from tests.surface import client_for, play_until
from tournaments import lifecycle
from tournaments.models import Entrant, Match
from tournaments.seeds import match_seed

pytestmark = pytest.mark.django_db


def numbers(value) -> set[int]:
    """Every integer in a JSON answer, also written as a string (ids, seeds, scores...)."""
    if isinstance(value, bool):
        return set()
    if isinstance(value, int):
        return {value}
    if isinstance(value, str):
        found = {int(value)} if value.isdigit() else set()
        if len(value) == 64:  # a commitment, read as a number in case it were one
            found |= {int(value, 16) >> 193, int(value, 16) & (2**63 - 1)}
        return found
    if isinstance(value, dict):
        return {n for v in value.values() for n in numbers(v)}
    if isinstance(value, list):
        return {n for v in value for n in numbers(v)}
    return set()


def public_answers(client, match: Match) -> list:
    """What anyone can read about the match and its tournament while it is played."""
    t = match.tournament_id
    urls = [
        f"/api/tournaments/{t}/",
        "/api/tournaments/",
        f"/api/tournaments/{t}/standings/",
        f"/api/tournaments/{t}/bracket/",
        f"/api/matches/{match.pk}/",
        f"/api/matches/?tournament={t}",
        f"/api/games/?match={match.pk}",
        f"/api/entrants/?tournament={t}",
        f"/api/play/matches/{match.pk}/",
    ]
    answers = []
    for url in urls:
        response = client.get(url)
        if response.status_code == 200:
            answers.append(response.json())
    return answers


def live_deal(match: Match):
    """The cards of the hand being played, as the server holds them."""
    table = load(Match.objects.get(pk=match.pk))
    state = table.game.state
    return len(table.live.games), state.hand_no, state.deals.deal(state.hand_no).hands


def rebuilds(candidate: int, match: Match, game_index: int, hand_no: int, hands) -> bool:
    """Does `candidate`, taken as any seed of the chain (or by the old formulas), deal `hands`?"""
    tournament = match.tournament
    variant = registry().variant(tournament.variant)
    tries = {
        game_seed(match_seed(candidate, match.key), game_index),  # the tournament's seed
        game_seed(candidate, game_index),  # the match's seed
        candidate,  # the game's seed
        candidate * 1_000_003 + game_index,  # the invertible formula of before
    }
    for seed in tries:
        if not 0 <= seed < 2**64:
            continue
        state = variant.new_game(tournament.players, tournament.options or None, seed=seed)
        if state.deals.deal(hand_no).hands == hands:
            return True
    return False


def play_first_game(client, match: Match, state: dict) -> dict:
    """The human plays until the second game of the match is dealt and it is their turn."""
    return play_until(
        client, match.pk, state, lambda s: s["game"]["index"] >= 1 and s["waiting"] == "human"
    )


def test_nothing_public_rebuilds_the_cards_of_a_live_human_match(api):
    tournament = TournamentFactory(games_per_match=2, players=2, table__turn_seconds=30)
    human = PlayerFactory()
    human_entrant(tournament, human)
    bot = BotFactory(plugin="random")
    Entrant.objects.create(tournament=tournament, name=bot.label, bot=bot)
    lifecycle.start(tournament)
    match = Match.objects.get(tournament=tournament)
    player = client_for(human.user)
    state = player.post(f"/api/play/matches/{match.pk}/open/").json()
    play_first_game(player, match, state)  # a finished game of the match is public now

    game_index, hand_no, hands = live_deal(match)
    assert game_index == 1
    # The attack itself works: given the tournament's seed it rebuilds every card...
    assert rebuilds(tournament.seed, match, game_index, hand_no, hands)
    # ...but nothing the public sees, nor what the player sees, is that seed or leads to it.
    seen = [*public_answers(api, match), *public_answers(player, match)]
    candidates = set().union(*(numbers(a) for a in seen))
    assert {0, 1, match.pk, tournament.pk} <= candidates  # ids, scores, commitments...
    assert tournament.seed not in candidates and match.seed not in candidates
    assert not [c for c in candidates if rebuilds(c, match, game_index, hand_no, hands)]


def test_a_private_table_gives_a_stranger_nothing_to_rebuild_its_cards_from(user_api, api):
    created = user_api.post(
        "/api/play/quick/",
        {"variant": "paulista", "bot": "random", "games": 2, "private": True},
        format="json",
    ).json()
    match = Match.objects.get(pk=created["match"])
    game_index, hand_no, hands = live_deal(match)
    assert rebuilds(match.tournament.seed, match, game_index, hand_no, hands)
    stranger = client_for(PlayerFactory().user)
    seen = [*public_answers(api, match), *public_answers(stranger, match)]
    candidates = set().union(*(numbers(a) for a in seen))
    assert not [c for c in candidates if rebuilds(c, match, game_index, hand_no, hands)]
