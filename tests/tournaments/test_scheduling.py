"""The bridge between the models and the formats: seeding, byes, rounds, draws, standings."""

from __future__ import annotations

from collections import Counter

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from players.models import Player, Rating
from tournaments import lifecycle, scheduling
from tournaments.models import Entrant, Match, Round, Tournament
from tournaments.runner import run_in_process
from tournaments.seeds import match_seed

pytestmark = pytest.mark.django_db


def played(tournament):
    return Match.objects.filter(tournament=tournament).exclude(entrant_b=None)


def test_single_elimination_of_5_gives_byes_to_the_top_3_seeds_recorded_at_once(make_tournament):
    tournament = make_tournament(5)
    lifecycle.start(tournament, publish=False)
    first = Match.objects.filter(tournament=tournament, round__number=1).select_related("entrant_a")
    byes = [m for m in first if m.is_bye]
    assert sorted(m.entrant_a.seed for m in byes) == [1, 2, 3]
    assert all(m.status == Match.Status.DONE and m.winner_id == m.entrant_a_id for m in byes)
    assert [m.status for m in first if not m.is_bye] == [Match.Status.PENDING]
    assert all(m.games.count() == 0 for m in byes)


def test_seeding_by_rating_orders_entrants_by_their_conservative_rating(
    make_tournament, random_bots
):
    # mu - 3 sigma: an unrated entrant counts 25 - 3 * 8.33 = 0.
    strong, proven, weak = random_bots[5], random_bots[3], random_bots[0]
    Rating.objects.create(player=strong.player, variant="paulista", mu=40.0, sigma=2.0)
    Rating.objects.create(player=proven.player, variant="paulista", mu=10.0, sigma=2.0)
    Rating.objects.create(player=weak.player, variant="paulista", mu=2.0, sigma=1.0)
    Rating.objects.create(player=random_bots[1].player, variant="mineiro", mu=50.0, sigma=1.0)
    tournament = make_tournament(8, seeding=Tournament.Seeding.RATING)
    lifecycle.start(tournament, publish=False)
    seeds = dict(tournament.entrants.values_list("bot_id", "seed"))
    assert seeds[strong.id] == 1
    assert seeds[proven.id] == 2  # 10 - 6 = 4, above the unrated
    assert seeds[weak.id] == 8  # 2 - 3 = -1, below them
    assert seeds[random_bots[1].id] == 3  # a rating in another variant does not count


def test_random_seeding_is_drawn_from_the_tournament_seed(make_tournament):
    def seeding(seed):
        tournament = make_tournament(8, seeding=Tournament.Seeding.RANDOM, seed=seed)
        lifecycle.start(tournament, publish=False)
        return list(tournament.entrants.order_by("seed").values_list("name", flat=True))

    assert seeding(5) == seeding(5)
    assert seeding(5) != seeding(6)
    assert seeding(5) != sorted(seeding(5), key=lambda n: int(n.split("#")[1]) if "#" in n else 1)


def test_match_seeds_derive_from_the_tournament_seed_and_the_match_key(make_tournament):
    tournament = make_tournament(4, seed=99)
    lifecycle.start(tournament, publish=False)
    for match in Match.objects.filter(tournament=tournament):
        assert match.seed == match_seed(99, match.key)
    assert match_seed(99, "W1-1") != match_seed(99, "W1-2") != match_seed(100, "W1-1")


def test_swiss_through_the_database_never_repeats_a_pairing_one_bye_per_round(make_tournament):
    tournament = make_tournament(7, format="swiss", format_options={"rounds": 4})
    assert run_in_process(tournament) == Tournament.Status.DONE
    matches = list(Match.objects.filter(tournament=tournament).select_related("round"))
    pairs = [frozenset((m.entrant_a_id, m.entrant_b_id)) for m in matches if not m.is_bye]
    assert len(pairs) == len(set(pairs)) == 4 * 3
    byes = Counter(m.round.number for m in matches if m.is_bye)
    assert byes == {1: 1, 2: 1, 3: 1, 4: 1}
    assert len({m.entrant_a_id for m in matches if m.is_bye}) == 4  # never the same one twice


def test_double_elimination_runs_to_a_champion_through_the_losers_bracket(make_tournament):
    tournament = make_tournament(6, format="double-elimination")
    assert run_in_process(tournament) == Tournament.Status.DONE
    keys = set(Match.objects.filter(tournament=tournament).values_list("key", flat=True))
    assert {"W1-1", "L1-1", "GF"} <= keys
    losses = Counter(
        m.entrant_b_id if m.winner_id == m.entrant_a_id else m.entrant_a_id
        for m in played(tournament)
    )
    champion = scheduling.standings(tournament)[0]
    assert losses[champion.entrant_id] <= 1
    assert sorted(n for e, n in losses.items() if e != champion.entrant_id) == [2] * 5


def test_round_robin_double_meets_every_pair_twice_with_the_seats_swapped(make_tournament):
    tournament = make_tournament(4, format="round-robin", format_options={"double": True})
    assert run_in_process(tournament) == Tournament.Status.DONE
    seatings = Counter((m.entrant_a_id, m.entrant_b_id) for m in played(tournament))
    assert len(seatings) == 12 and set(seatings.values()) == {1}
    assert all((b, a) in seatings for a, b in seatings)


def test_rounds_are_created_and_closed_as_their_matches_finish(make_tournament):
    """A round robin of bots hands out every round at once (bots play matches side by side):
    its three rounds run together and each closes as its matches finish."""
    tournament = make_tournament(4, format="round-robin")
    lifecycle.start(tournament, publish=False)
    assert list(Round.objects.filter(tournament=tournament).values_list("number", "status")) == [
        (1, "running"),
        (2, "running"),
        (3, "running"),
    ]
    assert Match.objects.filter(tournament=tournament).count() == 6
    run_in_process(tournament)
    rounds = Round.objects.filter(tournament=tournament)
    assert [r.number for r in rounds] == [1, 2, 3]
    assert all(r.status == Round.Status.DONE and r.finished_at for r in rounds)


def test_a_round_robin_with_a_person_in_it_is_paired_round_by_round(make_tournament):
    """A person plays one match at a time: with a person among the entrants, the next round
    comes only once the current one is over."""
    tournament = make_tournament(3, format="round-robin")
    person = Entrant.objects.create(tournament=tournament, name="people")
    person.members.add(Player.objects.create(name="ana"))
    lifecycle.start(tournament, publish=False)
    assert list(Round.objects.filter(tournament=tournament).values_list("number", flat=True)) == [1]
    assert Match.objects.filter(tournament=tournament).count() == 2


def test_advancing_twice_schedules_nothing_twice(make_tournament):
    tournament = make_tournament(8)
    lifecycle.start(tournament, publish=False)
    before = Match.objects.filter(tournament=tournament).count()
    assert scheduling.advance(tournament.pk).created == 0
    assert Match.objects.filter(tournament=tournament).count() == before == 4


def test_drawn_elimination_matches_are_settled_by_decider_games(make_tournament):
    # A duplicate pair between two identical bots is always drawn: the same deal with the same
    # seat generators plays the same game twice, each side winning it once.
    tournament = make_tournament(4, games_per_match=0, pairs_per_match=1)
    assert run_in_process(tournament) == Tournament.Status.DONE
    for match in played(tournament):
        assert match.summary["pair_scores"] == [0.5]
        assert match.summary["deciders"] == 1
        assert match.games_played == 3
        assert match.winner_id in (match.entrant_a_id, match.entrant_b_id)
        assert abs(match.wins_a - match.wins_b) == 1
        decider = match.games.get(index=2)
        assert decider.pair is None and decider.winner_side in ("a", "b")


def test_drawn_swiss_matches_stay_draws_worth_half_a_point(make_tournament):
    tournament = make_tournament(
        4, format="swiss", games_per_match=0, pairs_per_match=1, format_options={"rounds": 2}
    )
    assert run_in_process(tournament) == Tournament.Status.DONE
    assert all(m.winner_id is None and m.games_played == 2 for m in played(tournament))
    assert {row.values["match_points"] for row in scheduling.standings(tournament)} == {1.0}


def test_standings_metrics_are_configurable_per_tournament(make_tournament):
    tournament = make_tournament(
        5, format="round-robin", metrics=["point_diff", "match_points", "game_wins"]
    )
    run_in_process(tournament)
    rows = scheduling.standings(tournament)
    assert list(rows[0].values) == ["point_diff", "match_points", "game_wins"]
    diffs = [r.values["point_diff"] for r in rows]
    assert diffs == sorted(diffs, reverse=True)
    assert [r.rank for r in rows] == sorted(r.rank for r in rows)


def test_standings_show_each_entrants_rating_with_its_interval(make_tournament):
    tournament = make_tournament(4)
    run_in_process(tournament)
    for row in scheduling.standings(tournament):
        mu, interval = row.rating.split(" ± ")
        assert float(mu) > 0 and float(interval) > 0


def test_standings_take_the_same_number_of_queries_for_4_and_16_entrants(make_tournament):
    counts = []
    for size in (4, 16):
        tournament = make_tournament(size, format="swiss", games_per_match=1)
        run_in_process(tournament)
        with CaptureQueriesContext(connection) as queries:
            rows = scheduling.standings(tournament)
        assert len(rows) == size
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 4
