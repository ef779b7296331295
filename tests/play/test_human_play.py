"""Humans play their matches through /api/play/: bots play up to the human's decision; a human
sees only their own seat and acts only for it, with its legal actions; the turn timer and the
disconnection grace of RULES.md section 5; the match is recorded like any other at its end."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tables.models import LiveMatch, Presence
from tables.services import advance, sweep
from tests.factories import BotFactory, PlayerFactory, TournamentFactory, human_entrant
from tests.play.tables import table_now
from tests.surface import client_for
from tournaments import lifecycle
from tournaments.models import Entrant, Game, Match, Tournament

pytestmark = pytest.mark.postgres  # row locks and commits as in production


def human_vs_bot(*, games=1, players=2, team=1, **table):
    tournament = TournamentFactory(
        games_per_match=games,
        players=players,
        table__turn_seconds=30,
        **{f"table__{k}": v for k, v in table.items()},
    )
    humans = [PlayerFactory() for _ in range(team)]
    human_entrant(tournament, *humans)
    bot = BotFactory(plugin="random")
    Entrant.objects.create(tournament=tournament, name=bot.label, bot=bot)
    lifecycle.start(tournament)
    match = Match.objects.get(tournament=tournament)
    return match, humans


def opponent_cards(match: Match, mine: list[int]) -> set[str]:
    live_table = table_now(match.pk)
    state = live_table.game.state
    return {
        c
        for seat, hand in enumerate(state.hands)
        if seat not in mine
        for c in hand
        if c is not None
    }


def strings(value) -> set[str]:
    if isinstance(value, str):
        return set(value.split())
    if isinstance(value, dict):
        return {t for v in value.values() for t in strings(v)}
    if isinstance(value, list):
        return {t for v in value for t in strings(v)}
    return set()


def open_match(match, player):
    client = client_for(player.user)
    response = client.post(f"/api/play/matches/{match.pk}/open/")
    assert response.status_code == 200, response.json()
    return client, response.json()


def play_to_end(client, match_id: int, state: dict) -> dict:
    """The human plays its first legal action at each of its turns until the match is done."""
    for _ in range(500):
        if state["status"] == "done":
            break
        seat = str(state["to_act"])
        state = client.post(
            f"/api/play/matches/{match_id}/act/",
            {"action": state["observations"][seat]["legal"][0], "turn": state["turn"]},
        ).json()
    return state


def test_a_human_match_waits_for_its_human_and_bots_play_up_to_their_decision():
    match, (human,) = human_vs_bot()
    assert match.status == Match.Status.PENDING  # workers leave it alone
    client, state = open_match(match, human)
    assert state["status"] == "running" and state["waiting"] == "human"
    assert state["your_turn"] is True
    assert list(state["observations"]) == [str(state["to_act"])]
    observation = state["observations"][str(state["to_act"])]
    assert observation["legal"] and len(observation["hand"]) == 3


def test_nobody_sees_the_cards_of_a_seat_that_is_not_theirs(api):
    match, (human,) = human_vs_bot()
    client, state = open_match(match, human)
    hidden = opponent_cards(match, state["you"])
    assert hidden and not hidden & strings(state)
    spectator = api.get(f"/api/play/matches/{match.pk}/").json()
    assert spectator["observations"] == {} and spectator["you"] == []
    assert not (hidden | set(state["observations"][str(state["you"][0])]["hand"])) & strings(
        spectator
    )
    assert "live_record" not in api.get(f"/api/matches/{match.pk}/").json()


def test_an_action_must_be_legal_for_the_humans_own_seat():
    match, (human,) = human_vs_bot()
    client, state = open_match(match, human)
    refused = client.post(
        f"/api/play/matches/{match.pk}/act/", {"action": "play 9z", "turn": state["turn"]}
    )
    assert refused.status_code == 400
    assert "legal actions" in refused.json()["detail"]
    legal = state["observations"][str(state["to_act"])]["legal"]
    ok = client.post(
        f"/api/play/matches/{match.pk}/act/", {"action": legal[0], "turn": state["turn"]}
    )
    assert ok.status_code == 200
    live = LiveMatch.objects.get(match=match)
    assert [state["to_act"], legal[0]] in live.actions


def test_nobody_acts_for_a_seat_that_is_not_theirs(api):
    match, (human,) = human_vs_bot()
    client, state = open_match(match, human)
    bot_seat = 1 - state["you"][0]
    wrong_seat = client.post(
        f"/api/play/matches/{match.pk}/act/",
        {"action": "truco", "seat": bot_seat, "turn": state["turn"]},
    )
    assert wrong_seat.status_code == 403
    stranger = client_for(PlayerFactory().user)
    body = {"action": "truco", "turn": state["turn"]}
    assert stranger.post(f"/api/play/matches/{match.pk}/act/", body).status_code == 403
    assert stranger.post(f"/api/play/matches/{match.pk}/open/").status_code == 403
    assert api.post(f"/api/play/matches/{match.pk}/act/", body).status_code in (
        401,
        403,
    )


def test_a_human_plays_the_match_to_its_end_and_it_is_recorded():
    match, (human,) = human_vs_bot(games=2)
    client, state = open_match(match, human)
    state = play_to_end(client, match.pk, state)
    match.refresh_from_db()
    assert match.status == Match.Status.DONE and match.winner_id is not None
    assert Game.objects.filter(match=match).count() == match.games_played >= 2
    assert match.tournament.__class__.objects.get(pk=match.tournament_id).status == "done"
    assert state["result"]["winner"] == match.winner_id
    assert len(state["games"]) == match.games_played
    record = Game.objects.filter(match=match).first().record
    assert record["format"] == "truco-record/1"


def test_turn_seconds_run_out_and_the_game_plays_for_the_human(api):
    match, (human,) = human_vs_bot()
    client, state = open_match(match, human)
    seat = state["to_act"]
    game = table_now(match.pk).game
    expected = game.state.rules.default_action(game.state)
    live = LiveMatch.objects.get(match=match)
    before = live.ply
    LiveMatch.objects.filter(pk=live.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    api.get(f"/api/play/matches/{match.pk}/")
    live.refresh_from_db()
    assert len(live.actions) == before  # a GET plays nothing, not even an expired turn
    sweep()  # the tables' sweep (a worker's) notices the expired turn
    live.refresh_from_db()
    assert live.actions[before] == [seat, expected]
    assert seat in live.auto_played


def test_the_turn_timer_is_set_from_the_table_settings():
    match, (human,) = human_vs_bot()
    Tournament.objects.filter(pk=match.tournament_id).update(turn_seconds=45)
    client, state = open_match(match, human)
    assert 40 < state["seconds_left"] <= 45


def test_a_disconnected_human_is_replaced_by_a_robot_after_the_grace():
    match, (human,) = human_vs_bot(disconnect_grace_seconds=60)
    open_match(match, human)
    long_ago = timezone.now() - timedelta(seconds=61)
    Presence.objects.filter(live_id=match.pk).update(last_seen=long_ago)
    LiveMatch.objects.filter(pk=match.pk).update(started_at=long_ago)
    advance(match.pk)  # the robot plays every decision of the absent human: the match ends
    match.refresh_from_db()
    assert match.status == Match.Status.DONE


def test_a_team_of_one_in_a_2v2_gets_a_robot_partner():
    match, (human,) = human_vs_bot(players=4, team=1)
    client, state = open_match(match, human)
    mine = [s for s in state["seats"] if s["you"]]
    partner = [s for s in state["seats"] if s["team"] == mine[0]["team"] and not s["you"]]
    assert len(mine) == 1 and partner[0]["kind"] == "bot" and "robot" in partner[0]["name"]
    assert state["waiting"] == "human"


def test_two_humans_each_see_and_act_for_their_own_seat_only():
    tournament = TournamentFactory(games_per_match=1)
    ana, bea = PlayerFactory(), PlayerFactory()
    human_entrant(tournament, ana)
    human_entrant(tournament, bea)
    lifecycle.start(tournament)
    match = Match.objects.get(tournament=tournament)
    ana_client, ana_state = open_match(match, ana)
    bea_client = client_for(bea.user)
    bea_state = bea_client.get(f"/api/play/matches/{match.pk}/").json()
    assert ana_state["you"] != bea_state["you"]
    to_act = ana_state["to_act"]
    mover, waiter = (
        (ana_client, bea_client) if to_act in ana_state["you"] else (bea_client, ana_client)
    )
    state = mover.get(f"/api/play/matches/{match.pk}/").json()
    body = {"action": state["observations"][str(to_act)]["legal"][0], "turn": state["turn"]}
    assert waiter.post(f"/api/play/matches/{match.pk}/act/", body).status_code in (403, 409)
    assert mover.post(f"/api/play/matches/{match.pk}/act/", body).status_code == 200


def test_a_table_closed_to_spectators_shows_nothing_to_strangers(api):
    match, (human,) = human_vs_bot(spectators=False)
    open_match(match, human)
    assert api.get(f"/api/play/matches/{match.pk}/").status_code == 403
    assert client_for(human.user).get(f"/api/play/matches/{match.pk}/").status_code == 200


def test_a_practice_game_against_a_bot(user_api, user):
    response = user_api.post(
        "/api/play/quick/", {"variant": "paulista", "bot": "random"}, format="json"
    )
    assert response.status_code == 201, response.json()
    state = response.json()
    assert state["waiting"] == "human" and state["your_turn"]
    tournament = Tournament.objects.get(pk=state["tournament"]["id"])
    assert tournament.competitive is False
    mine = user_api.get("/api/play/matches/").json()
    assert mine[0]["match"] == state["match"] and mine[0]["your_turn"] is True


def test_a_practice_game_with_bad_settings_is_a_400(user_api):
    unknown_bot = user_api.post("/api/play/quick/", {"variant": "paulista", "bot": "nobody"})
    assert unknown_bot.status_code == 400 and "bot" in unknown_bot.json()
    bad_variant = user_api.post("/api/play/quick/", {"variant": "chess", "bot": "random"})
    assert bad_variant.status_code == 400 and "variant" in bad_variant.json()


def test_a_bot_match_cannot_be_opened_by_humans(user_api):
    tournament = TournamentFactory(games_per_match=1)
    for _ in range(2):
        bot = BotFactory()
        Entrant.objects.create(tournament=tournament, name=bot.label, bot=bot)
    lifecycle.start(tournament)
    match = Match.objects.get(tournament=tournament)
    response = user_api.post(f"/api/play/matches/{match.pk}/open/")
    assert response.status_code == 400 and "no human seats" in response.json()["detail"]


def test_a_late_timer_changes_nothing_once_the_decision_was_taken():
    from tables.services import expire

    match, (human,) = human_vs_bot()
    client, state = open_match(match, human)
    live = LiveMatch.objects.get(match=match)
    game_no, ply = live.game_no, live.ply
    legal = state["observations"][str(state["to_act"])]["legal"]
    client.post(f"/api/play/matches/{match.pk}/act/", {"action": legal[0], "turn": state["turn"]})
    LiveMatch.objects.filter(pk=live.pk).update(turn_deadline=timezone.now() - timedelta(seconds=5))
    actions = LiveMatch.objects.get(pk=live.pk).actions
    assert expire(match.pk, game_no, ply) is False
    assert LiveMatch.objects.get(pk=live.pk).actions == actions


def test_a_rerun_human_match_starts_again_from_scratch():
    match, (human,) = human_vs_bot()
    client, state = open_match(match, human)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FAILED)
    lifecycle.rerun_match(Match.objects.get(pk=match.pk))
    assert Match.objects.get(pk=match.pk).status == Match.Status.PENDING
    client, state = open_match(match, human)
    live = LiveMatch.objects.get(match=match)
    assert live.games == [] and state["waiting"] == "human"


def test_staff_start_a_human_match_without_its_humans(staff):
    from django.test import Client
    from django.urls import reverse

    match, (human,) = human_vs_bot(disconnect_grace_seconds=0)
    browser = Client()
    browser.force_login(staff)
    browser.post(
        reverse("admin:tournaments_match_changelist"),
        {"action": "start_human_matches", "_selected_action": [str(match.pk)]},
    )
    match.refresh_from_db()
    # Nobody came within the (zero) grace: a robot played the human's seat to the end.
    assert match.status == Match.Status.DONE


def test_competitive_off_is_practice_and_changes_no_rating(user_api, user):
    from players.models import Rating

    state = user_api.post(
        "/api/play/quick/",
        {"variant": "paulista", "bot": "random", "turn_seconds": 0},
        format="json",
    ).json()
    match = state["match"]
    state = play_to_end(user_api, match, state)
    assert state["status"] == "done"
    assert not Rating.objects.exists()


def test_competitive_on_rates_the_human_and_the_bot():
    from players.models import Rating

    match, (human,) = human_vs_bot()
    client, state = open_match(match, human)
    state = play_to_end(client, match.pk, state)
    rated = set(Rating.objects.values_list("player_id", flat=True))
    assert human.pk in rated and len(rated) == 2


def test_an_untrusted_bot_plugin_plays_a_human_match_from_the_jail(settings):
    settings.TRUCO_TRUSTED_BOT_PLUGINS = frozenset({"heuristic"})  # "random" is not trusted
    match, (human,) = human_vs_bot()
    client, state = open_match(match, human)
    from engine.jail.process import JailedProcess

    started = []
    original = JailedProcess.__init__

    def spy(self, *args, **kwargs):
        original(self, *args, **kwargs)
        started.append(self.pid)

    JailedProcess.__init__ = spy
    try:
        for _ in range(40):  # play the human's seat with its first legal action
            if state["status"] != "running" or not state["your_turn"]:
                break
            seat = str(state["to_act"])
            action = state["observations"][seat]["legal"][0]
            response = client.post(
                f"/api/play/matches/{match.pk}/act/",
                {"action": action, "turn": state["turn"]},
                format="json",
            )
            assert response.status_code == 200, response.json()
            state = response.json()
    finally:
        JailedProcess.__init__ = original
    assert started, "the bot's decisions never came from the jail"


def test_an_action_names_its_turn_and_a_stale_one_is_refused_and_changes_nothing():
    match, (human,) = human_vs_bot()
    client, state = open_match(match, human)
    url = f"/api/play/matches/{match.pk}/act/"
    legal = state["observations"][str(state["to_act"])]["legal"]
    missing = client.post(url, {"action": legal[0]})
    assert missing.status_code == 400 and "`turn`" in missing.json()["detail"]
    assert client.post(url, {"action": legal[0], "turn": "soon"}).status_code == 400
    first = client.post(url, {"action": legal[0], "turn": state["turn"]})
    assert first.status_code == 200, first.json()
    after = LiveMatch.objects.get(match=match)
    actions = list(after.actions)
    replayed = client.post(url, {"action": legal[0], "turn": state["turn"]})  # a second click
    assert replayed.status_code == 409
    assert "already answered" in replayed.json()["detail"]
    assert LiveMatch.objects.get(match=match).actions == actions
    now = first.json()
    if now["your_turn"]:
        assert now["turn"] > state["turn"]
        again = now["observations"][str(now["to_act"])]["legal"][0]
        assert client.post(url, {"action": again, "turn": now["turn"]}).status_code == 200


def test_two_concurrent_actions_for_one_turn_one_is_applied_the_other_is_a_409():
    """Two requests at once (two tabs), each on its own PostgreSQL connection: the row lock
    serialises them and the second finds its turn taken."""
    import threading

    from django.db import connection

    match, (human,) = human_vs_bot()
    client, state = open_match(match, human)
    before = len(LiveMatch.objects.get(match=match).actions)
    legal = state["observations"][str(state["to_act"])]["legal"]
    body = {"action": legal[0], "turn": state["turn"]}
    start = threading.Barrier(2)
    answers: list[int] = []

    def send():
        tab = client_for(human.user)
        try:
            start.wait(timeout=10)
            answers.append(tab.post(f"/api/play/matches/{match.pk}/act/", body).status_code)
        finally:
            connection.close()

    tabs = [threading.Thread(target=send) for _ in range(2)]
    for tab in tabs:
        tab.start()
    for tab in tabs:
        tab.join(30)
    assert sorted(answers) == [200, 409]
    live = LiveMatch.objects.get(match=match)
    seat = state["to_act"]
    # The human's one action, then the bots' up to the human's next decision, which is still
    # the human's to take: the late request was not applied to it.
    assert [a for a in live.actions[before:] if a[0] == seat] == [[seat, legal[0]]]


class LockProbe:
    """A robot that, at each decision, notes whether a transaction is open in its process and
    whether another connection can lock the match's row at once (as a second request would)."""

    seen: list[tuple[bool, bool]] = []
    match_id = 0

    def __init__(self, **kwargs):
        pass

    def act(self, observation):
        import threading

        from django.db import OperationalError, connection, transaction

        free = []

        def try_lock():
            try:
                with transaction.atomic():
                    Match.objects.select_for_update(nowait=True).get(pk=LockProbe.match_id)
                free.append(True)
            except OperationalError:  # "could not obtain lock on row"
                free.append(False)
            finally:
                connection.close()

        other = threading.Thread(target=try_lock)
        other.start()
        other.join()
        LockProbe.seen.append((connection.in_atomic_block, free[0]))
        return observation.legal[0]


def test_a_robot_that_thinks_holds_no_transaction_and_no_lock(settings, monkeypatch):
    """A robot that is not instant (a search, code in the jail) thought inside the transaction
    that held the match's row lock, for up to the table's budget a decision. On SQLite every
    transaction is the whole database's write lock: one user's slow robots made every other
    request wait, then fail with "database is locked". It now thinks on a snapshot, and its
    moves are written under the lock afterwards."""
    from engine.plugins import registry

    monkeypatch.setitem(registry().bots, "lock-probe", LockProbe)
    settings.TRUCO_TRUSTED_BOT_PLUGINS = frozenset({"lock-probe", "heuristic"})
    LockProbe.seen = []
    match, (human,) = human_vs_bot()
    Entrant.objects.filter(tournament=match.tournament, bot__isnull=False).update(
        bot=BotFactory(plugin="lock-probe")
    )
    LockProbe.match_id = match.pk
    client, state = open_match(match, human)
    for _ in range(6):
        if state["status"] != "running":
            break
        seat = str(state["to_act"])
        state = client.post(
            f"/api/play/matches/{match.pk}/act/",
            {"action": state["observations"][seat]["legal"][0], "turn": state["turn"]},
            format="json",
        ).json()
    assert LockProbe.seen, "the robot never played"
    assert all(seen == (False, True) for seen in LockProbe.seen), LockProbe.seen


def test_moves_thought_on_a_table_that_moved_meanwhile_are_dropped():
    """Two advances at once (a host's and the sweep's, say) both think on the table as they
    read it; the second to write finds the row's version moved on and keeps nothing of its
    own: no move is played twice."""
    from django.db import transaction

    from tables.live import LiveTable

    match, (human,) = human_vs_bot()
    client, state = open_match(match, human)
    seat = str(state["to_act"])
    client.post(
        f"/api/play/matches/{match.pk}/act/",
        {"action": state["observations"][seat]["legal"][0], "turn": state["turn"]},
        format="json",
    )
    live = LiveMatch.objects.get(match=match)
    live.waiting = LiveMatch.Waiting.BOTS  # as if the bots' reply were still due
    live.save()
    late = LiveTable.load(match.pk)
    late.think()  # thought on the table as read, not written yet
    advance(match.pk)  # the other advance writes first
    after = LiveMatch.objects.get(match=match)
    assert after.version > late.version
    with transaction.atomic():
        row = LiveMatch.objects.select_for_update().get(match=match)
        assert row.version != late.version  # what `advance` checks before writing: dropped
    again = LiveMatch.objects.get(match=match)
    assert (again.actions, again.game_no, again.waiting) == (
        after.actions,
        after.game_no,
        after.waiting,
    )
    late.close_bots()


def test_at_a_table_without_a_timer_a_person_away_past_the_grace_is_played_for():
    """With turn_seconds 0 nothing ever played for a person who left: the table waited for
    them for good. The tables' sweep now has the robot play their turn; a visitor's GET plays
    nothing."""
    match, (human,) = human_vs_bot(disconnect_grace_seconds=60)
    Tournament.objects.filter(pk=match.tournament_id).update(turn_seconds=0)
    client, state = open_match(match, human)
    assert state["waiting"] == "human" and state["turn_deadline"] is None
    ply = len(LiveMatch.objects.get(match=match).actions)
    long_ago = timezone.now() - timedelta(seconds=61)
    Presence.objects.filter(live_id=match.pk).update(last_seen=long_ago)
    LiveMatch.objects.filter(pk=match.pk).update(started_at=long_ago, updated_at=long_ago)
    client_for(PlayerFactory().user).get(f"/api/play/matches/{match.pk}/")  # a spectator
    assert len(LiveMatch.objects.get(match=match).actions) == ply  # reading plays nothing
    sweep()
    live = LiveMatch.objects.get(match=match)
    assert live.waiting == "done" or len(live.actions) > ply


def test_a_table_refused_at_its_deal_is_not_left_behind(monkeypatch):
    """Chips staked at another table between the creation and the deal: the deal refuses, and
    the new table does not stay in play, counted against the player's tables (dealt in the
    transaction that opens it: nothing of it is saved)."""
    import tables.services

    def refuse(*args, **kwargs):
        raise tables.services.PlayError("you cannot sit here", 403)

    monkeypatch.setattr(tables.services, "check_covers_stake", refuse)
    player = PlayerFactory()
    response = client_for(player.user).post(
        "/api/play/quick/", {"variant": "paulista", "bot": "random"}, format="json"
    )
    assert response.status_code == 403
    assert response.json()["detail"] == "you cannot sit here"
    assert not Tournament.objects.filter(table_settings__master=player).exists()
