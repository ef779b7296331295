"""Ratings across tournaments, per variant, with uncertainty (openskill), updated as matches
finish: once per match, only for competitive tables (RULES.md section 5)."""

from __future__ import annotations

import pytest

from players.models import Player, Rating
from players.ratings import rate_teams
from tournaments import execution, lifecycle
from tournaments.models import Entrant, Match
from tournaments.runner import run_in_process

pytestmark = pytest.mark.django_db

FRESH = (25.0, 25.0 / 3)


def test_the_winner_gains_the_loser_loses_and_both_become_surer():
    (winner,), (loser,) = rate_teams([[FRESH], [FRESH]], winner=0)
    assert winner[0] > 25.0 > loser[0]
    assert winner[1] < FRESH[1] and loser[1] < FRESH[1]


def test_a_draw_between_equals_moves_nobody_but_narrows_the_interval():
    (a,), (b,) = rate_teams([[FRESH], [FRESH]], winner=None)
    assert a[0] == pytest.approx(25.0) and b[0] == pytest.approx(25.0)
    assert a[1] < FRESH[1]


def test_an_upset_moves_the_ratings_more_than_an_expected_result():
    strong, weak = (35.0, 3.0), (15.0, 3.0)
    (expected,), _ = rate_teams([[strong], [weak]], winner=0)
    (upset,), _ = rate_teams([[strong], [weak]], winner=1)
    assert 35.0 - upset[0] > expected[0] - 35.0 > 0


def test_both_players_of_a_winning_team_gain():
    (p1, p2), (q1,) = rate_teams([[FRESH, FRESH], [FRESH]], winner=0)
    assert p1[0] > 25 and p2[0] > 25 and q1[0] < 25


def test_a_competitive_match_updates_its_bots_ratings_once(make_tournament):
    tournament = make_tournament(2, games_per_match=6)
    lifecycle.start(tournament, publish=False)
    match = Match.objects.get(tournament=tournament)
    execution.execute(match.pk, "w:1")
    execution.execute(match.pk, "w:2")  # a second delivery changes nothing
    match.refresh_from_db()
    winner = match.winner.bot.player
    loser = (match.entrant_b if match.winner_id == match.entrant_a_id else match.entrant_a).bot
    won, lost = Rating.objects.get(player=winner), Rating.objects.get(player=loser.player)
    assert won.variant == lost.variant == "paulista"
    assert won.mu > 25 > lost.mu
    assert won.matches == lost.matches == 1 and match.rated
    assert won.display == f"{won.mu:.1f} ± {2 * won.sigma:.1f}"


def test_ratings_carry_over_from_one_tournament_to_the_next(make_tournament, random_bots):
    for _ in range(2):
        run_in_process(make_tournament(4))
    rated = Rating.objects.get(player=random_bots[0].player, variant="paulista")
    assert rated.matches >= 2


def test_ratings_are_kept_per_variant(make_tournament, random_bots):
    run_in_process(make_tournament(2, variant="paulista"))
    run_in_process(make_tournament(2, variant="mineiro"))
    variants = set(
        Rating.objects.filter(player=random_bots[0].player).values_list("variant", flat=True)
    )
    assert variants == {"paulista", "mineiro"}


def test_a_practice_table_does_not_count_for_ratings(make_tournament):
    run_in_process(make_tournament(4, competitive=False))
    assert not Rating.objects.exists()


def test_a_human_team_is_rated_as_a_team(make_tournament):
    tournament = make_tournament(1, players=4)
    team = Entrant.objects.create(tournament=tournament, name="ana & bia")
    ana, bia = Player.objects.create(name="ana"), Player.objects.create(name="bia")
    team.members.add(ana, bia)
    team.check_members()
    lifecycle.start(tournament, publish=False)
    match = Match.objects.get(tournament=tournament)
    match.winner = team
    from players.ratings import rate

    rate(match.tournament.variant, [match.entrant_a.bot.player_id], [ana.id, bia.id], 1)
    assert Rating.objects.get(player=ana).mu == Rating.objects.get(player=bia).mu > 25
