"""The ladder on the database: versions join and leave their boards, the scheduler starts
duplicate-pair matches within the budget and after tournaments, and each recorded match moves
the board's ratings and keeps their history."""

from __future__ import annotations

from datetime import timedelta

import pytest

from engine import plugins
from submitted_bots.models import Bot
from tests.entry_points import install_entry_point
from tests.factories import BotFactory, StaffFactory, UserFactory
from tournaments import dispatch, execution, ladder, ladder_scheduler, lifecycle
from tournaments.models import Ladder, LadderEntry, LadderPoint, Match, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(monkeypatch):
    """The ids the scheduler hands to the workers (no broker in these tests)."""
    sent: list[int] = []
    monkeypatch.setattr(dispatch, "send", lambda batches: sent.extend(sum(batches, [])))
    return sent


@pytest.fixture
def three_owners(db):
    return [
        BotFactory(name=f"greedy{k}", plugin="random", owner=UserFactory(username=f"owner{k}"))
        for k in range(3)
    ]


def paulista_1v1() -> Ladder:
    return Ladder.objects.get(variant="paulista", players=2)


def test_every_ready_version_is_on_the_board_of_each_game_it_plays(three_owners):
    ladder.sync_boards()
    boards = {(lad.variant, lad.players) for lad in Ladder.objects.all()}
    assert (
        ("paulista", 2) in boards and ("paulista", 4) in boards and ("truc-tete", 4) not in boards
    )
    for lad in Ladder.objects.all():
        assert lad.tournament.kind == Tournament.Kind.LADDER
        assert lad.entries.filter(on_board=True).count() == 3


def test_a_bundle_is_on_the_boards_its_manifest_names(db):
    bot = BotFactory(
        kind=Bot.Kind.BUNDLE,
        plugin="",
        manifest={
            "name": "b",
            "command": ["python3", "bot.py"],
            "variants": ["mineiro"],
            "players": [2],
        },
    )
    ladder.sync_boards()
    assert list(bot.ladder_entries.values_list("ladder__variant", "ladder__players")) == [
        ("mineiro", 2)
    ]


def test_retired_rejected_and_withdrawn_versions_leave_the_board(three_owners):
    ladder.sync_boards()
    retired, rejected, kept = three_owners
    Bot.objects.filter(pk=retired.pk).update(status=Bot.Status.RETIRED)
    Bot.objects.filter(pk=rejected.pk).update(status=Bot.Status.REJECTED)
    ladder.sync_boards()
    on_board = set(paulista_1v1().entries.filter(on_board=True).values_list("bot", flat=True))
    assert on_board == {kept.pk}
    entry = kept.ladder_entries.get(ladder=paulista_1v1())
    ladder.set_withdrawn(entry, True)
    ladder.sync_boards()  # the owner's choice stays
    assert not paulista_1v1().entries.filter(on_board=True).exists()
    ladder.set_withdrawn(entry, False)
    assert paulista_1v1().entries.filter(on_board=True).count() == 1


def test_the_scheduler_starts_duplicate_pair_matches_and_they_are_rated(three_owners, published):
    started = ladder_scheduler.tick()
    assert started > 0 and len(published) == started
    board = paulista_1v1()
    match = Match.objects.filter(tournament=board.tournament).first()
    assert match is not None and match.status == Match.Status.QUEUED
    assert execution.execute(match.pk).kind == "recorded"
    match.refresh_from_db()
    assert match.games_played == 2 * board.tournament.pairs_per_match
    assert {g.pair for g in match.games.all()} == set(range(board.tournament.pairs_per_match))
    a = LadderEntry.objects.get(entrant=match.entrant_a)
    b = LadderEntry.objects.get(entrant=match.entrant_b)
    assert a.matches == b.matches == 1
    assert a.sigma < 8.3 and b.sigma < 8.3  # both learnt something
    assert LadderPoint.objects.filter(entry__in=[a, b]).count() == 2
    if match.winner_id == match.entrant_a_id:
        assert a.mu > b.mu
    elif match.winner_id == match.entrant_b_id:
        assert b.mu > a.mu
    # and the tournament of the ladder is never finished by its format
    dispatch.continue_tournament(board.tournament.pk)
    board.tournament.refresh_from_db()
    assert board.tournament.status == Tournament.Status.RUNNING


def test_a_version_plays_one_ladder_match_at_a_time(three_owners, published, settings):
    settings.TRUCO_LADDER_IN_FLIGHT = 10
    ladder_scheduler.tick()
    board = paulista_1v1()
    matches = Match.objects.filter(tournament=board.tournament)
    assert matches.count() == 1  # three versions: one pair, the third waits
    ladder_scheduler.tick()
    assert matches.count() == 1


def test_the_budget_of_games_per_hour_is_kept(three_owners, published, settings):
    settings.TRUCO_LADDER_IN_FLIGHT = 10
    board_ids = []
    ladder.sync_boards()
    Ladder.objects.update(games_per_hour=4)  # one match of two pairs an hour
    for _ in range(3):
        ladder_scheduler.tick()
        for match in Match.objects.filter(status=Match.Status.QUEUED):
            execution.execute(match.pk)
            board_ids.append(match.tournament_id)
    per_ladder = {t: board_ids.count(t) for t in set(board_ids)}
    assert per_ladder and max(per_ladder.values()) == 1


def test_a_paused_ladder_starts_nothing(three_owners, published):
    ladder.sync_boards()
    Ladder.objects.update(paused=True)
    assert ladder_scheduler.tick() == 0
    assert not Match.objects.exists()


def test_the_ladder_waits_while_a_tournament_match_waits(three_owners, published, make_tournament):
    tournament = make_tournament(4)
    lifecycle.start(tournament, publish=False)
    assert Match.objects.filter(tournament=tournament, status=Match.Status.PENDING).exists()
    assert ladder_scheduler.tick() == 0
    assert not Match.objects.filter(tournament__kind=Tournament.Kind.LADDER).exists()
    Match.objects.filter(tournament=tournament).update(status=Match.Status.DONE)
    assert ladder_scheduler.tick() > 0


def test_the_boards_share_the_workers(three_owners, published, settings):
    settings.TRUCO_LADDER_IN_FLIGHT_TOTAL = 2
    assert ladder_scheduler.tick() == 2
    assert ladder_scheduler.tick() == 0  # nothing finished: no room
    ladder_matches = Match.objects.filter(tournament__kind=Tournament.Kind.LADDER)
    assert ladder_matches.count() == 2
    execution.execute(ladder_matches.first().pk)
    assert ladder_scheduler.tick() == 1


def test_a_new_version_of_a_person_gets_the_next_free_slot_before_other_boards(published, settings):
    """The operator's bots are on every board and still placing; a person's new bundle plays
    only Paulista 1 vs 1, the board made last: its first match comes first all the same."""
    settings.TRUCO_LADDER_IN_FLIGHT_TOTAL = 1
    for k in range(3):
        BotFactory(name=f"house{k}", plugin="random", owner=None)
    ladder.sync_boards()
    ladder_scheduler.tick()
    first = Match.objects.get(tournament__kind=Tournament.Kind.LADDER)
    assert first.tournament != paulista_1v1().tournament  # boards made before it go first
    BotFactory(
        name="newcomer",
        kind=Bot.Kind.BUNDLE,
        plugin="",
        owner=UserFactory(username="author"),
        manifest={
            "name": "newcomer",
            "command": ["python3", "bot.py"],
            "variants": ["paulista"],
            "players": [2],
        },
    )
    execution.execute(first.pk)
    assert ladder_scheduler.tick() == 1
    latest = Match.objects.filter(tournament__kind=Tournament.Kind.LADDER).latest("id")
    assert latest.tournament == paulista_1v1().tournament
    assert "author/newcomer" in {latest.entrant_a.name, latest.entrant_b.name}


def test_a_bot_of_every_variant_meets_people_before_it_tours_the_other_boards(published, settings):
    """A person's bot that plays every board has played once (on Argentino); two others play
    only Paulista 1 vs 1. The next free slot goes to the board where the three can meet, not to
    the next board where it would meet only the house's bots."""
    settings.TRUCO_LADDER_IN_FLIGHT_TOTAL = 1
    for k in range(2):
        BotFactory(name=f"house{k}", plugin="random", owner=None)
    everywhere = BotFactory(name="kit", plugin="random", owner=UserFactory(username="carla"))
    for person in ("ana", "bruno"):
        BotFactory(
            name=f"{person}-bot",
            kind=Bot.Kind.BUNDLE,
            plugin="",
            owner=UserFactory(username=person),
            manifest={
                "name": f"{person}-bot",
                "command": ["python3", "bot.py"],
                "variants": ["paulista"],
                "players": [2],
            },
        )
    ladder.sync_boards()
    LadderEntry.objects.filter(
        bot=everywhere, ladder__variant="argentino", ladder__players=2
    ).update(matches=1)
    LadderEntry.objects.filter(ladder=paulista_1v1()).exclude(bot=everywhere).filter(
        bot__owner__isnull=False
    ).update(matches=1)
    assert ladder_scheduler.tick() == 1
    (match,) = Match.objects.filter(tournament__kind=Tournament.Kind.LADDER)
    assert match.tournament == paulista_1v1().tournament


def test_the_board_is_ranked_by_the_conservative_rating(three_owners):
    ladder.sync_boards()
    board = paulista_1v1()
    sure, lucky, new = board.entries.order_by("id")
    LadderEntry.objects.filter(pk=sure.pk).update(mu=30, sigma=1)  # 27
    LadderEntry.objects.filter(pk=lucky.pk).update(mu=35, sigma=4)  # 23
    assert [e.pk for e in ladder.board(board)] == [sure.pk, lucky.pk, new.pk]


def test_staff_pause_a_ladder_and_set_its_budget_in_the_admin(three_owners, published, client):
    client.force_login(StaffFactory())
    ladder.sync_boards()
    board = paulista_1v1()
    url = "/admin/tournaments/ladder/"
    answer = client.post(url, {"action": "pause", "_selected_action": [board.pk]})
    assert answer.status_code == 302
    board.refresh_from_db()
    assert board.paused
    answer = client.post(
        url,
        {
            "form-TOTAL_FORMS": "1",
            "form-INITIAL_FORMS": "1",
            "form-0-id": str(board.pk),
            "form-0-games_per_hour": "40",
            "_save": "Save",
        },
        QUERY_STRING=f"id__exact={board.pk}",
    )
    assert answer.status_code == 302
    board.refresh_from_db()
    assert board.games_per_hour == 40 and not board.paused  # an unticked box is unpaused
    assert "paulista 1v1 ladder" in client.get(f"{url}{board.pk}/change/").content.decode()


@pytest.fixture
def faulty_bots(tmp_path, monkeypatch, settings):
    """tests/bots/faulty_plugin.py as an untrusted plugin: its bots run in a child process."""
    install_entry_point(tmp_path, monkeypatch, "faulty", "tests.bots.faulty_plugin")
    settings.TRUCO_TRUSTED_BOT_PLUGINS = frozenset({"random", "heuristic", "mcts"})
    yield
    plugins.reset()


@pytest.mark.parametrize(
    ("plugin", "termination"), [("faulty-raises", "crash"), ("faulty-illegal", "illegal_action")]
)
def test_a_crashing_version_loses_its_ladder_games_by_their_typed_termination(
    faulty_bots, published, plugin, termination
):
    BotFactory(name="breaks", plugin=plugin, owner=UserFactory(username="careless"))
    BotFactory(name="steady", plugin="random", owner=UserFactory(username="careful"))
    ladder.sync_boards()
    Ladder.objects.exclude(variant="paulista", players=2).update(paused=True)
    ladder_scheduler.tick()
    (match,) = Match.objects.filter(tournament=paulista_1v1().tournament)
    assert execution.execute(match.pk).kind == "recorded"
    match.refresh_from_db()
    games = list(match.games.all())
    assert games and all(g.termination == termination for g in games)
    broken = LadderEntry.objects.get(ladder=paulista_1v1(), bot__name="breaks")
    steady = LadderEntry.objects.get(ladder=paulista_1v1(), bot__name="steady")
    assert match.winner_id == steady.entrant_id  # it won every game the other forfeited
    assert steady.mu > broken.mu and broken.matches == steady.matches == 1


def test_a_ladder_match_queued_before_a_tournament_waits_for_it(
    three_owners, published, make_tournament
):
    ladder_scheduler.tick()
    queued = Match.objects.filter(tournament__kind=Tournament.Kind.LADDER).first()
    assert queued.status == Match.Status.QUEUED
    tournament = make_tournament(4)
    lifecycle.start(tournament, publish=False)
    # a worker takes the ladder's message first: it puts the match back, unplayed
    assert execution.execute(queued.pk).kind == "held"
    queued.refresh_from_db()
    assert queued.status == Match.Status.PENDING and queued.games_played == 0
    published.clear()
    ladder_scheduler.tick()
    assert queued.pk not in published  # still waiting for the tournament
    Match.objects.filter(tournament=tournament).update(status=Match.Status.DONE)
    ladder_scheduler.tick()
    assert queued.pk in published  # sent again once no tournament match waits
    assert execution.execute(queued.pk).kind == "recorded"


def test_an_upload_waiting_for_its_validation_goes_before_the_ladder(three_owners, published):
    """An author who uploads a version watches its page until it is validated: its smoke match
    must not wait in the workers' queue behind ladder matches."""
    ladder_scheduler.tick()
    queued = Match.objects.filter(tournament__kind=Tournament.Kind.LADDER).first()
    assert queued.status == Match.Status.QUEUED
    upload = BotFactory(name="fresh", plugin="random", owner=UserFactory(username="author"))
    Bot.objects.filter(pk=upload.pk).update(status=Bot.Status.VALIDATING)
    # a worker takes the ladder's message first: it puts the match back, unplayed
    assert execution.execute(queued.pk).kind == "held"
    queued.refresh_from_db()
    assert queued.status == Match.Status.PENDING and queued.games_played == 0
    published.clear()
    assert ladder_scheduler.tick() == 0
    assert queued.pk not in published  # still waiting for the upload's validation
    Bot.objects.filter(pk=upload.pk).update(status=Bot.Status.READY)
    ladder_scheduler.tick()
    assert queued.pk in published  # sent again once the version is validated


def test_a_validation_lost_long_ago_does_not_hold_the_ladder(three_owners, published, settings):
    settings.TRUCO_LADDER_YIELDS_TO_UPLOADS_SECONDS = 600
    stuck = BotFactory(name="stuck", plugin="random", owner=UserFactory(username="author"))
    long_ago = stuck.created_at - timedelta(seconds=601)
    Bot.objects.filter(pk=stuck.pk).update(status=Bot.Status.VALIDATING, created_at=long_ago)
    assert ladder_scheduler.tick() > 0


def test_a_board_page_follows_the_board_a_version_that_joins_shows_in_its_live_part(
    three_owners, client, settings
):
    """The board's page asks for its live part every 10 s (tournaments/static/tournaments/
    ladder.js): the board, the matches in flight, the latest; built once for all who follow it
    at most every TRUCO_FOLLOW_CACHE_SECONDS (off in tests)."""
    ladder.sync_boards()
    board = paulista_1v1()
    page = client.get(f"/ladder/{board.pk}/").content.decode()
    assert 'id="ladder-live"' in page and "tournaments/ladder.js" in page
    assert f'data-url="/ladder/{board.pk}/?part=live"' in page
    BotFactory(name="newcomer", plugin="random", owner=UserFactory(username="late"))
    ladder.sync_boards()
    live = client.get(f"/ladder/{board.pk}/?part=live").content.decode()
    assert "late/newcomer" in live and "greedy0" in live
    assert "<html" not in live and "Head to head" not in live  # the live part alone
