"""Short matches several to a task (issue 19): one claim and one record transaction for a batch,
and yet each match is claimed, recorded and rated exactly as on its own; the sweep counts the
messages a batch went in, not its matches, so that it neither misses a lost batch nor sends
a waiting one again."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from players.models import Rating, RatingPoint
from players.ratings import rate, rate_many
from tournaments import dispatch, execution, lifecycle
from tournaments.models import Game, Match

pytestmark = pytest.mark.postgres  # row locks, commits and the VALUES update as in production


def queued(make_tournament, entrants: int = 8, **fields):
    tournament = make_tournament(entrants, format="round-robin", seed=9, **fields)
    lifecycle.start(tournament, publish=False)
    return list(
        Match.objects.filter(tournament=tournament, entrant_b__isnull=False)
        .order_by("id")
        .values_list("id", flat=True)
    )


def result(match_id: int) -> tuple:
    m = Match.objects.get(pk=match_id)
    games = list(Game.objects.filter(match=m).order_by("index").values_list("record", flat=True))
    return (m.status, m.wins_a, m.wins_b, m.points_a, m.points_b, m.winner_id, m.rated, games)


def test_a_batch_records_what_each_match_alone_would_and_rates_once(make_tournament):
    ids = queued(make_tournament, games_per_match=2)
    with CaptureQueriesContext(connection) as seen:
        outcomes = execution.execute_batch(ids, "w:1")
    assert {o.kind for o in outcomes.values()} == {"recorded"} and set(outcomes) == set(ids)
    commits = [q for q in seen.captured_queries if q["sql"] == "COMMIT"]
    assert len(commits) == 2  # one claim, one record, whatever the number of matches
    batched = [result(i) for i in ids]
    ratings = dict(Rating.objects.values_list("player_id", "mu"))
    points = RatingPoint.objects.count()

    # The same tournament (same seeds), each match on its own: the same games and results.
    Match.objects.all().delete()
    Rating.objects.all().delete()
    twin = queued(make_tournament, games_per_match=2)
    for match_id in twin:
        assert execution.execute(match_id, "w:2").kind == "recorded"
    alone = [result(i) for i in twin]
    strip = [r[:5] + r[6:] for r in alone]  # winners are ids of other entrants rows
    assert [r[:5] + r[6:] for r in batched] == strip
    assert all(r[0] == Match.Status.DONE and r[6] for r in batched)
    assert sorted(ratings.values()) == pytest.approx(
        sorted(Rating.objects.values_list("mu", flat=True))
    )
    assert points == RatingPoint.objects.count() == 2 * len(ids)
    # Delivered again: nothing is played or recorded twice.
    again = execution.execute_batch(twin, "w:3")
    assert {o.kind for o in again.values()} == {"finished"}
    assert Game.objects.filter(match_id__in=twin).count() == 2 * len(twin)


def test_rating_many_matches_at_once_is_rating_them_one_after_the_other(make_tournament):
    ids = queued(make_tournament, entrants=4)
    players = [
        (m.entrant_a.bot.player_id, m.entrant_b.bot.player_id)
        for m in Match.objects.filter(id__in=ids).select_related("entrant_a__bot", "entrant_b__bot")
    ]
    for a, b in players:
        with transaction.atomic():
            rate("paulista", [a], [b], 0)
    one_by_one = {p: (r.mu, r.sigma, r.matches) for p, r in _ratings("paulista").items()}
    with transaction.atomic():
        rate_many("mineiro", [([a], [b], 0) for a, b in players])
    together = {p: (r.mu, r.sigma, r.matches) for p, r in _ratings("mineiro").items()}
    assert together.keys() == one_by_one.keys()
    for player, values in one_by_one.items():
        assert together[player] == pytest.approx(values)


def _ratings(variant: str) -> dict:
    return {r.player_id: r for r in Rating.objects.filter(variant=variant)}


def test_a_batch_skips_a_match_held_by_a_live_claim_and_plays_the_rest(make_tournament):
    ids = queued(make_tournament, entrants=4, games_per_match=2)
    held = execution.claim_match(ids[0], "other-host:1")
    assert isinstance(held, execution.Claim)
    outcomes = execution.execute_batch(ids, "w:1")
    assert outcomes[ids[0]].kind == "busy"
    assert {outcomes[i].kind for i in ids[1:]} == {"recorded"}
    # The holder's own result still counts: its claim was never taken over.
    played = execution.play(held)
    assert execution.record(held, played)
    assert Match.objects.get(pk=ids[0]).status == Match.Status.DONE


def test_short_matches_go_several_to_a_message_long_ones_alone(make_tournament, settings):
    settings.TRUCO_TASK_GAMES, settings.TRUCO_TASK_QUICK_GAMES, settings.TRUCO_TASK_SPREAD = (
        20,
        20,
        2,
    )
    short = queued(make_tournament, entrants=8, games_per_match=1)[:4]
    assert dispatch.task_batches(short) == [short[:2], short[2:]]  # spread over two messages
    long = queued(make_tournament, entrants=4, games_per_match=20)
    assert dispatch.task_batches(long) == [[i] for i in long]


def test_matches_between_instant_built_ins_go_more_to_a_message(make_tournament, settings):
    """Games of `random` take microseconds: 20-game matches go three to a message of 60
    games; the same matches between bots of unknown cost (not instant) go alone."""
    settings.TRUCO_TASK_GAMES, settings.TRUCO_TASK_QUICK_GAMES, settings.TRUCO_TASK_SPREAD = (
        20,
        60,
        1,
    )
    long = queued(make_tournament, entrants=4, games_per_match=20)
    assert len(long) == 6
    assert dispatch.task_batches(long) == [long[:3], long[3:]]
    settings.TRUCO_INSTANT_BOT_PLUGINS = frozenset()
    assert dispatch.task_batches(long) == [[i] for i in long]
    settings.TRUCO_INSTANT_BOT_PLUGINS = frozenset({"random"})
    settings.TRUCO_TRUSTED_BOT_PLUGINS = frozenset()  # untrusted: played in the jail
    assert dispatch.task_batches(long) == [[i] for i in long]


def test_the_sweep_counts_the_messages_of_batches_not_their_matches(
    make_tournament, settings, monkeypatch
):
    settings.TRUCO_TASK_GAMES, settings.TRUCO_TASK_SPREAD, settings.TRUCO_QUEUED_RESEND_SECONDS = (
        20,
        2,
        0,
    )
    ids = queued(make_tournament, entrants=8, games_per_match=1)[:4]
    sent: list[list[int]] = []

    class Producer:
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    monkeypatch.setattr(dispatch.app, "producer_or_acquire", lambda: Producer())
    monkeypatch.setattr(
        dispatch.app,
        "send_task",
        lambda name, kwargs, producer=None, **kw: sent.append(
            kwargs.get("match_ids") or [kwargs["match_id"]]
        ),
    )
    Match.objects.filter(id__in=ids).update(status=Match.Status.QUEUED, queued_at=None)
    Match.objects.filter(id__in=ids).update(queued_at=execution.timezone.now())
    dispatch.publish(ids)
    assert sent == [ids[:2], ids[2:]]
    queued_matches = Match.objects.filter(id__in=ids)
    assert dispatch.expected_messages(queued_matches) == 2
    # Both messages waiting: nothing is lost, nothing is sent again.
    monkeypatch.setattr(dispatch, "messages_waiting", lambda: 2)
    assert dispatch.resend_lost() == 0
    # One message gone (the oldest): its two matches, and only they, are sent again.
    Match.objects.filter(id__in=ids[:2]).update(
        queued_at=execution.timezone.now() - execution.timedelta(seconds=5)
    )
    monkeypatch.setattr(dispatch, "messages_waiting", lambda: 1)
    sent.clear()
    assert dispatch.resend_lost() == 2
    assert sorted(sum(sent, [])) == ids[:2]
    # ...in as many messages as the sweep now counts for them.
    assert dispatch.expected_messages(queued_matches) == 1 + len(sent)


def test_messages_of_a_round_queued_while_the_queue_is_counted_do_not_hide_lost_ones(
    make_tournament, settings, monkeypatch
):
    """The interleaving of issue 19, item 4, made deterministic: the sweep asks the broker how
    many messages wait while another worker publishes the next round (its messages are in the
    queue before its transaction commits). Counting the queued matches before asking the
    broker, the new round's messages stood in for the lost ones, and nothing was sent again."""
    settings.TRUCO_QUEUED_RESEND_SECONDS = 0
    settings.TRUCO_TASK_GAMES = 1  # one match a message: the count of the original code
    lost = queued(make_tournament, entrants=8, games_per_match=1)[:4]
    Match.objects.filter(id__in=lost).update(
        status=Match.Status.QUEUED,
        queued_at=execution.timezone.now() - execution.timedelta(seconds=10),
    )
    new_round = queued(make_tournament, entrants=8, games_per_match=1)[:4]
    resent: list[int] = []
    monkeypatch.setattr(dispatch, "send", lambda batches: resent.extend(sum(batches, [])))

    def waiting_while_a_round_is_published():
        # The other worker's transaction (its UPDATE ran a moment ago, then it sent the
        # round's four messages, which are in the queue now) commits while the broker is
        # asked.
        Match.objects.filter(id__in=new_round).update(
            status=Match.Status.QUEUED,
            queued_at=execution.timezone.now() - execution.timedelta(seconds=1),
        )
        return len(new_round)

    monkeypatch.setattr(dispatch, "messages_waiting", waiting_while_a_round_is_published)
    assert dispatch.resend_lost() == 4
    assert sorted(resent) == sorted(lost)


def test_a_started_tournaments_matches_are_queued_as_created_and_sent_once_committed(
    make_tournament, monkeypatch, postgres_orm_url
):
    """Started outside a transaction (an organiser's request, a worker's task), the bot
    matches are created queued and marked with their messages in the statement that creates
    them, and each message is sent only once another connection (a worker's) can read the
    rows it names: queued, and of that message."""
    from tests.e2e_support import sql

    seen_by_a_worker = []

    def send(batches):
        for batch in batches:
            rows = sql(
                postgres_orm_url,
                "SELECT status, batch FROM tournaments_match WHERE id = ANY(%s)",
                batch,
            )
            seen_by_a_worker.append((len(batch), rows))

    monkeypatch.setattr(dispatch, "send", send)
    tournament = make_tournament(8, format="round-robin", seed=9, games_per_match=1)
    with CaptureQueriesContext(connection) as started:
        lifecycle.start(tournament)
    bot_matches = Match.objects.filter(tournament=tournament, entrant_b__isnull=False)
    assert len(seen_by_a_worker) >= 2  # a round in at least TRUCO_TASK_SPREAD messages
    assert sum(n for n, _ in seen_by_a_worker) == bot_matches.count() == 28
    batches = set()
    for n, rows in seen_by_a_worker:
        assert len(rows) == n and {status for status, _ in rows} == {"queued"}
        assert len({batch for _, batch in rows}) == 1  # one message, one mark
        batches.add(rows[0][1])
    assert len(batches) == len(seen_by_a_worker)
    # No second transaction to queue them: no UPDATE of the matches after the INSERT.
    assert not [
        q for q in started.captured_queries if q["sql"].startswith('UPDATE "tournaments_match"')
    ]


def test_matches_created_inside_a_callers_transaction_are_queued_after_it(
    make_tournament, monkeypatch
):
    """Inside a caller's transaction a worker could not read the new rows before its commit:
    they are created pending and queued under the tournament's lock, as before."""
    sent = []
    monkeypatch.setattr(dispatch, "send", lambda batches: [sent.extend(b) for b in batches])
    tournament = make_tournament(4, format="round-robin", seed=9, games_per_match=1)
    with transaction.atomic():
        lifecycle.start(tournament)
    assert sorted(sent) == sorted(
        Match.objects.filter(tournament=tournament, status="queued").values_list("id", flat=True)
    )
    assert len(sent) == 6


def test_a_tournament_started_while_the_broker_is_down_starts_and_the_sweep_sends_its_matches(
    make_tournament, monkeypatch, settings
):
    """The matches are committed queued before their messages go: a broker that cannot be
    reached then fails nothing (no error for the organiser), and the sweep sends them."""
    from kombu.exceptions import OperationalError

    def broker_down(batches):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(dispatch, "send", broker_down)
    tournament = make_tournament(4, format="round-robin", seed=9, games_per_match=1)
    lifecycle.start(tournament)
    tournament.refresh_from_db()
    queued = Match.objects.filter(tournament=tournament, status="queued")
    assert tournament.status == "running" and queued.count() == 6
    sent = []
    monkeypatch.setattr(dispatch, "send", lambda batches: [sent.extend(b) for b in batches])
    monkeypatch.setattr(dispatch, "messages_waiting", lambda: 0)  # the queue lost them
    settings.TRUCO_QUEUED_RESEND_SECONDS = 0
    dispatch.resend_lost()
    assert sorted(sent) == sorted(queued.values_list("id", flat=True))
