"""A bot's log keeps its first and its last lines, with the count of what was dropped between
(engine/bot_logs.py), wherever it is bounded: the jail's reader (tests/jail/test_hostile_bots.py
floods it), a game's result, the stored game's private part, a human table's log and a
version's validation log."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.bot_logs import MARK, LogKeeper, bounded, mark

FLOOD = "the first line\n" + "".join(f"line {n}\n" for n in range(100_000)) + "the last line\n"


def dropped_count(text: str) -> int:
    return sum(int(found[1].replace(",", "")) for found in MARK.finditer(text))


def kept_chars(text: str) -> int:
    return len(text) - sum(len(found[0]) for found in MARK.finditer(text))


def test_a_short_log_is_kept_whole():
    assert bounded("started\nplayed\n", 1000) == "started\nplayed\n"


def test_a_flood_keeps_its_first_and_last_lines_and_says_how_much_is_missing():
    kept = bounded(FLOOD, 64_000)
    assert len(kept) <= 64_000
    assert kept.startswith("the first line\nline 0\n")
    assert kept.endswith("line 99999\nthe last line\n")
    assert f"[... {len(FLOOD) - kept_chars(kept):,} characters not kept ...]" in kept
    assert kept_chars(kept) + dropped_count(kept) == len(FLOOD)


def test_bounding_again_adds_up_what_each_bound_dropped():
    """A game's log bounded in the jail, then again when stored; a human table's log that grows
    by one advance after another: the mark still counts everything missing."""
    once = bounded(FLOOD, 100_000)
    twice = bounded(once, 10_000)
    assert kept_chars(twice) + dropped_count(twice) == len(FLOOD)
    assert twice.startswith("the first line\n") and twice.endswith("the last line\n")
    table = ""
    for advance in range(50):
        table = bounded(table + f"advance {advance}\n" + "x" * 5_000 + "\n", 20_000)
    assert table.startswith("advance 0\n") and "advance 49\n" in table
    assert kept_chars(table) + dropped_count(table) == sum(
        len(f"advance {n}\n") + 5_001 for n in range(50)
    )
    assert len(MARK.findall(table)) == 1


# Logs as they reach a bound: the bot's own text, and the marks of bounds before this one.
LOGS = st.lists(
    st.one_of(st.text(alphabet="ab \nx", max_size=400), st.integers(0, 10**9).map(mark)),
    max_size=12,
).map("".join)


@given(LOGS, st.integers(min_value=100, max_value=2_000))
def test_nothing_is_dropped_without_being_counted(text, limit):
    kept = bounded(text, limit)
    assert len(kept) <= limit
    assert kept_chars(kept) + dropped_count(kept) == kept_chars(text) + dropped_count(text)


@given(
    st.text(alphabet="ab\nxyz", max_size=5_000),
    st.lists(st.integers(min_value=1, max_value=700), max_size=40),
    st.integers(min_value=100, max_value=2_000),
)
def test_a_log_read_piece_by_piece_is_kept_as_the_whole_would_be(text, pieces, limit):
    keeper = LogKeeper(limit)
    at = 0
    for size in pieces:
        keeper.add(text[at : at + size])
        at += size
    keeper.add(text[at:])
    assert keeper.text() == bounded(text, limit)
    assert keeper.full == (len(text) > limit)


def test_a_mark_is_never_cut_in_two():
    text = "a" * 480 + mark(1_000_000) + "b" * 480
    for limit in range(100, 1_000, 7):
        kept = bounded(text, limit)
        assert kept.count("[...") == len(MARK.findall(kept)) == 1, (limit, kept)
        assert kept_chars(kept) + dropped_count(kept) == 960 + 1_000_000


@pytest.mark.django_db
def test_the_stored_game_and_the_validation_log_keep_both_ends(monkeypatch):
    from engine.bundles.smoke import SmokeReport
    from engine.runner import GameResult
    from submitted_bots import smoke_match as validation
    from tests.factories import BotFactory
    from tournaments.game_privacy import MAX_LOG_CHARS, private_part

    result = GameResult(record={}, score=(0, 0), winner=0, termination="normal", seat=None)
    result.logs = {0: FLOOD}
    stored = private_part(result)["logs"]["0"]
    monkeypatch.setattr(validation, "run_smoke_match", lambda bot: SmokeReport(True, "", log=FLOOD))
    bot = BotFactory(status="validating")
    assert validation.validate_version(bot.pk) == "ready"
    bot.refresh_from_db()
    for kept, limit in ((stored, MAX_LOG_CHARS), (bot.log, validation.MAX_LOG_CHARS)):
        assert len(kept) <= limit
        assert kept.startswith("the first line\n") and kept.endswith("the last line\n")
        assert kept_chars(kept) + dropped_count(kept) == len(FLOOD)
