"""The bot author's kit, as an author uses it from a fresh clone: `new-bot` writes a bundle,
`check-bot` says the server would accept it, an arena run plays it in the jail, in Python, Node
and Java; parameters reach the bot; logs land in --logs; the same seed gives the same output;
a bundle plays only the games its manifest lists; check-bot speaks the server's words."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from engine import botseed
from engine.cli import build_parser, main
from tests.jail.conftest import jail_or_skip

PROJECT = Path(__file__).resolve().parents[1]
RUNTIMES = {"python": "python3", "node": "node", "java": "java"}


def engine(*args: str, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    """`python -m engine ...` as an author runs it: from their own folder, with no secret set
    (a test process has the server's, from Django's settings)."""
    env = {k: v for k, v in os.environ.items() if k != botseed.ENV}
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


def runtime_or_skip(language: str) -> None:
    if shutil.which(RUNTIMES[language]) is None:
        if os.environ.get("TRUCO_REQUIRE_SERVICES"):
            pytest.fail(f"{RUNTIMES[language]} is not installed", pytrace=False)
        pytest.skip(f"{RUNTIMES[language]} is not installed")


def readable(folder: Path) -> None:
    """The jail's own user reads the bundle (pytest's folders are private to their owner)."""
    for path in [folder, *folder.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)


@pytest.fixture
def author(tmp_path) -> Path:
    tmp_path.chmod(0o755)
    return tmp_path


@pytest.mark.parametrize("language", ["python", "node", "java"])
def test_new_bot_then_check_bot_then_an_arena_run(author, language):
    jail_or_skip()
    runtime_or_skip(language)
    made = engine("new-bot", "mybot", "--language", language, cwd=author)
    assert made.returncode == 0, made.stderr
    assert "check-bot ./mybot" in made.stdout  # it says the next commands
    readme = (author / "mybot" / "README.md").read_text()
    assert "python -m engine check-bot ./mybot" in readme and "--zip mybot.zip" in readme
    readable(author / "mybot")

    checked = engine("check-bot", "./mybot", "--zip", "mybot.zip", cwd=author)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "ready: the server would accept 'mybot'" in checked.stdout
    assert "7 game settings" in checked.stdout  # every variant and player count, legally
    with zipfile.ZipFile(author / "mybot.zip") as archive:
        assert "bot.toml" in archive.namelist()

    ran = engine(
        "arena", "--bots", "./mybot:bet_rate=0.25", "random", "--pairs", "2",
        "--variant", "argentino", "--logs", "logs", cwd=author,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    assert "terminations: normal 4" in ran.stdout
    assert "mybot:bet_rate=0.25" in ran.stdout and "./mybot" not in ran.stdout
    log = (author / "logs" / "A-mybot_bet_rate=0.25.log").read_text()
    assert log.count("=== game ") == 4
    assert "0.25" in log and "0.5" in log  # the value given, and accept_rate's default
    assert "logs in logs/" in ran.stdout


def test_the_templates_are_part_of_a_clone():
    if shutil.which("git") is None or not (PROJECT / ".git").exists():
        pytest.skip("not a git checkout")
    tracked = subprocess.run(
        ["git", "ls-files", "engine/kit/templates"], cwd=PROJECT, capture_output=True, text=True
    ).stdout.split()
    on_disk = [
        str(p.relative_to(PROJECT)) for p in (PROJECT / "engine/kit/templates").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    ]  # fmt: skip
    assert on_disk and sorted(on_disk) == sorted(tracked)


def test_the_same_seed_gives_the_same_output_with_jailed_bundles(author):
    jail_or_skip()
    assert engine("new-bot", "mybot", "--language", "python", cwd=author).returncode == 0
    readable(author / "mybot")
    command = ("arena", "--bots", "./mybot:bet_rate=0.5", "random", "--pairs", "3", "--seed", "11",
               "--records", "games.jsonl")  # fmt: skip
    first = engine(*command, cwd=author)
    first_games = (author / "games.jsonl").read_text()
    second = engine(*command, cwd=author)
    assert first.returncode == second.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    assert (author / "games.jsonl").read_text() == first_games
    other = engine(*command[:-4], "--seed", "12", "--records", "games.jsonl", cwd=author)
    assert other.returncode == 0
    assert (author / "games.jsonl").read_text() != first_games  # the seed decides


def test_the_same_seed_gives_the_same_random_choices_of_built_in_bots(author):
    """`random 2 80`, then `random 1 37`, from one command: no more."""
    for command in (
        ("match", "--bots", "random", "random", "--games", "20", "--seed", "5"),
        # Worker processes (--jobs) derive the same bots' seeds as the command's own.
        ("arena", "--bots", "random", "random", "--pairs", "6", "--players", "4", "--jobs", "2"),
    ):
        runs = [engine(*command, cwd=author) for _ in range(2)]
        assert runs[0].returncode == 0, runs[0].stderr
        assert runs[0].stdout == runs[1].stdout


def test_bot_seeds_follow_the_run_seed_unless_a_secret_is_given(monkeypatch):
    monkeypatch.delenv(botseed.ENV, raising=False)
    botseed._OWN.clear()
    botseed.secret()  # a random one, drawn by this process: not a given secret
    assert not botseed.given_secret()
    assert botseed.reproducible_from(3)
    first = botseed.bot_seed(100, 0)
    assert botseed.reproducible_from(4) and botseed.bot_seed(100, 0) != first
    assert botseed.reproducible_from(3) and botseed.bot_seed(100, 0) == first
    botseed.configure("the server's own")  # as tournaments/apps.py does
    assert botseed.given_secret() and not botseed.reproducible_from(3)
    assert os.environ[botseed.ENV] == "the server's own"
    monkeypatch.setenv(botseed.ENV, "an operator's")
    assert not botseed.reproducible_from(3)


def test_parameters_reach_the_bot_and_bad_ones_are_refused_naming_the_valid_ones(author, capsys):
    jail_or_skip()
    assert main(["new-bot", str(author / "mybot"), "--language", "python"]) == 0
    readable(author / "mybot")
    bot = str(author / "mybot")
    code = main(["match", "--bots", f"{bot}:accept_rate=0.9", "random", "--games", "1",
                 "--logs", str(author / "logs")])  # fmt: skip
    assert code == 0
    log = (author / "logs" / "A-mybot_accept_rate=0.9.log").read_text()
    assert "'accept_rate': 0.9" in log and "'bet_rate': 0.1" in log
    capsys.readouterr()
    for given, message in (
        ("bot=x", "bot 'mybot' has no parameter 'bot'; valid parameters: bet_rate (a number"),
        ("accept_rate=2", "parameter 'accept_rate' must be a number from 0.0 to 1.0, not 2"),
        ("accept_rate=high", 'must be a number from 0.0 to 1.0, not "high"'),
        ("bet_rate", "must look like key=value"),
    ):
        for command in ("match", "arena"):
            assert main([command, "--bots", f"{bot}/:{given}", "random"]) == 2
            err = capsys.readouterr().err
            assert message in err and "Traceback" not in err, err
        assert main(["check-bot", f"{bot}:{given}"]) == 2
        assert message in capsys.readouterr().err


def write_bundle(folder: Path, manifest: str, code: str = "") -> Path:
    folder.mkdir()
    (folder / "bot.toml").write_text(manifest)
    (folder / "bot.py").write_text(code or "import sys\nfor line in sys.stdin: pass\n")
    readable(folder)
    return folder


def test_a_bundle_plays_only_the_games_its_manifest_lists(author, capsys):
    bundle = write_bundle(
        author / "two",
        'name = "two"\ncommand = ["python3", "bot.py"]\nvariants = ["paulista"]\nplayers = [2]\n',
    )
    for args, said in (
        (["--players", "4"], "does not play paulista with 4 players"),
        (["--variant", "mineiro"], "does not play mineiro with 2 players"),
    ):
        for command in (["match", "--games", "1"], ["arena", "--pairs", "1"]):
            code = main([*command, "--bots", str(bundle), "random", *args])
            err = capsys.readouterr().err
            assert code == 2, err
            assert said in err and "players = [2]" in err and 'variants = ["paulista"]' in err


def server_reason(data: bytes) -> str:
    """What the server's upload says of a zip (submitted_bots/bundles/uploads.py)."""
    from django.core.exceptions import ValidationError

    from submitted_bots.bundles.uploads import check_bundle

    with pytest.raises(ValidationError) as refused:
        check_bundle(data)
    return refused.value.message_dict["bundle"][0]


def zipped(folder: Path) -> bytes:
    from engine.kit.check_bot import zip_folder

    return zip_folder(folder)


@pytest.mark.parametrize(
    "manifest, files, reason",
    [
        ('name = "Random"\ncommand = ["python3", "bot.py"]\n', {}, "reserved"),
        ('name = "x"\ncommand = ["python3", "bot.py"]\nvariants = ["bisca"]\n', {}, "unknown"),
        ('name = "x"\ncommand = ["./run"]\n', {}, "no such command"),
        ('name = "x"\ncommand = ["python3", "bot.py"]\n[params]\nx = [1]\n', {}, "[params]"),
    ],
)
def test_check_bot_rejects_what_the_server_refuses_in_its_words(author, manifest, files, reason):
    bundle = write_bundle(author / "bad", manifest)
    said = server_reason(zipped(bundle))
    assert reason in said
    run = engine("check-bot", str(bundle), cwd=author)
    assert run.returncode == 1, run.stdout + run.stderr
    assert f"rejected: {said}" in run.stdout


def test_check_bot_rejects_a_bot_that_crashes_with_the_smoke_matchs_reason(author):
    jail_or_skip()
    write_bundle(
        author / "crash",
        'name = "crash"\ncommand = ["python3", "bot.py"]\nplayers = [2]\n',
        "import sys\nprint('no model here', file=sys.stderr)\nsys.exit(3)\n",
    )
    run = engine("check-bot", "./crash", "--logs", "logs", cwd=author)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "rejected: crashed at start-up (in argentino with 2 players, game 1): bot process " \
        "exited with code 3" in run.stdout  # fmt: skip
    assert "no model here" in (author / "logs" / "crash-smoke.log").read_text()
    missing = engine("check-bot", "./nothing", cwd=author)
    assert missing.returncode == 2 and "no bundle at './nothing'" in missing.stderr


def test_check_bot_reads_a_zip_as_the_server_does(author):
    jail_or_skip()
    assert engine("new-bot", "mybot", "--language", "python", cwd=author).returncode == 0
    readable(author / "mybot")
    archive = author / "mybot.zip"
    with zipfile.ZipFile(archive, "w") as out:  # the one-folder layout zip tools make
        for file in (author / "mybot").iterdir():
            out.write(file, f"mybot/{file.name}")
    run = engine("check-bot", "mybot.zip", cwd=author)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "(a zip)" in run.stdout and "ready" in run.stdout


def test_new_bot_refuses_a_folder_in_use_and_a_reserved_name(author, capsys):
    (author / "full").mkdir()
    (author / "full" / "notes.txt").write_text("mine")
    assert main(["new-bot", str(author / "full"), "--language", "node"]) == 2
    assert "not an empty folder" in capsys.readouterr().err
    assert (author / "full" / "notes.txt").read_text() == "mine"
    assert main(["new-bot", str(author / "heuristic"), "--language", "python"]) == 2
    err = capsys.readouterr().err
    assert "is the name of a built-in bot" in err and "--name" in err
    for bad in ("a b", "heuristic2\n"):  # "$" let a final newline by
        assert main(["new-bot", str(author / "x"), "--language", "python", "--name", bad]) == 2
        assert "cannot be a bot's name" in capsys.readouterr().err
    assert main(["new-bot", str(author / "heuristic"), "--language", "python", "--name", "h2"]) == 0
    manifest = (author / "heuristic" / "bot.toml").read_text()
    assert 'name = "h2"' in manifest


def test_a_bundle_folder_written_without_its_slash_is_pointed_out(author):
    assert engine("new-bot", "mybot", "--language", "python", cwd=author).returncode == 0
    run = engine("match", "--bots", "mybot", "random", "--games", "1", cwd=author)
    assert run.returncode == 2
    assert "'mybot' is not a registered bot; for the bundle in the folder mybot, write ./mybot" in (
        run.stderr
    )


def test_help_says_what_a_bot_argument_may_be():
    parser = build_parser()
    for command in ("match", "arena"):
        text = " ".join(parser._subparsers._group_actions[0].choices[command].format_help().split())
        assert "a bundle folder or .zip" in text and "https://" in text
        assert "./mybot:bet_rate=0.3" in text and "--logs DIR" in text
    assert "check-bot" in parser.format_help() and "new-bot" in parser.format_help()


def test_the_zip_check_bot_writes_is_what_the_server_accepts(author):
    assert main(["new-bot", str(author / "mybot"), "--language", "java"]) == 0
    from submitted_bots.bundles.uploads import check_bundle

    contents = check_bundle(zipped(author / "mybot"))
    assert contents.manifest.name == "mybot"
    assert [p.name for p in contents.manifest.params] == ["bet_rate", "accept_rate"]
    with zipfile.ZipFile(io.BytesIO(zipped(author / "mybot"))) as archive:
        assert sorted(archive.namelist()) == ["Bot.java", "README.md", "bot.toml"]
    assert json.loads(json.dumps(contents.manifest.as_json()))["params"]["accept_rate"] == {
        "type": "float",
        "default": 0.5,
        "help": "chance of accepting a bet, or of playing a hand of eleven",
        "min": 0.0,
        "max": 1.0,
    }


def test_the_java_template_compiles_without_a_warning(tmp_path):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    source = PROJECT / "engine/kit/templates/java/Bot.java"
    run = subprocess.run(
        ["javac", "-Xlint:all", "-Werror", "-d", str(tmp_path), str(source)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "Bot.class").exists()
