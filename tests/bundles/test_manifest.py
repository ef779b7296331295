"""bot.toml: what is accepted, and the message of every refusal."""

from __future__ import annotations

import json

import pytest

from engine.bundles import BundleError, check_against_registry, parse_manifest
from engine.plugins import registry


def parse(text: str):
    return parse_manifest(text.encode())


def test_a_full_manifest_is_read():
    manifest = parse(
        'name = "greedy"\ncommand = ["node", "bot.js"]\ndescription = "highest card"\n'
        'variants = ["paulista"]\nplayers = [2]\n'
    )
    assert manifest.command == ("node", "bot.js")
    assert manifest.supports("paulista", 2)
    assert not manifest.supports("paulista", 4)
    assert not manifest.supports("mineiro", 2)
    assert manifest.configurations(registry()) == [("paulista", 2)]


def test_without_variants_a_bot_plays_every_variant_and_player_count():
    manifest = parse('name = "x"\npython_class = "mybot:Greedy"\n')
    reg = registry()
    expected = [(name, n) for name in sorted(reg.variants) for n in reg.variants[name].players]
    assert manifest.configurations(reg) == expected
    assert manifest.module_file_candidates == ("mybot.py", "mybot/__init__.py")


@pytest.mark.parametrize(
    "text, message",
    [
        ("name = ", "not valid TOML"),
        ('command = ["a"]', "`name` must be"),
        ('name = "../x"\ncommand = ["a"]', "`name` must be"),
        ('name = "x"', "give either `command`"),
        ('name = "x"\ncommand = ["a"]\npython_class = "m:C"', "exactly one"),
        ('name = "x"\ncommand = []', "`command` must be a list"),
        ('name = "x"\ncommand = "python3 bot.py"', "`command` must be a list"),
        ('name = "x"\ncommand = ["python3", 3]', "`command` must be a list"),
        ('name = "x"\ncommand = ["../../bin/sh"]', "goes out of the bundle"),
        ('name = "x"\npython_class = "not a class"', "python_class"),
        ('name = "x"\ncommand = ["a"]\nplayers = [true]', "`players` must be"),
        ('name = "x"\ncommand = ["a"]\nvariants = "paulista"', "`variants` must be"),
        ('name = "x"\ncommand = ["a"]\ncomand = ["b"]', "unknown key 'comand'"),
    ],
)
def test_a_bad_manifest_is_refused_with_its_reason(text, message):
    with pytest.raises(BundleError, match="bad manifest") as caught:
        parse(text)
    assert message in str(caught.value)


def test_non_utf8_and_oversized_manifests_are_refused():
    with pytest.raises(BundleError, match="not UTF-8"):
        parse_manifest(b'name = "\xff"')
    with pytest.raises(BundleError, match="over 16 KiB"):
        parse_manifest(b"#" * 20_000)


def test_variants_and_player_counts_are_checked_against_the_server():
    reg = registry()
    with pytest.raises(BundleError, match="unknown variant 'klondike'"):
        check_against_registry(parse('name = "x"\ncommand = ["a"]\nvariants = ["klondike"]'), reg)
    with pytest.raises(BundleError, match="no variant listed plays with"):
        check_against_registry(
            parse('name = "x"\ncommand = ["a"]\nvariants = ["paulista"]\nplayers = [3]'), reg
        )
    check_against_registry(parse('name = "x"\ncommand = ["a"]\nvariants = ["paulista"]'), reg)


# Names a check with `re.match` and "$" let by: "$" matches before a final newline, so
# `heuristic\n` passed as `heuristic` and was shown so. Whitespace and control characters
# anywhere are refused too; the message shows the name as written (its repr).
SPOOFED_NAMES = [
    "heuristic\n",
    "greedy\r\n",
    "greedy\r",
    " greedy",
    "greedy ",
    "gre edy",
    "greedy\t",
    "greedy\x00",
    "greedy\x1b",
    "greedy\u2028",
    "greedy\u00a0",
]


@pytest.mark.parametrize("name", SPOOFED_NAMES)
def test_a_name_with_whitespace_or_a_control_character_is_refused(name):
    text = f'name = {json.dumps(name)}\ncommand = ["a"]'
    with pytest.raises(BundleError, match="`name` must be 1 to 40 letters") as caught:
        parse(text)
    assert repr(name) in str(caught.value)


def test_a_python_class_with_a_final_newline_is_refused():
    with pytest.raises(BundleError, match="python_class") as caught:
        parse('name = "x"\npython_class = "mybot:Greedy\\n"')
    assert repr("mybot:Greedy\n") in str(caught.value)
