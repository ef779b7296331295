"""The queries of the table API's requests that write (issue 20): opening a table, inviting,
sitting, dealing and voting to end, on PostgreSQL, as the production shape serves them (table
hosts keep the tables: these requests play no robot). Counted as
tests/play/test_decision_queries.py counts, the token's look-up included.

Opening a table is over the 6 of a decision and a state (it writes a row to each of nine
tables or more: the tournament, its settings, entrants, members, round and match, the live
match and the presence), so each request has its own ceiling, the count it was brought down to
(and what it was before), so that none creeps back: a table opened against a robot was 43
queries through the generic start of a tournament that read back every row just written, then
23, dealt in a transaction of its own and its state read back. `quick/`, `sit/` and `open/`
answer with the state their transaction left (tables.services.Written), reading nothing back:
the state a read gives just after."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from players.people import player_for
from tests.factories import UserFactory
from tests.play.test_decision_queries import queries
from tests.play.test_state_queries import token_client
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.postgres

# request: (its ceiling now, what it cost before)
CEILINGS = {
    "quick against a robot": (12, 23),
    "quick for people": (9, 14),
    "invite": (5, 6),
    "sit": (5, 9),
    "open (the deal)": (6, 12),
    "end-vote": (6, 10),
    "end-vote that ends it": (8, 17),
}


@pytest.fixture
def hosted(settings):
    settings.TRUCO_TABLES = "hosts"  # nobody holds these tables: the requests are counted alone


def counted(seen: dict, name: str, client, path: str, body: dict) -> dict:
    with CaptureQueriesContext(connection) as captured:
        answer = client.post(path, body, format="json")
    assert answer.status_code in (200, 201), (name, answer.content)
    seen[name] = len(queries(captured))
    return answer.json()


def test_each_write_of_a_table_stays_within_its_ceiling(hosted):
    master, guest = UserFactory(), UserFactory()
    player_for(guest)
    client, guest_client = token_client(master), token_client(guest)
    # The master's first table makes their player and wallet: counted from the second.
    client.post("/api/play/quick/", {"variant": "paulista", "bot": "heuristic"}, format="json")
    seen: dict[str, int] = {}
    against_robot = counted(
        seen,
        "quick against a robot",
        client,
        "/api/play/quick/",
        {"variant": "paulista", "bot": "heuristic"},
    )
    assert against_robot["waiting"] in ("human", "bots")  # dealt at once
    people = counted(
        seen, "quick for people", client, "/api/play/quick/", {"variant": "paulista", "bot": ""}
    )
    path = f"/api/play/matches/{people['match']}/"
    options = counted(seen, "invite", client, path + "invite/", {"players": [guest.username]})
    assert options["invited"] == [guest.username]
    counted(seen, "sit", guest_client, path + "sit/", {})
    dealt = counted(seen, "open (the deal)", client, path + "open/", {})
    assert dealt["status"] == "running"
    vote = counted(seen, "end-vote", client, path + "end-vote/", {"agree": True})
    assert not vote["ended"]
    vote = counted(seen, "end-vote that ends it", guest_client, path + "end-vote/", {"agree": True})
    assert vote["ended"]
    over = {name: count for name, count in seen.items() if count > CEILINGS[name][0]}
    assert not over, f"over their ceilings: {over} (ceilings {CEILINGS})"


def test_a_table_is_opened_running_with_its_one_match_seeded_in_order():
    """What the generic start would have made of it: running, the player seeded first, one
    match of the first round between the two entrants, pending until dealt."""
    from tables.quick import quick_match

    user = UserFactory()
    match = quick_match(user, variant="paulista", bot=None, players=4)
    tournament = Tournament.objects.get(pk=match.tournament_id)
    assert tournament.status == Tournament.Status.RUNNING and tournament.started_at is not None
    entrants = list(tournament.entrants.order_by("seed"))
    assert [e.seed for e in entrants] == [1, 2]
    assert [p.user_id for p in entrants[0].members.all()] == [user.pk]
    (only,) = Match.objects.filter(tournament=tournament)
    assert (only.entrant_a_id, only.entrant_b_id) == (entrants[0].pk, entrants[1].pk)
    assert only.round.number == 1 and only.status == Match.Status.PENDING


def same_as_a_read(client, answer) -> None:
    """The state a write answered with is the one a read of the table gives just after (nobody
    plays these tables: no host runs)."""
    read = client.get(f"/api/play/matches/{answer.json()['match']}/")
    written, again = answer.json(), read.json()
    for state in (written, again):
        state.pop("seconds_left", None)  # the clock runs
    assert written == again


def test_the_writes_answer_the_state_a_read_gives(hosted):
    """At a table against a robot, and at a table of four people: the master's seat team
    completed (its members read in their order), the free team taken, the deal."""
    master, first, second = UserFactory(), UserFactory(), UserFactory()
    client = token_client(master)
    against_robot = client.post(
        "/api/play/quick/", {"variant": "paulista", "bot": "heuristic"}, format="json"
    )
    assert against_robot.status_code == 201
    same_as_a_read(client, against_robot)
    people = client.post(
        "/api/play/quick/", {"variant": "paulista", "bot": "", "players": 4}, format="json"
    )
    assert people.status_code == 201
    same_as_a_read(client, people)
    path = f"/api/play/matches/{people.json()['match']}/"
    for user in (first, second):
        guest = token_client(user)
        sat = guest.post(path + "sit/", {}, format="json")
        assert sat.status_code == 200, sat.content
        same_as_a_read(guest, sat)
    dealt = client.post(path + "open/", {}, format="json")
    assert dealt.status_code == 200 and dealt.json()["status"] == "running"
    same_as_a_read(client, dealt)
