"""`python -m engine match` and `bench`: they run, print their figures, and reject bad input
with exit code 2 and a message."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

from engine.arena import fmt_elo
from engine.cli import main
from engine.match import MatchSpec, play_match
from engine.plugins import registry
from engine.runner import BotSpec


def run(*args):
    return subprocess.run([sys.executable, "-m", "engine", *args], capture_output=True, text=True)


def test_match_between_two_registered_bots_prints_the_result():
    proc = run(
        "match",
        "--variant",
        "paulista",
        "--bots",
        "random",
        "random",
        "--games",
        "30",
        "--seed",
        "7",
    )
    assert proc.returncode == 0, proc.stderr
    assert "30 games, seed 7" in proc.stdout
    wins = [
        int(line.split("wins")[1].split()[0])
        for line in proc.stdout.splitlines()
        if " wins " in line
    ]
    assert sum(wins) == 30
    assert "normal 30" in proc.stdout


def test_match_is_reproducible_from_its_seed(tmp_path):
    outputs = []
    for name in ("a", "b"):
        path = tmp_path / f"{name}.jsonl"
        proc = run(
            "match",
            "--bots",
            "random",
            "random",
            "--games",
            "5",
            "--seed",
            "3",
            "--records",
            str(path),
        )
        assert proc.returncode == 0
        outputs.append(path.read_text())
    assert outputs[0] == outputs[1] and outputs[0].count("\n") == 5


def test_match_rejects_unknown_bots_variants_and_options_with_exit_2():
    for args, message in (
        (("--bots", "random", "nobody"), "unknown bot 'nobody'"),
        (("--variant", "bisca", "--bots", "random", "random"), "unknown variant 'bisca'"),
        (("--bots", "random", "random", "--option", "target=99"), "'target' must be an integer"),
        (("--bots", "random", "random", "--players", "3"), "2 or 4 players"),
    ):
        proc = run("match", *args, "--games", "1")
        assert proc.returncode == 2, args
        assert message in proc.stderr


def test_bench_prints_hands_and_games_per_second_for_every_variant_and_player_count():
    proc = run("bench", "--seconds", "0.05")
    assert proc.returncode == 0, proc.stderr
    variants, _, jail = proc.stdout.partition("\njail:")
    rows = [
        line.split() for line in variants.splitlines()[1:] if line and not line.startswith("peak")
    ]
    expected = {(name, str(p)) for name, v in registry().variants.items() for p in v.players}
    assert {(r[0], r[1]) for r in rows} == expected
    assert all(float(r[2].replace(",", "")) > 0 for r in rows)
    assert "peak resident memory" in proc.stdout
    # Then the jail's figures, side by side in the same run (or why they are missing).
    assert jail.startswith(" random vs random") or jail.startswith(" not measured")
    if jail.startswith(" random vs random"):
        assert "in-process" in jail and "jailed" in jail and "overhead per decision" in jail
        assert "start-up of one jailed bot" in jail


def test_readme_lists_every_variant_with_its_presets_and_options():
    """The README embeds `python -m engine variants`; regenerate it when a variant changes."""
    from engine.variants_doc import variants_markdown

    readme = pathlib.Path("README.md").read_text()
    start, end = "<!-- variants:start -->\n", "<!-- variants:end -->"
    assert start in readme and end in readme
    embedded = readme.split(start, 1)[1].split(end, 1)[0].strip()
    assert embedded == variants_markdown().strip(), (
        "README is stale: run `python -m engine variants`"
    )


@pytest.mark.parametrize("games", ["-3", "0", "many"])
def test_match_refuses_a_game_count_below_one(games, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["match", "--bots", "random", "random", "--games", games])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "--games" in err and ("must be 1 or more" in err or "not a whole number" in err)


def test_match_takes_bot_parameters_with_the_arena_syntax(capsys):
    assert main(["match", "--bots", "heuristic:bluff=0", "random", "--games", "2"]) == 0
    assert "heuristic:bluff=0" in capsys.readouterr().out


@pytest.mark.parametrize("bot", ["random:foo=1", "heuristic:blufff=0", "mcts:depth=3"])
def test_match_refuses_a_parameter_the_bot_does_not_take(bot, capsys):
    assert main(["match", "--bots", bot, "random", "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert "rejected its parameters" in err and "unknown parameter" in err


def test_match_refuses_an_unwritable_records_file(capsys):
    argv = ["match", "--bots", "random", "random", "--records", "/nonexistent/x.jsonl"]
    assert main(argv) == 2
    assert "cannot write the records" in capsys.readouterr().err


@pytest.mark.parametrize("isolation", ["process", "jail"])
def test_a_sandboxed_bot_given_an_unknown_parameter_fails_to_start_saying_so(isolation):
    if isolation == "jail":
        from engine.jail.probe import availability

        if not availability().ok:
            pytest.skip("the jail is not available here")
    spec = MatchSpec(
        "paulista", BotSpec("random", {"foo": 1}), "random", games=1, isolation=isolation
    )
    (game,) = play_match(spec).games
    assert game.result.termination == "crash" and game.winner_side == "b"
    assert "unknown parameter foo" in game.result.fault_message


@pytest.mark.parametrize(
    "value, shown", [(-0.3, "0"), (0.4, "0"), (-0.0, "0"), (12.6, "+13"), (-7.5, "-8")]
)
def test_an_elo_difference_that_rounds_to_nothing_has_no_sign(value, shown):
    assert fmt_elo(value) == shown
