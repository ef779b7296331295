"""At most 6 SQL queries a request for the table REST API (issue 20), on PostgreSQL: the state
read from the rows in each of its shapes (a spectator's `GET` of a table in play; a player's
`GET` of a table no host keeps: in play without hosts, between games, the match over) at a
table against robots and at a table of invited people, 1v1 and of 4; and a REST act in play.

Counted as tests/play/test_decision_queries.py counts (BEGIN/COMMIT/SAVEPOINT left out), the
token's look-up included (scripts and the bench send one). With table hosts and none holding
the table, the heartbeats' one-second cache is cold (its query counted: the worst case)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from players.people import player_for
from tables import host_health
from tables.quick import quick_match
from tables.services import open_match
from tables.table_master import sit
from tests.factories import UserFactory
from tests.play.test_decision_queries import MAX_QUERIES, queries

pytestmark = pytest.mark.postgres

KINDS = ("robots 1v1", "robots 4", "people 1v1", "people 4")


def token_client(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


class Table:
    """A table of `kind` with a person invited (and, at a table of people, seated), played
    through the REST API (inline: each request plays the robots); its players' clients by
    player id, a spectator's client (signed in: the worst case), and each counted `GET`."""

    def __init__(self, kind: str):
        people = kind.startswith("people")
        players = 4 if kind.endswith("4") else 2
        master, guest = UserFactory(), UserFactory()
        self.master, self.guest = player_for(master), player_for(guest)
        invited = player_for(UserFactory())  # invited, never sits: a name in the options
        match = quick_match(
            master,
            variant="paulista",
            bot=None if people else "heuristic",
            players=players,
            games=2,
            turn_seconds=0,
            invite=[self.guest.name, invited.name],
        )
        self.invited = sorted([self.guest.name, invited.name])
        self.path = f"/api/play/matches/{match.pk}/"
        if people:
            sit(match.pk, guest, None, "10.0.0.2")
        open_match(match.pk, master, "10.0.0.1")
        self.clients = {self.master.pk: token_client(master)}
        if people:
            self.clients[self.guest.pk] = token_client(guest)
        self.spectator = token_client(UserFactory())
        self.counted: dict[str, list[str]] = {}

    @property
    def master_client(self) -> APIClient:
        return self.clients[self.master.pk]

    def get(self, shape: str, client: APIClient) -> dict:
        host_health._cached = None  # the heartbeats' cache cold (read only with hosts)
        with CaptureQueriesContext(connection) as captured:
            answer = client.get(self.path)
        assert answer.status_code == 200, answer.content
        seen = queries(captured)
        if len(seen) >= len(self.counted.get(shape, [])):
            self.counted[shape] = seen
        state = answer.json()
        assert state["settings"]["invited"] == self.invited  # read in the match's query
        return state

    def count_gets(self, when: str) -> None:
        self.get(f"player {when}", self.master_client)
        self.get(f"spectator {when}", self.spectator)

    def act(self, state: dict) -> dict:
        """The person to act plays their first legal action; counted while it ends no game."""
        seat = state["to_act"]
        player = state["seats"][seat]["player"]
        client = self.clients[player]
        mine = client.get(self.path).json()
        legal = mine["observations"][str(seat)]["legal"]
        body = {"action": legal[0], "seat": seat, "turn": mine["turn"]}
        with CaptureQueriesContext(connection) as captured:
            answer = client.post(self.path + "act/", body, "json")
        assert answer.status_code == 200, answer.content
        after = answer.json()
        if after["waiting"] == "human" and after["game"]["finished"] == mine["game"]["finished"]:
            seen = queries(captured)
            if len(seen) >= len(self.counted.get("act in play", [])):
                self.counted["act in play"] = seen
        return after

    def play(self, count: Callable[[str], None]) -> None:
        """The match to its end, `count`ing the GETs in play, between games and at its end."""
        state = self.master_client.get(self.path).json()
        counted_in_play = False
        while state["status"] == "running":
            if state["waiting"] == "next":
                count("between games")
                state = self.master_client.post(self.path + "open/").json()
                continue
            assert state["waiting"] == "human", state
            if not counted_in_play:
                count("in play")
                counted_in_play = True
            state = self.act(state)
        count("match over")

    def report(self) -> str:
        lines = []
        for shape, sqls in sorted(self.counted.items()):
            lines.append(f"{shape}: {len(sqls)}")
            lines += [f"    {sql[:150]}" for sql in sqls]
        return "\n".join(lines)


def assert_at_most_six(table: Table, shapes: list[str]) -> None:
    print(table.report())
    assert set(shapes) <= set(table.counted), table.counted.keys()
    worst = {shape: len(table.counted[shape]) for shape in shapes}
    assert max(worst.values()) <= MAX_QUERIES, f"{worst}\n{table.report()}"


SHAPES = [
    f"{who} {when}"
    for who in ("player", "spectator")
    for when in ("in play", "between games", "match over")
]


@pytest.mark.parametrize("kind", KINDS)
def test_a_rest_state_read_from_the_rows_costs_at_most_six_queries_in_every_shape(kind):
    """Without table hosts (TRUCO_TABLES=inline) every state is read from the rows; so is a
    REST act's answer (the table the request played)."""
    table = Table(kind)
    table.play(table.count_gets)
    assert_at_most_six(table, [*SHAPES, "act in play"])


@pytest.mark.parametrize("kind", KINDS)
def test_with_table_hosts_a_state_no_host_keeps_costs_at_most_six_queries(kind, settings):
    """With table hosts and none holding the table (a spectator's in play; a player's between
    games and at the match's end, or in play when no host answers), the rows are read as
    without hosts, and the heartbeats say whether a host is there to play the robots."""
    table = Table(kind)

    def count(when: str) -> None:
        settings.TRUCO_TABLES = "hosts"
        try:
            table.count_gets(when)
        finally:
            settings.TRUCO_TABLES = "inline"  # the test's requests play the table

    table.play(count)
    assert_at_most_six(table, SHAPES)
