"""Issue 16: the smoke match was easy to tell from a tournament (2 s a decision, always against
`random`, the same deals), so a bot could behave only while validated. It now has the decision
budget of the tournaments the version may enter, and an opponent among the built-in bots and
deals drawn from a keyed hash of the version that its author cannot compute."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from engine.bundles.smoke import OPPONENTS, smoke_draw
from engine.plugins import registry
from submitted_bots import smoke_match
from submitted_bots.models import Bot
from tests.factories import TournamentFactory
from tests.jail.conftest import jail_or_skip
from tournaments.models import Tournament

from .zips import make_zip

pytestmark = pytest.mark.django_db

# A bot that says, on its standard error (its log), the time per decision it was told.
TELLS_ITS_BUDGET = """
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("type") == "match":
        print("budget", m["decision_seconds"], file=sys.stderr, flush=True)
    if m.get("type") == "act":
        print(json.dumps({"action": m["legal"][0]}), flush=True)
"""


def upload(user_api, source: str = TELLS_ITS_BUDGET, name: str = "teller") -> Bot:
    manifest = f'name = "{name}"\ncommand = ["python3", "bot.py"]\nvariants = ["paulista"]\n'
    manifest += "players = [2]\n"
    data = make_zip({"bot.toml": manifest, "bot.py": source})
    response = user_api.post(
        "/api/bots/",
        {"bundle": SimpleUploadedFile("bot.zip", data, "application/zip")},
        format="multipart",
    )
    assert response.status_code == 201, response.json()
    return Bot.objects.get(pk=response.json()["id"])


def open_competition(**fields) -> Tournament:
    defaults = dict(
        variant="paulista", players=2, status="draft", registration_open=True, turn_seconds=4
    )
    return TournamentFactory(**{**defaults, **fields})


def test_the_smoke_match_has_the_decision_time_of_the_tournaments_the_bot_may_enter(
    user_api, queued_validations, settings
):
    jail_or_skip()
    settings.TRUCO_VALIDATION_DECISION_SECONDS = None
    settings.TRUCO_VALIDATION_GAMES = 1
    open_competition(turn_seconds=4)
    bot = upload(user_api)
    assert smoke_match.validate_version(bot.pk) == Bot.Status.READY
    bot.refresh_from_db()
    assert "budget 4.0" in bot.log  # what the bot was told, as a tournament would tell it
    assert bot.validation["decision_seconds"] == 4.0
    assert bot.validation["opponent"] in OPPONENTS


def test_the_budget_is_one_of_the_open_tournaments_else_the_servers_cap(user_api, settings):
    settings.TRUCO_VALIDATION_DECISION_SECONDS = None
    settings.TRUCO_MAX_BOT_DECISION_SECONDS = 10
    bot = upload(user_api)
    digest = smoke_match.draw_digest(bot)
    assert smoke_match.smoke_budget(bot, digest) == 10.0  # nothing open: a default tournament's
    # Not open to this version: started, closed, another variant, 2 v 2 (it plays 1 v 1), a
    # player's own table.
    open_competition(turn_seconds=2, status="running")
    open_competition(turn_seconds=2, registration_open=False)
    open_competition(turn_seconds=2, variant="mineiro")
    open_competition(turn_seconds=2, players=4)
    open_competition(turn_seconds=2, kind=Tournament.Kind.TABLE)
    assert smoke_match.smoke_budget(bot, digest) == 10.0
    open_competition(turn_seconds=3)
    assert smoke_match.smoke_budget(bot, digest) == 3.0
    open_competition(turn_seconds=60)  # capped like the tournament's own matches
    assert smoke_match.smoke_budget(bot, digest) in (3.0, 10.0)
    settings.TRUCO_VALIDATION_DECISION_SECONDS = 1.5  # an operator's fixed budget wins
    assert smoke_match.smoke_budget(bot, digest) == 1.5


def test_the_opponent_and_the_deals_come_from_a_keyed_hash_of_the_version(user_api, settings):
    first, second = upload(user_api, name="one"), upload(user_api, name="two")
    assert smoke_match.draw_digest(first) != smoke_match.draw_digest(second)
    before = smoke_match.draw_digest(first)
    settings.SECRET_KEY = "another-" + settings.SECRET_KEY  # the server's secret, not the author's
    assert smoke_match.draw_digest(first) != before


def test_every_built_in_bot_can_be_the_opponent_and_the_deals_differ():
    bots = registry().bots
    drawn = {smoke_draw(bytes([i]) + bytes(range(1, 8)), bots)[0] for i in range(3)}
    assert drawn == {"random", "heuristic", "mcts"}
    seeds = {smoke_draw(bytes([0, i]) + bytes(6), bots)[1] for i in range(5)}
    assert len(seeds) == 5
    assert smoke_draw(bytes(8), {"random"})[0] == "random"  # only what the server has
    with pytest.raises(ValueError):
        smoke_draw(b"short", bots)
