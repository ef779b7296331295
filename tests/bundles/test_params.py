"""A bundle's `[params]`: what bot.toml may declare, how given values are checked (the one
function the CLI and the server call), and how the command line names a bundle with values."""

from __future__ import annotations

import pytest

from engine.bundles import BundleError, ParamError, parse_manifest, resolve_params
from engine.bundles.manifest import Manifest
from engine.bundles.params import value_from_text
from engine.cli_bots import split_bundle_argument

HEAD = 'name = "x"\ncommand = ["python3", "bot.py"]\n'


def declared(text: str):
    return parse_manifest((HEAD + text).encode()).params


FULL = """[params]
bet_rate = 0.1
bluff = true
style = "calm"
[params.depth]
default = 3
min = 1
max = 10
help = "tricks it looks ahead"
[params.opening]
default = "strong"
choices = ["strong", "weak"]
"""


def test_the_short_and_the_long_forms_declare_a_type_and_a_default():
    params = declared(FULL)
    assert [(p.name, p.type, p.default) for p in params] == [
        ("bet_rate", "float", 0.1),
        ("bluff", "bool", True),
        ("style", "string", "calm"),
        ("depth", "int", 3),
        ("opening", "string", "strong"),
    ]
    assert params[3].min == 1 and params[3].max == 10 and params[3].help
    assert params[4].choices == ("strong", "weak")
    assert resolve_params(params, {}) == {
        "bet_rate": 0.1,
        "bluff": True,
        "style": "calm",
        "depth": 3,
        "opening": "strong",
    }


def test_a_manifest_without_params_takes_none():
    assert declared("") == ()
    assert resolve_params((), None) == {}
    with pytest.raises(ParamError, match=r"valid parameters: none \(its bot.toml declares"):
        resolve_params((), {"depth": 2}, bot="'x'")


@pytest.mark.parametrize(
    "given, message",
    [
        ({"dept": 3}, "bot 'x' has no parameter 'dept'; valid parameters: bet_rate (a number"),
        ({"depth": 11}, "'depth' must be an integer from 1 to 10, not 11"),
        ({"depth": 2.0}, "'depth' must be an integer from 1 to 10, not 2.0"),
        ({"depth": True}, "'depth' must be an integer"),
        ({"bluff": 1}, "'bluff' must be true or false, not 1"),
        ({"bet_rate": "a lot"}, "'bet_rate' must be a number, not \"a lot\""),
        ({"bet_rate": float("nan")}, "'bet_rate' must be a number"),
        ({"opening": "middle"}, '\'opening\' must be one of "strong", "weak", not "middle"'),
        ({"style": "x" * 201}, "'style' must be a string"),
        (["depth"], "parameters must be an object of name: value"),
    ],
)
def test_a_value_the_bot_does_not_take_is_refused_naming_what_it_takes(given, message):
    with pytest.raises(ParamError) as refused:
        resolve_params(declared(FULL), given, bot="'x'")
    assert message in str(refused.value)


def test_given_values_replace_the_defaults_and_an_integer_is_a_number():
    values = resolve_params(declared(FULL), {"bet_rate": 1, "depth": 10, "opening": "weak"})
    assert values["bet_rate"] == 1.0 and isinstance(values["bet_rate"], float)
    assert values["depth"] == 10 and values["opening"] == "weak" and values["style"] == "calm"


@pytest.mark.parametrize(
    "text, message",
    [
        ("params = 3", "`params` must be a table"),
        (
            "[params]\nx = [1, 2]",
            "its default must be true/false, an integer, a number or a string",
        ),
        ("[params]\n1x = 1", "a parameter's name is"),
        ('[params]\n"depth\\n" = 1', "a parameter's name is"),  # "$" let a final newline by
        ("[params.x]\nmin = 1", "give its `default`"),
        ("[params.x]\ndefault = 1\nmaximum = 3", "unknown key 'maximum'; valid keys: default"),
        ("[params.x]\ndefault = 5\nmin = 1\nmax = 3", "its default must be an integer from 1 to 3"),
        ("[params.x]\ndefault = 1\nmin = 3\nmax = 1", "`min` is above `max`"),
        ('[params.x]\ndefault = "a"\nmin = 1', "`min` and `max` are numbers"),
        ("[params.x]\ndefault = true\nchoices = [true]", "only integer and string parameters"),
        ('[params.x]\ndefault = "a"\nchoices = ["b"]', 'its default must be one of "b"'),
        ('[params.x]\ndefault = "a"\nchoices = ["a", 2]', "each of its `choices` must be a string"),
        ('[params.x]\ndefault = "a"\nchoices = ["a", "a"]', "lists a value twice"),
        ("[params]\nx = inf", "its default must be a finite number"),
        ("[params]\n" + "".join(f"p{i} = 1\n" for i in range(33)), "at most 32 parameters"),
    ],
)
def test_a_bad_declaration_is_a_bad_manifest(text, message):
    with pytest.raises(BundleError, match="bad manifest") as refused:
        declared(text)
    assert message in str(refused.value)


def test_a_stored_manifest_keeps_its_declarations():
    manifest = parse_manifest((HEAD + FULL).encode())
    again = Manifest.from_json(manifest.as_json())
    assert again.params == manifest.params
    assert Manifest.from_json({"name": "old"}).params == ()  # stored before [params] existed


def test_command_line_values_are_read_as_their_parameters_type():
    params = declared(FULL)
    assert value_from_text(params, "style", "3") == "3"  # a string parameter keeps the text
    assert value_from_text(params, "style", '"wild, really"') == "wild, really"
    assert value_from_text(params, "depth", "3") == 3
    assert value_from_text(params, "bluff", "false") is False
    assert value_from_text(params, "bet_rate", "0.25") == 0.25
    assert value_from_text(params, "unknown", "x") == "x"  # left for resolve_params to name


def test_a_bundle_argument_is_split_from_its_values(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mybot").mkdir()
    (tmp_path / "odd:name").mkdir()
    assert split_bundle_argument("./mybot") == ("./mybot", "")
    assert split_bundle_argument("./mybot:bet_rate=0.3,style=x") == (
        "./mybot",
        "bet_rate=0.3,style=x",
    )
    assert split_bundle_argument("mybot/:bot=x") == ("mybot/", "bot=x")
    assert split_bundle_argument("./odd:name") == ("./odd:name", "")  # a path may hold a colon
    assert split_bundle_argument("./odd:name:x=1") == ("./odd:name", "x=1")
    assert split_bundle_argument("./missing:x=1") == ("./missing", "x=1")
    assert split_bundle_argument("bot.zip:x=1") == ("bot.zip", "x=1")
    assert split_bundle_argument("mcts:time_ms=50") is None  # a registered bot
    assert split_bundle_argument("heuristic:path=a/b") is None
    assert split_bundle_argument("https://bots.example/x") is None
