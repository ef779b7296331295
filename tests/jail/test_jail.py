"""The jail itself: what the jailed process is (its uid, what it sees), that runtimes start in
it with its limits, that one process serves a seat for a whole match, and that untrusted bots
are refused where no jail can be built."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time

import pytest

from engine.errors import TrucoError
from engine.jail import Program, probe
from engine.jail.process import JailedProcess
from engine.jail.uids import processes_by_uid
from engine.jail.watchdog import cpu_and_runnable
from engine.match import MatchSpec, play_match
from engine.runner import BotSpec, play_game

from .conftest import jail_or_skip
from .hostile_plugin import PROJECT

PYTHON = os.path.realpath(sys.executable)
RUNTIME = () if sys.base_prefix.startswith("/usr/") else (os.path.realpath(sys.base_prefix),)


def answer_once(command, **kwargs):
    process = JailedProcess(command, **kwargs)
    try:
        return process.request({"type": "act", "id": 1}, 30.0), process.log_since_last(), process
    finally:
        process.close()


def test_the_jailed_process_has_a_host_uid_of_its_own_and_sees_only_itself():
    jail_or_skip()
    script = (
        "import json, os; input(); "
        "print(json.dumps({'action': [os.getuid(), os.listdir('/proc')]}), flush=True); input()"
    )
    process = JailedProcess([PYTHON, "-I", "-S", "-c", script], binds=RUNTIME)
    try:
        reply = process.request({"type": "act"}, 30.0)
        uid_inside, proc = reply["action"]
        # Seen from the host, the bot (a descendant of the jail's bwrap) is of its own uid.
        owners = {
            os.stat(f"/proc/{pid}").st_uid
            for pid in os.listdir("/proc")
            if pid.isdigit() and _parent_chain_has(int(pid), process.pid)
        }
        assert process.uid not in (None, 0, os.geteuid())
        assert uid_inside == process.uid_inside and process.uid in owners
        assert owners <= {os.geteuid(), process.uid}  # bwrap's own init, and the bot's uid
        assert sorted(int(p) for p in proc if p.isdigit()) == [1, 2]  # its init and itself
    finally:
        process.close()


def _parent_chain_has(pid: int, ancestor: int) -> bool:
    for _ in range(10):
        try:
            with open(f"/proc/{pid}/stat") as f:
                pid = int(f.read().rsplit(")", 1)[1].split()[1])
        except OSError:
            return False
        if pid == ancestor:
            return True
        if pid <= 1:
            return False
    return False


def test_java_and_node_start_in_the_jail_with_its_limits(tmp_path):
    jail_or_skip()
    reply, log, _ = answer_once(
        ["/bin/sh", "-c", 'java -version 1>&2 && read line && echo \'{"action": "java"}\'']
    )
    assert reply == {"action": "java"} and "openjdk version" in log
    node = "process.stdin.once('data', () => { console.log(JSON.stringify({action: 'node'})); process.exit(0) })"
    reply, _, _ = answer_once(["node", "-e", node])
    assert reply == {"action": "node"}
    # A Java program that really runs (compiled in the jail by the source launcher).
    (tmp_path / "Bot.java").write_text(
        textwrap.dedent(
            """
            import java.io.*;
            public class Bot {
                public static void main(String[] args) throws Exception {
                    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
                    in.readLine();
                    System.out.println("{\\"action\\": \\"compiled\\"}");
                }
            }
            """
        )
    )
    os.chmod(tmp_path, 0o755)
    reply, _, _ = answer_once(["java", "-XX:+UseSerialGC", "Bot.java"], files=str(tmp_path))
    assert reply == {"action": "compiled"}


COUNTING_BOT = """
import json, sys
games = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "game":
        games += 1
        print(f"game {games} of this process", file=sys.stderr, flush=True)
    elif message["type"] == "act":
        legal = message["legal"]
        print(json.dumps({"id": message["id"], "action": legal[(games - 1) % len(legal)]}), flush=True)
    elif message["type"] == "match_end":
        print(f"match over after {games} games", file=sys.stderr, flush=True)
        break
"""


def test_one_process_serves_a_seat_for_the_whole_match_and_remembers_its_games(
    tmp_path, monkeypatch
):
    jail_or_skip()
    (tmp_path / "bot.py").write_text(COUNTING_BOT)
    os.chmod(tmp_path, 0o755)
    started = []
    original = JailedProcess.__init__

    def spy(self, *args, **kwargs):
        original(self, *args, **kwargs)
        started.append(self.pid)

    monkeypatch.setattr(JailedProcess, "__init__", spy)
    program = Program(("/usr/bin/python3", "-I", "bot.py"), files=str(tmp_path))
    spec = MatchSpec(
        "paulista",
        BotSpec("counter", isolation="jail", program=program),
        BotSpec("random", isolation="jail"),
        games=6,
        seed=5,
    )
    result = play_match(spec)
    assert [g.result.termination for g in result.games] == ["normal"] * 6
    assert len(started) == 2  # one process per seat for six games
    last = result.games[-1]
    assert "game 6 of this process" in last.result.logs[last.a_team]  # it kept its memory
    # What it wrote on hearing the match's end is kept with the last game (it was lost).
    assert "match over after 6 games" in last.result.logs[last.a_team]


def script_match(script: str, games: int):
    """A match of `games` between a jailed Python script (written to the protocol) and random."""
    program = Program(("/usr/bin/python3", "-c", script))
    return play_match(
        MatchSpec(
            "paulista", BotSpec("script", isolation="jail", program=program), "random", games=games
        )
    )


def test_an_answer_line_past_the_limit_is_an_illegal_action():
    jail_or_skip()
    flood = (
        "import sys\nsys.stdin.readline()\nsys.stdout.write('y' * (1 << 20))\nsys.stdout.flush()"
    )
    (game,) = script_match(flood, games=1).games
    assert game.result.termination == "illegal_action"
    assert game.result.detail == "answered more than 65536 bytes in one line"


def test_an_answer_nested_deeper_than_the_decoder_goes_is_an_illegal_action_and_restarts_it():
    """A `[[[[...` answer made the decoder overflow its stack: that was a crash of the runner's
    own code ("the bot raised an exception") and the garbling bot kept its process."""
    jail_or_skip()
    script = textwrap.dedent(
        """
        import json, sys
        for line in sys.stdin:
            message = json.loads(line)
            if message["type"] == "act":
                print("[" * 60000, flush=True)
        """
    )
    games = script_match(script, games=2).games
    assert [g.result.termination for g in games] == ["illegal_action"] * 2
    assert {g.result.detail for g in games} == {"answered a line that is not JSON"}


def test_a_start_up_over_its_allowance_is_told_apart_from_a_slow_decision():
    """A bot still loading when its start-up seconds are up (its input unread) and silent in the
    decision's time after them did not answer its first message within its start-up allowance;
    one that read its input and then took too long was slow to decide. Its log says which."""
    jail_or_skip()
    from engine.jail.limits import Limits
    from engine.protocol import BotTimeout

    loads = "import time; time.sleep(30)"
    thinks = "import sys, time; sys.stdin.readline(); time.sleep(30)"
    for script, startup, detail in (
        (loads, 0.5, "did not answer its first message within 0.5 s of starting"),
        (thinks, 5.0, "no answer within 0.3s"),  # started well within its 5 s
    ):
        limits = Limits(startup_seconds=startup)
        process = JailedProcess(["/usr/bin/python3", "-c", script], limits=limits)
        try:
            with pytest.raises(BotTimeout) as late:
                process.request({"type": "act", "id": 1}, 0.3)
            log = process.log_since_last()
        finally:
            process.close(graceful=False)
        assert late.value.detail == detail
        assert f"[the server: {detail}]" in log


def test_the_whole_jail_gets_one_core_of_cpu_however_many_processes_spin():
    """RLIMIT_CPU bounds each process; a bot that forks spinners between its answers took every
    core of the host while its games ended normally. The jail's cgroup quota holds all of them
    to one core, measured from the host."""
    jail_or_skip()
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one core: a quota of one core is no limit to see")
    spinners = textwrap.dedent(
        """
        import os, sys
        sys.stdin.readline()
        for _ in range(6):
            if os.fork() == 0:
                while True:
                    pass
        print('{"action": "spinning"}', flush=True)
        sys.stdin.readline()
        """
    )
    process = JailedProcess(["/usr/bin/python3", "-c", spinners])
    try:
        if not process.cpu_quota:
            pytest.skip("no cpu cgroup controller here: each process is bounded by RLIMIT_CPU")
        assert process.request({"type": "act", "id": 1}, 30.0)["action"] == "spinning"
        time.sleep(0.3)  # all six running
        before, start = jail_cpu_seconds(process.uid), time.monotonic()
        time.sleep(2.0)
        cores = (jail_cpu_seconds(process.uid) - before) / (time.monotonic() - start)
    finally:
        process.close()
    assert 0.5 < cores < 1.25, f"six spinners used {cores:.2f} cores"


def test_without_a_cpu_quota_the_jail_runs_at_a_lower_priority_it_cannot_raise(monkeypatch):
    """An ordinary runner makes no cgroup: its jail's spinners would compete with the host's
    own processes as equals. They run at nice 10 instead, and cannot lower it."""
    jail_or_skip()
    import engine.jail.process

    monkeypatch.setattr(engine.jail.process, "make_cgroup", lambda *args, **kwargs: None)
    script = textwrap.dedent(
        """
        import json, os, sys
        sys.stdin.readline()
        try:
            os.nice(-5)
            lowered = "lowered"
        except OSError as exc:
            lowered = exc.strerror
        print(json.dumps({"action": [os.nice(0), lowered]}), flush=True)
        """
    )
    reply, _, process = answer_once(["/usr/bin/python3", "-c", script])
    assert not process.cpu_quota
    assert reply["action"] == [10, "Operation not permitted"]


def jail_cpu_seconds(uid: int) -> float:
    """CPU seconds so far of the host's processes of `uid` (read as the runner's watch does)."""
    return cpu_and_runnable(processes_by_uid({uid}).get(uid, []))[0]


def test_the_jails_init_shows_the_bot_no_host_folder_in_its_command_line(tmp_path):
    """pid 1 of the jail is a copy of bwrap: its command line listed every bind, the bot's own
    folder on the host among them. Its options now come through a file descriptor."""
    jail_or_skip()
    (tmp_path / "secret-folder-name").mkdir()
    bot = tmp_path / "secret-folder-name"
    (bot / "bot.py").write_text(
        "import json, os, sys\nsys.stdin.readline()\n"
        "init = open('/proc/1/cmdline', 'rb').read().decode()\n"
        "print(json.dumps({'action': init, 'fds': sorted(os.listdir('/proc/self/fd'))}))\n"
    )
    os.chmod(tmp_path, 0o755)
    os.chmod(bot, 0o755)
    reply, _, _ = answer_once(["/usr/bin/python3", "bot.py"], files=str(bot))
    init = reply["action"].split("\0")
    assert "--args" in init and "--ro-bind" not in init
    assert not any("secret-folder-name" in part for part in init)
    assert reply["fds"] == ["0", "1", "2", "3"]  # its pipes, and the listing's own


def test_a_crashed_bot_is_started_again_for_the_next_game():
    jail_or_skip()
    script = "import sys\nfor line in sys.stdin:\n    if '\"act\"' in line: sys.exit(4)\n"
    games = script_match(script, games=2).games
    assert [g.result.detail for g in games] == ["bot process exited with code 4"] * 2


@pytest.fixture
def no_jail(monkeypatch):
    """bwrap that cannot build anything (as where user namespaces are disabled)."""
    monkeypatch.setenv(probe.BWRAP_ENV, "/bin/false")
    monkeypatch.delenv(probe.UNSAFE_ENV, raising=False)
    probe.reset()
    yield
    probe.reset()


def test_without_a_jail_untrusted_bots_are_refused_with_the_reason(no_jail):
    with pytest.raises(probe.JailUnavailable) as refused:
        play_game("paulista", [BotSpec("random", isolation="jail"), "random"])
    message = str(refused.value)
    assert "untrusted bots are refused" in message and "apt-get install bubblewrap" in message
    with pytest.raises(probe.JailUnavailable):  # nor can a jailed process start by hand
        JailedProcess(["/bin/true"])


def test_the_cli_refuses_untrusted_bots_without_a_jail(no_jail):
    env = {**os.environ, probe.BWRAP_ENV: "/bin/false"}
    for command in (
        ["match", "--isolation", "jail", "--bots", "random", "random", "--games", "1"],
        ["arena", "--isolation", "process", "--bots", "random", "random", "--pairs", "1"],
    ):
        done = subprocess.run(
            [sys.executable, "-m", "engine", *command],
            cwd=PROJECT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 2, done.stderr
        assert "untrusted bots are refused" in done.stderr and "Traceback" not in done.stderr
    check = subprocess.run(
        [sys.executable, "-m", "engine", "jail-check"],
        cwd=PROJECT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert check.returncode == 2 and "bwrap failed" in check.stderr


@pytest.mark.django_db
def test_a_tournament_match_of_untrusted_bots_is_refused_without_a_jail(
    no_jail, make_tournament, settings
):
    from tournaments import execution, lifecycle
    from tournaments.models import Match

    settings.TRUCO_TRUSTED_BOT_PLUGINS = frozenset()  # "random" is untrusted here
    settings.TRUCO_MATCH_MAX_ATTEMPTS = 1
    tournament = make_tournament(2)
    lifecycle.start(tournament, publish=False)
    match = Match.objects.get(tournament=tournament, entrant_b__isnull=False)
    outcome = execution.execute(match.pk, "w:1")
    assert outcome.kind == "failed"
    match.refresh_from_db()
    assert "untrusted bots are refused" in match.error and match.games.count() == 0


def test_the_loud_development_switch_runs_them_unjailed(no_jail, monkeypatch):
    monkeypatch.setenv(probe.UNSAFE_ENV, "1")
    result = play_game("paulista", [BotSpec("random", isolation="jail"), "random"], seed=2)
    assert result.termination == "normal"


def test_jail_check_verifies_the_jail_here():
    jail_or_skip()
    done = subprocess.run(
        [sys.executable, "-m", "engine", "jail-check"],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "the jail holds" in done.stdout and "FAIL" not in done.stdout
    assert "connect 127.0.0.1:5432: refused" in done.stdout
    assert "ok   lock a file every jail sees: refused: No locks available" in done.stdout
    assert "ok   watch a folder every jail sees: refused: Function not implemented" in done.stdout


def test_arena_checks_a_jailed_bots_parameters_in_the_jail(capsys):
    jail_or_skip()
    from engine.cli import main

    code = main(
        ["arena", "--isolation", "jail", "--bots", "heuristic:bluf=1", "random", "--pairs", "1"]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert "failed its first decision in the jail" in err and "unknown parameter bluf" in err


def test_a_bots_files_are_read_only_and_its_tmp_is_bounded(tmp_path):
    jail_or_skip()
    (tmp_path / "data.txt").write_text("mine")
    os.chmod(tmp_path, 0o755)
    script = (
        "import json, os\ninput()\nout = {'read': open('data.txt').read()}\n"
        "try:\n    open('new.txt', 'w')\n    out['write'] = 'allowed'\n"
        "except OSError as e:\n    out['write'] = e.strerror\n"
        "try:\n    open('/tmp/big', 'wb').write(b'x' * (200 << 20))\n    out['tmp'] = 'allowed'\n"
        "except OSError as e:\n    out['tmp'] = e.strerror\n"
        "print(json.dumps({'action': out}))\n"
    )
    reply, _, _ = answer_once(
        [PYTHON, "-I", "-S", "-c", script], binds=RUNTIME, files=str(tmp_path)
    )
    found = reply["action"]
    assert found["read"] == "mine"
    assert found["write"] == "Read-only file system"
    assert found["tmp"] in ("No space left on device", "File too large")
    assert not (tmp_path / "new.txt").exists()


def test_a_program_spec_must_be_a_jailed_command():
    with pytest.raises(TrucoError):
        BotSpec("x", isolation="inprocess", program=Program(("true",)))
    with pytest.raises(ValueError):
        Program(())


def test_a_jail_dies_with_its_runner():
    """A runner killed outright (a worker's pool process, say) leaves no bot behind."""
    jail_or_skip()
    marker = "die-with-parent-marker-31337"
    bot = f'read line; echo \'{{"action": "up"}}\'; sleep 600; echo {marker}'
    runner = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from engine.jail.process import JailedProcess; "
            "p = JailedProcess(['/bin/sh', '-c', sys.argv[1]]); "
            "print(p.request({'type': 'act'}, 30)['action'], flush=True); time.sleep(600)",
            bot,
        ],
        cwd=PROJECT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert runner.stdout.readline().strip() == "up"
        jailed = set(_with_marker(marker)) - {runner.pid}
        assert jailed, "the jailed command did not start"
        runner.kill()
        runner.wait()
        for _ in range(100):
            if not jailed & set(_with_marker(marker)):
                break
            time.sleep(0.05)
        assert not jailed & set(_with_marker(marker)), "the jail outlived its runner"
    finally:
        runner.kill()


def test_an_orphaned_jail_process_is_killed_when_the_next_jail_starts():
    """A runner killed in the instant before bwrap armed --die-with-parent leaves an orphan
    under a jail uid whose lock is free: the next lease kills it."""
    if os.geteuid() != 0:
        pytest.skip("jail uids are leased by a root runner")
    from engine.jail import uids

    free = uids.lease_uid()
    orphan_uid = free.uid
    free.release()
    orphan = subprocess.Popen(
        [
            "setpriv",
            f"--reuid={orphan_uid}",
            f"--regid={orphan_uid}",
            "--clear-groups",
            "sleep",
            "600",
        ]
    )
    try:
        time.sleep(0.2)
        lease = uids.lease_uid()
        lease.release()
        orphan.wait(timeout=5)
        assert orphan.returncode == -9
    finally:
        orphan.kill()
        orphan.wait()


def _with_marker(marker: str) -> list[int]:
    found = []
    for pid in (p for p in os.listdir("/proc") if p.isdigit()):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if marker.encode() in f.read():
                    found.append(int(pid))
        except OSError:
            pass
    return found


def test_code_bound_from_under_tmp_is_seen_above_the_jails_own_tmp(tmp_path):
    """A project checked out under /tmp (CI clones often are): its engine, bound into the jail at
    its own path, must not be hidden by the jail's private /tmp, or every jailed plugin bot
    would fail to import the shim."""
    jail_or_skip()
    assert str(tmp_path).startswith("/tmp/")
    code = tmp_path / "project"
    code.mkdir()
    (code / "marker_module.py").write_text("WORD = 'visible'\n")
    for folder in (tmp_path, code):
        os.chmod(folder, 0o755)
    os.chmod(code / "marker_module.py", 0o644)
    script = (
        f"import json, sys\ninput()\nsys.path.insert(0, {str(code)!r})\nimport marker_module\n"
        "print(json.dumps({'action': marker_module.WORD}))\n"
    )
    reply, log, _ = answer_once([PYTHON, "-I", "-S", "-c", script], binds=(*RUNTIME, str(code)))
    assert reply == {"action": "visible"}, log


def test_a_flood_of_log_costs_the_runner_little_of_its_own_cpu():
    """Twenty processes writing to standard error as fast as they can, while the bot takes two
    seconds to answer: the runner read all of it, one to two seconds of its own CPU a second,
    outside every limit of the jail. Past the kept log it now reads a little at a time."""
    jail_or_skip()
    script = textwrap.dedent(
        """
        import json, os, sys, time
        sys.stdin.readline()
        for _ in range(20):
            if os.fork() == 0:
                sys.stdin.close()
                block = b"x" * 65536
                while True:
                    os.write(2, block)
        time.sleep(2)
        print(json.dumps({"action": "done"}), flush=True)
        sys.stdin.readline()
        """
    )
    process = JailedProcess(["/usr/bin/python3", "-c", script])
    try:
        before = time.process_time()
        assert process.request({"type": "act", "id": 1}, 10.0)["action"] == "done"
        spent = time.process_time() - before
        log = process.log_since_last()
    finally:
        process.close()
    assert spent < 0.5, f"the runner spent {spent:.2f}s of CPU reading the log"
    assert len(log) <= 256 * 1024 and "characters not kept ...]" in log
