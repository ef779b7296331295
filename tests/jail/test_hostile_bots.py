"""Every attack of issue 8 as a small hostile bot, played in the jail through the engine: each
gets its typed termination or fails to do harm, leaks nothing, leaves nothing running or
written, and the match goes on (tests/jail/test_hostile_cli.py and test_hostile_worker.py run
the same bots through the CLI and a Celery worker, as root and as an ordinary user)."""

from __future__ import annotations

import os

import pytest

from engine.bot_logs import MARK, mark
from engine.match import MatchSpec, play_match
from engine.runner import BotSpec

from .conftest import hostile_processes, jail_or_skip, written_on_the_host
from .expectations import EXPECTED, TIMEOUT, decision_seconds
from .hostile_plugin import MARKER

pytestmark = pytest.mark.usefixtures("hostile_bots")


def hostile_match(name: str, opponent: str = "random", games: int = 2):
    spec = MatchSpec(
        "paulista",
        BotSpec(name, isolation="jail"),
        BotSpec(opponent, isolation="jail"),
        games=games,
        seed=918_273_645,
        decision_seconds=decision_seconds(name),
    )
    return play_match(spec)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_hostile_bot_is_contained(name, secrets):
    jail_or_skip()
    result = hostile_match(name, games=1)  # the CLI tests play two: the match goes on
    for game in result.games:
        r = game.result
        hostile_seat_team = game.a_team
        assert r.termination in EXPECTED[name], (r.termination, r.detail, r.fault_message)
        if r.termination != "normal":
            assert r.seat % 2 == hostile_seat_team  # the hostile bot forfeits, never its victim
        text = " ".join([r.detail, r.fault_message, *r.logs.values(), repr(r.record)])
        assert "LEAKED" not in text and MARKER not in text
        if r.termination == TIMEOUT:
            assert r.detail == "second decision over 0.5s"
    assert secrets.poll() is None, "the sentinel process was killed"
    assert hostile_processes() == []
    assert written_on_the_host() == []


def test_a_bot_cannot_forge_answers_into_the_other_seats_pipe(secrets):
    jail_or_skip()
    result = hostile_match("hostile-pipes", opponent="random", games=4)
    for game in result.games:  # whatever it garbled, the other seat never forfeits
        assert game.result.termination == "normal" or game.result.seat % 2 == game.a_team
    if os.geteuid() == 0:  # its own uid: no other process of the jail is even writable
        assert [g.result.termination for g in result.games] == ["normal"] * 4
        logs = " ".join(text for g in result.games for text in g.result.logs.values())
        assert "forged into 0 pipes" in logs


def test_a_bot_that_prints_megabytes_keeps_the_head_and_tail_of_its_log():
    """Its owner reads how the flood began and how it ended, and how much is missing between."""
    jail_or_skip()
    result = hostile_match("hostile-print", games=1)
    played = result.games[0]
    log = played.result.logs[[s for s in played.result.logs if s % 2 == played.a_team][0]]
    assert played.result.termination == "normal"
    assert 250 * 1024 <= len(log) <= 256 * 1024  # 21 MiB printed, 256 Ki characters kept
    assert log.startswith("the first line of the flood\n")
    assert log.rstrip().endswith("the last line of the flood")
    [dropped] = [int(found[1].replace(",", "")) for found in MARK.finditer(log)]
    # Every character it wrote is either kept or counted.
    written = (
        len("the first line of the flood\n") + (21 << 20) + len("\nthe last line of the flood\n")
    )
    assert dropped + len(log) - len(mark(dropped)) == written


def test_the_fork_bomb_meets_the_process_limit():
    jail_or_skip()
    result = hostile_match("hostile-forkbomb", games=1)
    logs = " ".join(result.games[0].result.logs.values())
    assert "fork refused after" in logs


@pytest.mark.parametrize(
    ("name", "raised"),
    [("hostile-crash", "RuntimeError"), ("hostile-interrupt", "KeyboardInterrupt")],
)
def test_a_crashing_bots_error_and_log_name_no_folder_of_the_server(name, raised):
    """Its owner reads its traceback; the engine's, the plugin's and the Python's folders on the
    host are named by what they are (`<code>`, `<site-packages>`, `<python>`), whatever it
    raises."""
    jail_or_skip()
    import sys
    import sysconfig

    from .hostile_plugin import PROJECT

    game = hostile_match(name, games=1).games[0].result
    assert game.termination == "crash"
    log = " ".join(game.logs.values())
    assert f"{raised}: boom from the bot" in (game.fault_message + log)
    assert 'File "<code>/tests/jail/hostile_plugin.py"' in log
    host_folders = [PROJECT, sysconfig.get_paths()["purelib"]]
    if sys.base_prefix not in ("/usr", "/"):
        host_folders.append(os.path.realpath(sys.base_prefix))
    for folder in host_folders:
        assert folder not in game.fault_message and folder not in log, folder


def test_the_seed_thief_would_find_the_deal_from_the_old_seat_seed(monkeypatch):
    """The thief works: given the old invertible seat seed, it computes the deal (and so every
    card); given the one-way seed it finds nothing (test_a_hostile_bot_is_contained)."""
    jail_or_skip()
    import engine.actors  # where every game's bots are seeded

    monkeypatch.setattr(
        engine.actors, "bot_seed", lambda seed, seat, salt=0: (seed * 16 + seat + 1) * 2654435761
    )
    result = hostile_match("hostile-seed", games=1)
    game = result.games[0].result
    assert game.termination == "crash" and "LEAKED: the deal seed is" in game.fault_message


def test_the_hog_is_stopped_at_its_memory_limit():
    jail_or_skip()
    game = hostile_match("hostile-hog", games=1).games[0].result
    if os.geteuid() == 0:  # a memory cgroup: the kernel kills it, and the record says why
        assert game.detail == "bot process was killed over its memory limit of 512 MiB"
    else:  # RLIMIT_DATA: its allocation fails
        assert "MemoryError" in game.fault_message
