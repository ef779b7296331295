"""Nothing returns a 500: schemathesis generates requests from the OpenAPI schema (valid ones and
near misses) for every operation, sent by a staff user so that the write paths are reached, with
a tournament, a match with a game, and a bot (on the ladders) in the database for the ids to find."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token

from config.wsgi import application
from tests.factories import BotFactory, GameFactory, MatchFactory, StaffFactory
from tournaments.ladder import sync_boards

schema = schemathesis.openapi.from_wsgi("/api/schema/", application)


@pytest.fixture
def staff_token(db):
    staff = StaffFactory()
    BotFactory(owner=staff)
    GameFactory(match=MatchFactory())
    sync_boards()  # the bot on the ladders: entries and their history for the ids to find
    return Token.objects.create(user=staff).key


@schema.parametrize()
@settings(
    max_examples=8,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@pytest.mark.django_db
def test_no_request_gets_a_server_error(case, staff_token):
    response = case.call(headers={"Authorization": f"Token {staff_token}"})
    assert response.status_code < 500, (case.method, case.formatted_path, response.text[:500])
