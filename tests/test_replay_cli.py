"""`python -m engine replay FILE`: the output and error contract of RECORDS.md, exactly."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine.runner import play_game
from tests.support import hand, record

EXAMPLE = {
    "format": "truco-record/1",
    "variant": "paulista",
    "options": {"all_tied": "no_points"},
    "players": 2,
    "first_dealer": 1,
    "start_score": [0, 0],
    "hands": [
        {
            "cards": [["4c", "7h", "As"], ["Kd", "Qs", "2h"]],
            "vira": "3d",
            "actions": [[0, "truco"], [1, "accept"], [0, "play 4c"], [1, "play Kd"]],
        }
    ],
    "result": {"score": [3, 0], "winner": None},
}


def replay(tmp_path, data, *, stdin=False):
    if stdin:
        text = data if isinstance(data, str) else json.dumps(data)
        proc = subprocess.run(
            [sys.executable, "-m", "engine", "replay", "-"],
            input=text,
            capture_output=True,
            text=True,
        )
    else:
        path = tmp_path / "game.json"
        path.write_text(data if isinstance(data, str) else json.dumps(data))
        proc = subprocess.run(
            [sys.executable, "-m", "engine", "replay", str(path)], capture_output=True, text=True
        )
    lines = proc.stdout.splitlines()
    assert len(lines) == 1, f"exactly one JSON line expected on stdout, got {proc.stdout!r}"
    return proc.returncode, json.loads(lines[0])


def test_the_records_md_example_replays_to_a_hand_in_progress(tmp_path):
    code, out = replay(tmp_path, EXAMPLE)
    assert code == 0
    assert list(out) == ["score", "winner", "finished", "hands", "to_act", "legal"]
    # The zap won the first trick; the truco was accepted, so the hand (worth 3) goes on, and
    # seat 0, who called last, may not raise again. The result field of the file is ignored.
    assert out == {
        "score": [0, 0],
        "winner": None,
        "finished": False,
        "hands": [{"points": [0, 0]}],
        "to_act": 0,
        "legal": ["cover 7h", "cover As", "play 7h", "play As"],
    }


def test_a_finished_game_has_no_to_act_and_no_legal(tmp_path):
    game = play_game("paulista", ["random", "random"], seed=3)
    code, out = replay(tmp_path, game.record)
    assert code == 0
    assert out["finished"] is True and out["winner"] == game.winner
    assert out["score"] == list(game.score)
    assert "to_act" not in out and "legal" not in out
    assert len(out["hands"]) == len(game.record["hands"])
    assert [sum(h["points"][t] for h in out["hands"]) for t in (0, 1)] == list(game.score)


def test_standard_input_is_read_with_a_dash(tmp_path):
    code, out = replay(tmp_path, EXAMPLE, stdin=True)
    assert code == 0 and out["to_act"] == 0


def test_an_illegal_action_exits_2_naming_hand_and_action(tmp_path):
    data = json.loads(json.dumps(EXAMPLE))
    data["hands"][0]["actions"][3] = [1, "play 2c"]
    code, out = replay(tmp_path, data)
    assert code == 2
    assert set(out) == {"error", "hand", "action"}
    assert (out["hand"], out["action"]) == (0, 3)
    assert "play 2c" in out["error"] and "play Kd" in out["error"]


def test_an_action_by_the_wrong_seat_exits_2(tmp_path):
    data = json.loads(json.dumps(EXAMPLE))
    data["hands"][0]["actions"][0] = [1, "truco"]
    code, out = replay(tmp_path, data)
    assert code == 2 and (out["hand"], out["action"]) == (0, 0)
    assert "seat 1 acted but seat 0 is to act" in out["error"]


def test_an_unknown_card_exits_2_naming_the_hand(tmp_path):
    data = json.loads(json.dumps(EXAMPLE))
    data["hands"][0]["cards"][1][0] = "9d"
    code, out = replay(tmp_path, data)
    assert code == 2 and out["hand"] == 0 and "unknown card '9d'" in out["error"]


def test_a_card_dealt_twice_exits_2(tmp_path):
    data = json.loads(json.dumps(EXAMPLE))
    data["hands"][0]["vira"] = "4c"
    code, out = replay(tmp_path, data)
    assert code == 2 and "dealt twice" in out["error"]


@pytest.mark.parametrize(
    "text",
    [
        "not json at all",
        "[1, 2]",
        json.dumps({**EXAMPLE, "format": "truco-record/9"}),
        json.dumps({**EXAMPLE, "hands": "none"}),
        json.dumps({**EXAMPLE, "players": 3}),
        json.dumps({**EXAMPLE, "first_dealer": 5}),
    ],
)
def test_a_malformed_file_exits_2_with_an_error(tmp_path, text):
    code, out = replay(tmp_path, text)
    assert code == 2 and list(out) == ["error"] and out["error"]


def test_an_unknown_option_exits_2_listing_the_valid_ones(tmp_path):
    code, out = replay(tmp_path, {**EXAMPLE, "options": {"flor": True}})
    assert code == 2 and "unknown option 'flor'" in out["error"] and "all_tied" in out["error"]


def test_an_unknown_variant_exits_2(tmp_path):
    code, out = replay(tmp_path, {**EXAMPLE, "variant": "bisca"})
    assert code == 2 and "unknown variant 'bisca'" in out["error"]


def test_a_missing_file_exits_2(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(tmp_path / "nope.json")],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2 and "cannot read" in json.loads(proc.stdout)["error"]


def test_a_record_ending_between_hands_reports_the_next_mao(tmp_path):
    data = record("paulista", [hand(["3c 3h 4h", "2c 2h 4s"], ["0 truco", "1 refuse"], vira="Kd")])
    code, out = replay(tmp_path, data)
    assert code == 0
    assert out["hands"] == [{"points": [1, 0]}]
    assert out["to_act"] == 1 and out["legal"] == []  # the next hand's cards are not in the record


def test_actions_after_the_hand_ended_exit_2(tmp_path):
    data = record(
        "paulista",
        [hand(["3c 3h 4h", "2c 2h 4s"], ["0 truco", "1 refuse", "1 play 2c"], vira="Kd")],
    )
    code, out = replay(tmp_path, data)
    assert code == 2 and (out["hand"], out["action"]) == (0, 2)


def records_file(tmp_path, games=3):
    path = tmp_path / "games.jsonl"
    code = subprocess.run(
        [
            sys.executable,
            "-m",
            "engine",
            "match",
            "--bots",
            "random",
            "random",
            "--games",
            str(games),
            "--seed",
            "5",
            "--records",
            str(path),
        ],
        capture_output=True,
    ).returncode
    assert code == 0
    return path


def replay_file(path, *args):
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(path), *args], capture_output=True, text=True
    )
    return proc.returncode, [json.loads(line) for line in proc.stdout.splitlines()]


def test_a_records_file_of_match_replays_every_game_on_a_line_of_its_own(tmp_path):
    path = records_file(tmp_path)
    code, lines = replay_file(path)
    assert code == 0
    assert [line["game"] for line in lines] == [1, 2, 3]
    recorded = [json.loads(line)["result"]["score"] for line in path.read_text().splitlines()]
    assert [line["score"] for line in lines] == recorded
    assert all(line["finished"] for line in lines)


def test_game_n_of_a_records_file_replays_as_a_single_record(tmp_path):
    path = records_file(tmp_path)
    second = json.loads(path.read_text().splitlines()[1])
    code, lines = replay_file(path, "--game", "2")
    assert code == 0
    assert lines == [
        {
            "score": second["result"]["score"],
            "winner": second["result"]["winner"],
            "finished": True,
            "hands": lines[0]["hands"],
        }
    ]


def test_a_game_number_outside_the_records_file_exits_2(tmp_path):
    code, lines = replay_file(records_file(tmp_path, games=2), "--game", "3")
    assert code == 2
    assert lines == [{"error": "--game 3: the file holds 2 games; choose 1 to 2"}]


def test_a_broken_line_of_a_records_file_exits_2_naming_the_game(tmp_path):
    path = records_file(tmp_path, games=2)
    path.write_text(path.read_text() + "{not json\n")
    code, lines = replay_file(path)
    assert code == 2
    assert len(lines) == 1 and lines[0]["game"] == 3 and "not JSON" in lines[0]["error"]
