"""Bots run where their code is trusted: built-ins in the worker, other plugins in the jail; a trusted bot's parameters are checked when the bot is saved."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.test import override_settings

from engine.runner import IN_PROCESS, JAIL
from submitted_bots.checks import check_bot
from submitted_bots.trust import bot_spec
from tournaments.execution import match_spec


def test_built_in_bots_run_in_process_and_other_plugins_in_the_jail():
    assert bot_spec("heuristic", {}).isolation == IN_PROCESS
    with override_settings(TRUCO_TRUSTED_BOT_PLUGINS=frozenset({"heuristic"})):
        assert bot_spec("random", {"x": 1}).isolation == JAIL
        assert bot_spec("random", {"x": 1}).params == {"x": 1}


def test_a_tournament_match_of_an_untrusted_plugin_is_jailed(make_tournament):
    tournament = make_tournament(entrants=2)
    bot_a, bot_b = (e.bot for e in tournament.entrants.order_by("pk"))
    with override_settings(TRUCO_TRUSTED_BOT_PLUGINS=frozenset()):
        spec = match_spec(tournament, 1, bot_a, bot_b)
    assert spec.side_a.isolation == JAIL and spec.side_b.isolation == JAIL


@pytest.mark.parametrize(
    ("plugin", "params", "message"),
    [
        ("mcts", {"time_ms": 10**9}, "more than the 10s this server allows"),
        ("mcts", {"time_ms": 0}, "time_ms must be a number from 1 to 60000"),
        ("mcts", {"iterations": -5}, "iterations must be an integer"),
        ("mcts", {"depth": 3}, "unknown parameter depth"),
        ("heuristic", {"bluf": 0.5}, "unknown parameter bluf"),
    ],
)
def test_a_trusted_bot_with_bad_parameters_is_rejected_when_saved(plugin, params, message):
    with pytest.raises(ValidationError) as error:
        check_bot(plugin, params)
    assert message in str(error.value.message_dict["params"])


def test_an_untrusted_plugin_is_never_built_in_the_web_process():
    with override_settings(TRUCO_TRUSTED_BOT_PLUGINS=frozenset()):
        # Only building it would find the unknown parameter: checked in its child process,
        # when it plays. (Time-like parameters are refused by name alone: see test_budgets.)
        check_bot("mcts", {"depth": 3})
