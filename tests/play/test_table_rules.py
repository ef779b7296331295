"""The table rules of RULES.md section 5, as players meet them at /api/play/: chips and the stake,
ranking points and the shared-IP rule, private tables and invitations, the table chat, the table
master, the amicable end and the daily deals.

Games are played out quickly by letting robots take every human seat (the humans are away past
the disconnection grace), which pays them exactly as if the humans had played."""

from __future__ import annotations

import time
from datetime import date, timedelta

import pytest
from django.db.models import Sum
from django.utils import timezone
from rest_framework.test import APIClient

from players.models import Player, Rating
from tables import chips
from tables.chips import wallet_of
from tables.models import (
    STARTING_CHIPS,
    ChatMessage,
    ChipTransfer,
    LiveMatch,
    Presence,
    SettledGame,
    Wallet,
    settings_of,
)
from tables.services import advance
from tests.factories import BotFactory, PlayerFactory, TournamentFactory, human_entrant
from tests.play.tables import table_now
from tournaments import lifecycle
from tournaments.models import Entrant, Match, Tournament

pytestmark = pytest.mark.postgres  # row locks and commits as in production


# --- helpers ------------------------------------------------------------------------------


def client(player: Player, ip: str = "127.0.0.1") -> APIClient:
    api = APIClient(REMOTE_ADDR=ip)
    api.force_authenticate(player.user)
    return api


def url(match, what: str = "") -> str:
    pk = match if isinstance(match, int) else match.pk
    return f"/api/play/matches/{pk}/{what + '/' if what else ''}"


def tournament_table(*, players=2, games=1, bot=False, **table) -> tuple[Match, list[Player]]:
    """A staff tournament's match: two human teams (or a human and a bot)."""
    tournament = TournamentFactory(
        games_per_match=games,
        players=players,
        **{f"table__{k}": v for k, v in table.items()},
    )
    humans = [PlayerFactory(), PlayerFactory()]
    human_entrant(tournament, humans[0])
    if bot:
        robot = BotFactory(plugin="random")
        Entrant.objects.create(tournament=tournament, name=robot.label, bot=robot)
        humans = humans[:1]
    else:
        human_entrant(tournament, humans[1])
    lifecycle.start(tournament)
    return Match.objects.get(tournament=tournament), humans


def own_table(master: Player, ip: str = "10.0.0.1", **body) -> dict:
    """`master` opens a table for people (no bot): it waits for them to sit."""
    response = client(master, ip).post(
        "/api/play/quick/", {"variant": "paulista", **body}, format="json"
    )
    assert response.status_code == 201, response.json()
    return response.json()


def seat_all(match_id: int, guests: list[tuple[Player, str]]) -> None:
    for guest, ip in guests:
        response = client(guest, ip).post(url(match_id, "sit"), {}, format="json")
        assert response.status_code == 200, response.json()


def robots_finish(match_id: int) -> None:
    """Everybody is away past the grace: robots play the game in progress to its end."""
    long_ago = timezone.now() - timedelta(hours=1)
    Presence.objects.filter(live_id=match_id).update(last_seen=long_ago)
    LiveMatch.objects.filter(pk=match_id).update(started_at=long_ago)
    advance(match_id)


def winner_and_loser(match_id: int, a: Player, b: Player) -> tuple[Player, Player]:
    live = LiveMatch.objects.get(pk=match_id)
    game = live.games[-1]
    match = Match.objects.get(pk=match_id)
    side_of_a = "a" if match.entrant_a.members.filter(pk=a.pk).exists() else "b"
    a_team = game["a_team"] if side_of_a == "a" else 1 - game["a_team"]
    return (a, b) if game["winner"] == a_team else (b, a)


def fresh(*players: Player) -> list[Wallet]:
    """The players' wallets as they are now (chips and ranking points)."""
    return [wallet_of(Player.objects.get(pk=p.pk)) for p in players]


def ledger_sum(**where) -> int:
    return ChipTransfer.objects.filter(**where).aggregate(total=Sum("amount"))["total"] or 0


# --- chips and the stake --------------------------------------------------------------------


def test_stake_winners_share_the_pot_and_the_bank_keeps_a_quarter():
    match, (ana, bea) = tournament_table(competitive=True, stake=100)
    client(ana, "10.0.0.1").post(url(match, "open"))
    client(bea, "10.0.0.2").post(url(match, "open"))
    robots_finish(match.pk)
    winner, loser = fresh(*winner_and_loser(match.pk, ana, bea))
    # A pot of 200: three quarters (150) to the winner, 50 to the bank.
    assert (winner.chips, loser.chips) == (STARTING_CHIPS + 50, STARTING_CHIPS - 100)
    assert chips.bank_balance() == 50
    assert ledger_sum(match=match) == 0  # no chip created or lost: the bank's share is a row
    for wallet in (winner, loser):
        assert wallet.chips == STARTING_CHIPS + ledger_sum(player=wallet.player)
    settled = SettledGame.objects.get(match=match)
    assert (settled.pot, settled.bank_share) == (200, 50)


def test_stake_split_rounds_each_share_down_and_the_odd_chips_stay_with_the_bank():
    shares, bank = chips.split_pot({0: 3, 1: 3, 2: 3, 3: 3}, winners=[0, 2])
    assert shares == {0: 4, 2: 4} and bank == 4  # 3/4 of 12 is 9: 4 each, the odd chip banked
    shares, bank = chips.split_pot({0: 1, 1: 1}, winners=[1])
    assert shares == {1: 1} and bank == 1
    shares, bank = chips.split_pot({0: 10, 1: 10}, winners=[])
    assert shares == {0: 10, 1: 10} and bank == 0  # no winner: everyone takes their stake back


def test_stake_against_a_bot_is_an_even_bet_the_bank_backs_the_bot():
    match, (ana,) = tournament_table(competitive=True, stake=100, bot=True)
    client(ana).post(url(match, "open"))
    robots_finish(match.pk)
    live = LiveMatch.objects.get(pk=match.pk)
    ana_won = live.games[0]["winner"] == live.games[0]["a_team"]
    ana = fresh(ana)[0]
    assert ana.chips == STARTING_CHIPS + (50 if ana_won else -100)
    assert chips.bank_balance() == -(ana.chips - STARTING_CHIPS)  # the bank is the other side
    assert ledger_sum(match=match) == 0


def test_stake_a_player_without_enough_chips_cannot_sit_at_a_staked_table():
    match, (ana, bea) = tournament_table(competitive=True, stake=100)
    Wallet.objects.update_or_create(player=ana, defaults={"chips": 40})
    refused = client(ana).post(url(match, "open"))
    assert refused.status_code == 403
    assert (
        "stake is 100 chips" in refused.json()["detail"]
        and "you have 40" in refused.json()["detail"]
    )
    poor = PlayerFactory()
    Wallet.objects.update_or_create(player=poor, defaults={"chips": 10})
    table = client(poor).post(
        "/api/play/quick/",
        {"variant": "paulista", "bot": "random", "competitive": True, "stake": 50},
        format="json",
    )
    assert table.status_code == 400 and "you have 10 chips" in str(table.json()["stake"])


def test_stake_at_a_practice_table_is_refused_with_the_reason():
    ana = PlayerFactory()
    table = client(ana).post(
        "/api/play/quick/",
        {"variant": "paulista", "bot": "random", "competitive": False, "stake": 50},
        format="json",
    )
    assert table.status_code == 400
    assert "only at a competitive table" in str(table.json()["stake"])
    match_id = own_table(ana, competitive=True, stake=20)["match"]
    practice = client(ana).patch(url(match_id, "table"), {"competitive": False}, format="json")
    assert (
        practice.status_code == 400 and "only at a competitive table" in practice.json()["detail"]
    )
    both = client(ana).patch(
        url(match_id, "table"), {"competitive": False, "stake": 0}, format="json"
    )
    assert both.status_code == 200 and both.json()["competitive"] is False


def test_competitive_off_practice_moves_no_chips_and_gives_no_points():
    match, (ana, bea) = tournament_table(competitive=False, stake=100)
    client(ana, "10.0.0.1").post(url(match, "open"))
    client(bea, "10.0.0.2").post(url(match, "open"))
    robots_finish(match.pk)
    assert Match.objects.get(pk=match.pk).status == Match.Status.DONE
    assert [p.chips for p in fresh(ana, bea)] == [STARTING_CHIPS, STARTING_CHIPS]
    assert [p.ranking_points for p in fresh(ana, bea)] == [0, 0]
    assert not ChipTransfer.objects.exists() and not SettledGame.objects.exists()
    assert not Rating.objects.exists()


def test_stake_of_a_game_is_paid_once_even_if_it_is_settled_again():
    from tables.settlement import settle_game

    match, (ana, bea) = tournament_table(competitive=True, stake=100)
    client(ana, "10.0.0.1").post(url(match, "open"))
    client(bea, "10.0.0.2").post(url(match, "open"))
    table = table_now(match.pk)
    robots_finish(match.pk)
    balances = [p.chips for p in fresh(ana, bea)]
    # A match played again (re-run) ends its games again: they are not paid twice.
    assert settle_game(match.pk, 0, settings_of(match.tournament), table.seats, 0) is None
    assert [p.chips for p in fresh(ana, bea)] == balances
    assert SettledGame.objects.filter(match=match).count() == 1


def test_stake_balances_show_in_the_api_and_staff_set_them_in_the_admin_through_the_ledger(
    staff,
):
    from django.test import Client
    from django.urls import reverse

    ana = PlayerFactory()
    bot = BotFactory()
    players = {p["name"]: p for p in APIClient().get("/api/players/").json()["results"]}
    assert players[ana.name]["chips"] == STARTING_CHIPS
    assert players[bot.label]["chips"] is None  # the bank backs bots: they hold no chips
    browser = Client()
    browser.force_login(staff)
    wallet_of(ana)  # a person's wallet, made with the starting chips on first need
    change = reverse("admin:play_wallet_change", args=[ana.pk])
    form = {"player": ana.pk, "chips": 2500}
    assert browser.post(change, form).status_code == 302
    row = ChipTransfer.objects.get(player=ana)
    assert fresh(ana)[0].chips == 2500
    assert (row.amount, row.kind, row.balance_after) == (1500, "adjust", 2500)
    assert staff.username in row.note
    assert "1 movements" in browser.get(change).content.decode()


# --- ranking points ---------------------------------------------------------------------------


def test_ranking_winners_get_20_points_and_losers_5():
    match, (ana, bea) = tournament_table(competitive=True)
    client(ana, "10.0.0.1").post(url(match, "open"))
    client(bea, "10.0.0.2").post(url(match, "open"))
    robots_finish(match.pk)
    winner, loser = fresh(*winner_and_loser(match.pk, ana, bea))
    assert (winner.ranking_points, loser.ranking_points) == (20, 5)
    ladder = APIClient().get("/api/players/?kind=human&ordering=-ranking_points").json()
    assert [p["ranking_points"] for p in ladder["results"]][:2] == [20, 5]


def test_ranking_and_chips_not_moved_when_two_players_at_the_table_share_an_ip_address():
    """Every signup gets 1,000 chips: throwaway accounts from one address losing staked games
    on purpose fed a main account. Sharing an address moves neither points nor chips."""
    match, (ana, bea) = tournament_table(competitive=True, stake=10)
    client(ana, "192.0.2.7").post(url(match, "open"))
    client(bea, "192.0.2.7").post(url(match, "open"))
    robots_finish(match.pk)
    assert [p.ranking_points for p in fresh(ana, bea)] == [0, 0]
    settled = SettledGame.objects.get(match=match)
    assert not settled.ranked and "share an IP" in settled.not_ranked_because
    assert [p.chips for p in fresh(ana, bea)] == [STARTING_CHIPS, STARTING_CHIPS]
    assert settled.pot == 0 and not ChipTransfer.objects.exists() and chips.bank_balance() == 0


def test_chips_move_between_players_at_different_addresses():
    match, (ana, bea) = tournament_table(competitive=True, stake=10)
    client(ana, "192.0.2.7").post(url(match, "open"))
    client(bea, "192.0.2.8").post(url(match, "open"))
    robots_finish(match.pk)
    assert sorted(p.chips for p in fresh(ana, bea)) != [STARTING_CHIPS, STARTING_CHIPS]
    assert SettledGame.objects.get(match=match).pot == 20


def test_ranking_records_the_ip_a_human_plays_from():
    match, (ana, bea) = tournament_table(competitive=True)
    ana_api = client(ana, "198.51.100.4")
    state = ana_api.post(url(match, "open")).json()
    client(ana, "203.0.113.9").get(url(match))
    ips = Presence.objects.get(live_id=match.pk, player=ana).ips
    assert ips == ["198.51.100.4", "203.0.113.9"]
    assert state["status"] == "running"


def test_ranking_only_competitive_games_count_bots_get_no_points():
    match, (ana,) = tournament_table(competitive=True, bot=True)
    client(ana).post(url(match, "open"))
    robots_finish(match.pk)
    assert fresh(ana)[0].ranking_points in (20, 5)
    assert not Wallet.objects.filter(player__kind="bot", ranking_points__gt=0).exists()


def test_ranking_points_are_on_the_ratings_page():
    from django.test import Client

    ana = PlayerFactory()
    Wallet.objects.update_or_create(player=ana, defaults={"ranking_points": 45})
    page = Client().get("/ratings/?variant=paulista").content.decode()
    assert "Ranking points" in page and ana.name in page and ">45<" in page


# --- private tables and the chat --------------------------------------------------------------


def test_private_table_only_invited_players_may_sit():
    master, guest, stranger = PlayerFactory(), PlayerFactory(), PlayerFactory()
    state = own_table(master, private=True, invite=[guest.name])
    match_id = state["match"]
    refused = client(stranger).post(url(match_id, "sit"), {}, format="json")
    assert refused.status_code == 403
    assert refused.json()["detail"] == "this table is private: only invited players may sit"
    assert client(stranger).post(url(match_id, "open")).status_code == 403
    assert (
        client(stranger).post(url(match_id, "act"), {"action": "truco"}).json()["detail"]
        == "this table is private: only invited players may sit"
    )
    sat = client(guest, "10.0.0.2").post(url(match_id, "sit"), {}, format="json")
    assert sat.status_code == 200 and sat.json()["you"]
    # The master invites later players by name; an unknown name is a 400.
    later = PlayerFactory()
    bad = client(master).post(url(match_id, "invite"), {"players": ["nobody"]}, format="json")
    assert bad.status_code == 400 and "nobody" in bad.json()["detail"]
    ok = client(master).post(url(match_id, "invite"), {"players": [later.name]}, format="json")
    assert later.name in ok.json()["invited"]


def test_private_tournament_table_strangers_get_403_when_opening_or_acting():
    match, (ana, bea) = tournament_table(private=True)
    client(ana).post(url(match, "open"))
    stranger = client(PlayerFactory())
    for response in (
        stranger.post(url(match, "open")),
        stranger.post(url(match, "act"), {"action": "truco"}),
        stranger.post(url(match, "sit"), {}, format="json"),
    ):
        assert response.status_code == 403 and response.json()["detail"]


def test_spectators_may_watch_and_chat_at_a_table_that_allows_them():
    match, (ana, bea) = tournament_table(spectators=True)
    client(ana).post(url(match, "open"))
    watcher = PlayerFactory()
    said = client(watcher).post(url(match, "chat"), {"text": "¡Truco!"}, format="json")
    assert said.status_code == 201 and said.json()["player"] is False
    client(ana).post(url(match, "chat"), {"text": "buenas"}, format="json")
    lines = APIClient().get(url(match, "chat")).json()
    assert [(m["author"], m["text"], m["player"]) for m in lines] == [
        (watcher.name, "¡Truco!", False),
        (ana.name, "buenas", True),
    ]
    after = APIClient().get(url(match, "chat") + f"?after={lines[0]['id']}").json()
    assert [m["text"] for m in after] == ["buenas"]


def test_spectators_off_only_the_players_read_and_write_the_chat():
    match, (ana, bea) = tournament_table(spectators=False)
    client(ana).post(url(match, "open"))
    assert client(ana).post(url(match, "chat"), {"text": "hola"}, format="json").status_code == 201
    stranger = client(PlayerFactory())
    assert stranger.post(url(match, "chat"), {"text": "hi"}, format="json").status_code == 403
    assert stranger.get(url(match, "chat")).status_code == 403
    assert APIClient().post(url(match, "chat"), {"text": "hi"}, format="json").status_code in (
        401,
        403,
    )
    assert [m["text"] for m in client(bea).get(url(match, "chat")).json()] == ["hola"]


def test_chat_is_plain_text_limited_in_length_and_stored_as_said():
    match, (ana, bea) = tournament_table()
    api = client(ana)
    html = api.post(url(match, "chat"), {"text": "<b>hi</b>\n\x1b[31mthere"}, format="json")
    assert html.json()["text"] == "<b>hi</b> [31mthere"  # one line; markup is shown, not run
    too_long = api.post(url(match, "chat"), {"text": "a" * 301}, format="json")
    assert too_long.status_code == 400 and "300 characters" in too_long.json()["detail"]
    empty = api.post(url(match, "chat"), {"text": "  \n "}, format="json")
    assert empty.status_code == 400
    assert api.get(url(match, "chat") + "?after=x").status_code == 400
    assert ChatMessage.objects.count() == 1


# --- the table master -------------------------------------------------------------------------


def test_table_master_is_the_first_seated_and_only_they_change_the_options():
    master, guest = PlayerFactory(), PlayerFactory()
    state = own_table(master)
    match_id = state["match"]
    assert state["settings"]["master"]["name"] == master.name
    seat_all(match_id, [(guest, "10.0.0.2")])
    refused = client(guest).patch(url(match_id, "table"), {"stake": 5}, format="json")
    assert refused.status_code == 403 and master.name in refused.json()["detail"]
    changed = client(master).patch(
        url(match_id, "table"),
        {"competitive": True, "stake": 20, "turn_seconds": 15},
        format="json",
    )
    assert changed.status_code == 200, changed.json()
    assert (changed.json()["stake"], changed.json()["competitive"]) == (20, True)
    assert client(guest).post(url(match_id, "open")).status_code == 409  # the master deals
    assert client(master).post(url(match_id, "open")).json()["status"] == "running"


def test_table_master_changes_options_only_before_a_game_or_between_two_games():
    master, guest = PlayerFactory(), PlayerFactory()
    match_id = own_table(master, games=2)["match"]
    seat_all(match_id, [(guest, "10.0.0.2")])
    client(master).post(url(match_id, "open"))
    during = client(master).patch(url(match_id, "table"), {"stake": 10}, format="json")
    assert during.status_code == 409 and "between two games" in during.json()["detail"]
    robots_finish(match_id)  # the first game ends: the table waits for its master
    between = client(master).get(url(match_id)).json()
    assert between["waiting"] == "next" and between["observations"] == {}
    assert between["table"] is None  # nobody sees the next game's cards before it is dealt
    changed = client(master).patch(url(match_id, "table"), {"turn_seconds": 90}, format="json")
    assert changed.status_code == 200 and changed.json()["turn_seconds"] == 90
    dealt = client(master).post(url(match_id, "open")).json()
    assert dealt["game"]["index"] == 1 and dealt["waiting"] in ("human", "bots")


def test_table_master_deals_only_when_everyone_seated_covers_the_stake():
    master, guest = PlayerFactory(), PlayerFactory()
    match_id = own_table(master, competitive=True, stake=100)["match"]
    seat_all(match_id, [(guest, "10.0.0.2")])
    Wallet.objects.update_or_create(player=guest, defaults={"chips": 30})
    refused = client(master).post(url(match_id, "open"))
    assert refused.status_code == 409 and f"{guest.name} (30)" in refused.json()["detail"]
    client(master).patch(url(match_id, "table"), {"stake": 30}, format="json")
    assert client(master).post(url(match_id, "open")).json()["status"] == "running"


def test_table_master_table_for_people_free_seats_are_taken_between_games_only():
    master, partner, rival, late = (PlayerFactory() for _ in range(4))
    state = own_table(master, players=4)
    match_id = state["match"]
    assert state["status"] == "pending" and state["free_seats"] == 3
    sat = client(partner, "10.0.0.2").post(url(match_id, "sit"), {"side": "a"}, format="json")
    mine = [s for s in sat.json()["seats"] if s["player"] in (master.pk, partner.pk)]
    assert len({s["team"] for s in mine}) == 1  # partners, sitting opposite
    seat_all(match_id, [(rival, "10.0.0.3")])
    again = client(rival, "10.0.0.3").post(url(match_id, "sit"), {}, format="json")
    assert again.status_code == 409
    dealt = client(master).post(url(match_id, "open")).json()
    assert dealt["free_seats"] == 1  # a robot plays the seat nobody took
    during = client(late).post(url(match_id, "sit"), {}, format="json")
    assert during.status_code == 409 and "sit down when it ends" in during.json()["detail"]


def test_table_master_does_not_exist_at_a_tournament_table():
    match, (ana, bea) = tournament_table()
    refused = client(ana).patch(url(match, "table"), {"stake": 10}, format="json")
    assert refused.status_code == 403 and "staff" in refused.json()["detail"]
    assert client(ana).get(url(match, "table")).json()["master"] is None


# --- the amicable end -------------------------------------------------------------------------


def staked_table_of_two(stake=100) -> tuple[int, Player, Player]:
    master, guest = PlayerFactory(), PlayerFactory()
    match_id = own_table(master, competitive=True, stake=stake)["match"]
    seat_all(match_id, [(guest, "10.0.0.2")])
    client(master).post(url(match_id, "open"))
    client(guest, "10.0.0.2").get(url(match_id))
    return match_id, master, guest


def test_amicable_end_needs_every_human_and_cancels_the_game_without_points_or_chips():
    match_id, ana, bea = staked_table_of_two()
    first = client(ana).post(url(match_id, "end-vote"), {}, format="json").json()
    assert first == {"agreed": [ana.pk], "voters": sorted([ana.pk, bea.pk]), "ended": False}
    assert Match.objects.get(pk=match_id).status == Match.Status.RUNNING
    last = client(bea, "10.0.0.2").post(url(match_id, "end-vote"), {}, format="json").json()
    assert last["ended"] is True
    match = Match.objects.get(pk=match_id)
    assert match.status == Match.Status.CANCELLED and match.tournament.status == "cancelled"
    assert match.finished_at and match.tournament.finished_at
    assert match.summary == {"ended": "amicably", "game": 0}
    # The last vote is written with the end: the table shows who agreed to it.
    live = LiveMatch.objects.get(match_id=match_id)
    assert live.waiting == LiveMatch.Waiting.DONE and sorted(live.end_votes) == sorted(
        [ana.pk, bea.pk]
    )
    assert [p.chips for p in fresh(ana, bea)] == [STARTING_CHIPS, STARTING_CHIPS]
    assert [p.ranking_points for p in fresh(ana, bea)] == [0, 0]
    assert not Rating.objects.exists() and not ChipTransfer.objects.exists()
    assert client(ana).post(url(match_id, "act"), {"action": "truco"}).status_code == 409


def away(match_id: int, player: Player) -> None:
    """`player` left: a robot plays their seat past the disconnection grace."""
    Presence.objects.filter(live_id=match_id, player=player).update(
        last_seen=timezone.now() - timedelta(hours=1)
    )


def test_amicable_end_a_staked_game_against_a_robot_is_played_out():
    """Robots do not vote, so the only person's vote was unanimous: a player behind against
    the robot voided the loss (chips 1000 -> 1000) while wins were paid. RULES.md section 5:
    against robots only practice games end by vote."""
    for body in ({"competitive": True, "stake": 100}, {"competitive": True}):
        ana = PlayerFactory()
        response = client(ana).post(
            "/api/play/quick/",
            {"variant": "paulista", "bot": "random", "games": 1, **body},
            format="json",
        )
        assert response.status_code == 201, response.json()
        match_id = response.json()["match"]
        refused = client(ana).post(url(match_id, "end-vote"), {"agree": True}, format="json")
        assert refused.status_code == 409, refused.json()
        assert "only practice games end by vote" in refused.json()["detail"]
        assert Match.objects.get(pk=match_id).status == Match.Status.RUNNING
        assert LiveMatch.objects.get(pk=match_id).end_votes == []
        assert client(ana).get(url(match_id)).json()["end_vote"]["voters"] == []
        robots_finish(match_id)  # played to the end, the stake is paid as the game went
        settled = SettledGame.objects.get(match_id=match_id)
        assert settled.stake == body.get("stake", 0)
    practice = client(ana).post(
        "/api/play/quick/", {"variant": "paulista", "bot": "random"}, format="json"
    )
    ended = client(ana).post(url(practice.json()["match"], "end-vote"), {}, format="json")
    assert ended.json()["ended"] is True  # practice: the person alone may stop


def test_amicable_end_of_a_staked_game_needs_a_person_present_on_each_side():
    """Bea stepped away (a robot plays for her): Ana alone cannot void the game in Bea's
    absence; once Bea is back and agrees too, it ends with the stakes returned."""
    match_id, ana, bea = staked_table_of_two(stake=100)
    away(match_id, bea)
    alone = client(ana).post(url(match_id, "end-vote"), {}, format="json").json()
    assert alone == {"agreed": [ana.pk], "voters": [ana.pk], "ended": False}
    assert Match.objects.get(pk=match_id).status == Match.Status.RUNNING
    client(bea, "10.0.0.2").get(url(match_id))  # she is back
    both = client(bea, "10.0.0.2").post(url(match_id, "end-vote"), {}, format="json").json()
    assert both["ended"] is True
    assert [w.chips for w in fresh(ana, bea)] == [STARTING_CHIPS, STARTING_CHIPS]


def test_amicable_end_robots_do_not_vote_and_a_player_who_abandoned_loses_the_stake():
    """Two against two, staked: one player of side b left. The three present agree (each side
    has one of them): the game ends, and the one who abandoned loses the stake to the bank."""
    master, partner, bea, ben = (PlayerFactory() for _ in range(4))
    match_id = own_table(master, players=4, competitive=True, stake=100)["match"]
    sat = client(partner, "10.0.0.2").post(url(match_id, "sit"), {"side": "a"}, format="json")
    assert sat.status_code == 200, sat.json()
    seat_all(match_id, [(bea, "10.0.0.3"), (ben, "10.0.0.4")])
    assert client(master).post(url(match_id, "open")).json()["status"] == "running"
    for player, ip in ((partner, "10.0.0.2"), (bea, "10.0.0.3"), (ben, "10.0.0.4")):
        client(player, ip).get(url(match_id))
    away(match_id, ben)
    client(master).post(url(match_id, "end-vote"), {}, format="json")
    client(partner, "10.0.0.2").post(url(match_id, "end-vote"), {}, format="json")
    vote = client(bea, "10.0.0.3").post(url(match_id, "end-vote"), {}, format="json").json()
    assert vote["voters"] == sorted([master.pk, partner.pk, bea.pk]) and vote["ended"] is True
    assert [w.chips for w in fresh(master, partner, bea)] == [STARTING_CHIPS] * 3
    assert fresh(ben)[0].chips == STARTING_CHIPS - 100 and chips.bank_balance() == 100
    assert ChipTransfer.objects.get(player=ben).kind == "forfeit"


def test_amicable_end_vote_can_be_withdrawn_and_lasts_until_the_game_ends():
    master, guest = PlayerFactory(), PlayerFactory()
    match_id = own_table(master, games=2)["match"]
    seat_all(match_id, [(guest, "10.0.0.2")])
    client(master).post(url(match_id, "open"))
    client(guest, "10.0.0.2").get(url(match_id))
    client(master).post(url(match_id, "end-vote"), {}, format="json")
    withdrawn = client(master).post(url(match_id, "end-vote"), {"agree": False}, format="json")
    assert withdrawn.json()["agreed"] == []
    client(master).post(url(match_id, "end-vote"), {}, format="json")
    robots_finish(match_id)  # the game ends: so does the vote
    assert LiveMatch.objects.get(pk=match_id).end_votes == []
    assert client(master).get(url(match_id)).json()["end_vote"]["agreed"] == []


def test_amicable_end_is_not_offered_at_a_tournament_match():
    match, (ana, bea) = tournament_table()
    client(ana).post(url(match, "open"))
    refused = client(ana).post(url(match, "end-vote"), {}, format="json")
    assert refused.status_code == 409 and "tournament" in refused.json()["detail"]


# --- daily deals ------------------------------------------------------------------------------


def first_hands(match_id: int) -> list:
    return [list(hand) for hand in table_now(match_id).game.state.hands]


def daily_table(player: Player, **body) -> int:
    response = client(player).post(
        "/api/play/quick/",
        {"variant": "paulista", "bot": "random", "daily": True, **body},
        format="json",
    )
    assert response.status_code == 201, response.json()
    return response.json()["match"]


def test_daily_deals_are_the_same_for_everyone_on_the_same_utc_day(monkeypatch):
    monkeypatch.setattr("tables.quick.utc_today", lambda: date(2025, 3, 14))
    ana_table = daily_table(PlayerFactory())
    # The same rules spelled differently (an option at its default) are the same daily deals.
    bea_table = daily_table(PlayerFactory(), options={"target": 12})
    assert Match.objects.get(pk=ana_table).seed == Match.objects.get(pk=bea_table).seed
    assert first_hands(ana_table) == first_hands(bea_table)
    monkeypatch.setattr("tables.quick.utc_today", lambda: date(2025, 3, 15))
    tomorrow = daily_table(PlayerFactory())
    assert Match.objects.get(pk=tomorrow).seed != Match.objects.get(pk=ana_table).seed
    four = daily_table(PlayerFactory(), players=4)
    assert Match.objects.get(pk=four).seed != Match.objects.get(pk=tomorrow).seed


def test_daily_off_a_new_game_gets_fresh_deals(user_api):
    seeds = set()
    for _ in range(3):
        state = user_api.post(
            "/api/play/quick/", {"variant": "paulista", "bot": "random"}, format="json"
        ).json()
        seeds.add(Match.objects.get(pk=state["match"]).seed)
    assert len(seeds) == 3


def test_daily_table_is_practice_it_cannot_be_competitive():
    player = PlayerFactory()
    refused = client(player).post(
        "/api/play/quick/",
        {"variant": "paulista", "bot": "random", "daily": True, "competitive": True},
        format="json",
    )
    assert refused.status_code == 400 and "daily" in refused.json()
    match_id = daily_table(player, bot="")
    changed = client(player).patch(url(match_id, "table"), {"competitive": True}, format="json")
    assert changed.status_code == 400 and "daily" in changed.json()["detail"]


def test_a_player_has_at_most_the_servers_number_of_tables_in_play(settings):
    """One user opening table after table against slow robots took the play workers from
    everyone: a player may have TRUCO_MAX_TABLES_PER_PLAYER in play; one that ends (here by the
    player's own vote) makes room for the next."""
    settings.TRUCO_MAX_TABLES_PER_PLAYER = 2
    ana = PlayerFactory()
    body = {"variant": "paulista", "bot": "random"}
    opened = [client(ana).post("/api/play/quick/", body, format="json") for _ in range(2)]
    assert [r.status_code for r in opened] == [201, 201]
    third = client(ana).post("/api/play/quick/", body, format="json")
    assert third.status_code == 400
    assert "you have 2 tables in play" in str(third.json())
    others = client(PlayerFactory()).post("/api/play/quick/", body, format="json")
    assert others.status_code == 201  # the cap is each player's own
    ended = client(ana).post(url(opened[0].json()["match"], "end-vote"), {}, format="json")
    assert ended.json()["ended"] is True
    assert client(ana).post("/api/play/quick/", body, format="json").status_code == 201


def test_the_master_cannot_cancel_or_delete_a_table_where_her_partner_plays(settings):
    """Her partner sat on her own side: her team's entrant holds both of them, and counting
    entrants without her skipped it, so she could cancel and delete his games."""
    settings.TRUCO_USERS_CREATE_TOURNAMENTS = True
    master, partner = PlayerFactory(), PlayerFactory()
    state = own_table(master, players=4)
    match_id = state["match"]
    client(partner, "10.0.0.2").post(url(match_id, "sit"), {"side": "a"}, format="json")
    assert client(master).post(url(match_id, "open")).json()["status"] == "running"
    tournament = Match.objects.get(pk=match_id).tournament_id
    for refused in (
        client(master).post(f"/api/tournaments/{tournament}/cancel/"),
        client(master).post(f"/api/tournaments/{tournament}/pause/"),
        client(master).delete(f"/api/tournaments/{tournament}/"),
    ):
        assert refused.status_code == 403, refused.json()
    assert Match.objects.get(pk=match_id).status == Match.Status.RUNNING


def test_stake_chips_staked_at_one_table_cannot_be_staked_again_at_another():
    """1000 chips covered four tables of 1000 at once: she lost the first, had nothing, and still
    collected the bank's winnings at the others, staking nothing."""
    eve = PlayerFactory()
    body = {"variant": "paulista", "bot": "random", "competitive": True, "stake": STARTING_CHIPS}
    first = client(eve).post("/api/play/quick/", body, format="json")
    assert first.status_code == 201 and first.json()["status"] == "running"
    second = client(eve).post("/api/play/quick/", body, format="json")
    assert second.status_code == 400
    assert f"{STARTING_CHIPS} of them staked at your other tables" in str(second.json())
    half = {**body, "stake": STARTING_CHIPS // 2}
    assert client(eve).post("/api/play/quick/", half, format="json").status_code == 400
    robots_finish(first.json()["match"])  # the first table's game ends: its stake is settled
    chips_now = fresh(eve)[0].chips  # won 750 or lost 1000: only what she has now counts
    expected = 201 if chips_now >= STARTING_CHIPS // 2 else 400
    assert client(eve).post("/api/play/quick/", half, format="json").status_code == expected


def test_tables_opened_at_once_are_counted_one_after_the_other(settings):
    """Twenty-five tables opened at the same moment made twenty-two, past a cap of ten: the
    count and the new table now happen under the player's row lock."""
    import threading

    from django.db import connection

    settings.TRUCO_MAX_TABLES_PER_PLAYER = 3
    peggy = PlayerFactory()
    body = {"variant": "paulista", "bot": "random"}
    statuses = []

    def open_one():
        try:
            statuses.append(client(peggy).post("/api/play/quick/", body, format="json").status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=open_one) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [201] * 3 + [400] * 5
    assert Tournament.objects.filter(table_settings__master=peggy).count() == 3


def test_tables_for_people_nobody_sat_at_do_not_hold_a_place(settings):
    """A table waiting for people runs no robot and cannot be ended by a vote before its first
    deal: counted, ten of them would have locked their master out of playing at all."""
    settings.TRUCO_MAX_TABLES_PER_PLAYER = 2
    ana = PlayerFactory()
    for _ in range(3):
        own_table(ana)  # for people: waits for them
    body = {"variant": "paulista", "bot": "random"}
    assert client(ana).post("/api/play/quick/", body, format="json").status_code == 201
    assert client(ana).post("/api/play/quick/", body, format="json").status_code == 201
    assert client(ana).post("/api/play/quick/", body, format="json").status_code == 400


def test_the_first_tables_against_a_built_in_bot_opened_at_once_all_open():
    """The built-in bot's row is made on its first use: six people opening their first table
    against "random" at once on a new site made it six times over, and all but one were told
    "this conflicts with existing data"."""
    import threading

    from django.db import connection

    body = {"variant": "paulista", "bot": "random"}
    statuses = []

    def open_one(player):
        try:
            statuses.append(
                client(player).post("/api/play/quick/", body, format="json").status_code
            )
        finally:
            connection.close()

    threads = [threading.Thread(target=open_one, args=(PlayerFactory(),)) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [201] * 6


# --- time control --------------------------------------------------------------------------


def test_a_tables_robot_that_empties_its_bank_loses_by_timeout_and_the_table_shows_the_control(
    monkeypatch,
):
    from bots.random_bot import RandomBot

    act = RandomBot.act

    def slow(self, observation):
        # Inside the decision's budget, and two of them empty a bank of 1 s: the rules
        # guarantee a robot at least two decisions in a game from 0-0 (no hand is worth 12
        # points without its answers), so the bank runs dry whatever the deals.
        time.sleep(0.55)
        return act(self, observation)

    monkeypatch.setattr(RandomBot, "act", slow)
    tournament = TournamentFactory(games_per_match=1, bank_seconds=1, increment_seconds=0)
    ana = PlayerFactory()
    human_entrant(tournament, ana)
    robot = BotFactory(plugin="random")
    Entrant.objects.create(tournament=tournament, name=robot.label, bot=robot)
    lifecycle.start(tournament)
    match = Match.objects.get(tournament=tournament)
    client(ana).post(url(match, "open"))
    assert client(ana).get(url(match)).json()["settings"]["time_control"] == "1+0"
    robots_finish(match.pk)  # Ana away: robots play both seats, hers without a bank
    game = LiveMatch.objects.get(pk=match.pk).games[-1]
    assert game["termination"] == "timeout", game["detail"]
    assert "time bank of the 1+0 time control" in game["detail"]
    ana_is_a = match.entrant_a.members.filter(pk=ana.pk).exists()
    robot_team = 1 - game["a_team"] if ana_is_a else game["a_team"]
    assert game["seat"] % 2 == robot_team  # the robot's bank ran dry
    assert game["winner"] != robot_team
