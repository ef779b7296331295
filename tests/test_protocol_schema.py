"""The protocol's JSON Schema (docs/protocol/bot-protocol.schema.json) against what the engine
actually sends: every message of whole matches in every variant, player count and preset, as the
seat actor writes it (engine/protocol.py's builders and encoder), and the lines a bundle reads in
the jail. The schema refuses keys it does not describe, so a field the engine adds without
documenting it fails here; and docs/bot-protocol.md names every field the schema holds."""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

import jsonschema
import pytest

from engine.jail.limits import DEFAULT
from engine.match import MatchSpec, play_match
from engine.plugins import registry
from engine.protocol import (
    ProtocolBot,
    act_message,
    encode,
    game_end_message,
    hand_end_message,
    match_message,
)
from engine.runner import BotSpec
from engine.seats import MatchContext, register_isolation
from tests.support import act, start

PROJECT = Path(__file__).resolve().parents[1]
SCHEMA = json.loads((PROJECT / "docs/protocol/bot-protocol.schema.json").read_text())
DOC = (PROJECT / "docs/bot-protocol.md").read_text()
TYPES = ("match", "game", "act", "hand_end", "game_end", "match_end")


def validator(definition: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(
        {"$ref": f"#/$defs/{definition}", "$defs": SCHEMA["$defs"]}
    )


VALIDATORS = {kind: validator(kind) for kind in (*TYPES, "reply")}
WHOLE = jsonschema.Draft202012Validator(SCHEMA)


def check(message: dict) -> None:
    """The message is valid against the whole schema and its own definition (a readable error).

    The whole schema is one of the message definitions, each pinning its `type` to its own name
    (`pins_its_type`), so a message valid against the whole is valid against the definition
    its `type` names: that one is walked again only to explain a failure (walking both every
    time was half the time of the test of every message)."""
    if WHOLE.is_valid(message):
        return
    errors = list(VALIDATORS[message["type"]].iter_errors(message))
    if errors:
        best = jsonschema.exceptions.best_match(errors)
        raise AssertionError(f"{message['type']} message at {best.json_path}: {best.message[:500]}")
    raise AssertionError(f"{message['type']} message: valid against its own definition only")


def pins_its_type() -> bool:
    """What `check` relies on: the whole schema is one of the definitions of TYPES, each of
    which requires `type` to be its own name."""
    defs = SCHEMA["$defs"]
    return SCHEMA["oneOf"] == [{"$ref": f"#/$defs/{kind}"} for kind in TYPES] and all(
        defs[kind]["properties"]["type"]["const"] == kind and "type" in defs[kind]["required"]
        for kind in TYPES
    )


# --- what the seat actor sends, recorded ---------------------------------------------------

HEARD: list[dict] = []


class RecordingTransport:
    """A transport that keeps every line the actor writes (decoded, as a bot reads it) and
    answers each decision with a random legal action."""

    def __init__(self):
        self.rng = random.Random(len(HEARD))

    def send(self, message):
        HEARD.append(json.loads(encode(message)))

    def request(self, message, seconds):
        line = json.loads(encode(message))
        HEARD.append(line)
        return {"id": line["id"], "action": self.rng.choice(line["legal"])}

    def close(self, graceful=True):
        pass

    def log_since_last(self):
        return ""


def recording_actor(spec, context):
    match = match_message(
        bot=spec.name,
        params=spec.params,
        variant=context.variant,
        options=context.options,
        players=context.players,
        decision_seconds=context.decision_seconds,
        limits=DEFAULT.to_dict(),  # what the jail's actor sends
    )
    return ProtocolBot(RecordingTransport, match, decision_seconds=context.decision_seconds)


register_isolation("schema-recorder", recording_actor)
RECORDED = BotSpec("random", isolation="schema-recorder")

# Every variant, player count and preset, and options that reach rare messages.
SETTINGS = [
    (name, players, preset, {})
    for name, variant in sorted(registry().variants.items())
    for players in variant.players
    for preset in (None, *variant.presets)
] + [
    ("paulista", 4, None, {"truco_at_eleven": "loses_game", "deck": "clean"}),
    ("mineiro", 4, None, {"truco_on_trick": True, "deal_lots": True}),
    ("argentino", 2, None, {"falta_envido": "game_in_malas", "flor": True}),
]


def recorded_match(variant, players, preset, options, games=3, seed=1) -> list[dict]:
    HEARD.clear()
    play_match(
        MatchSpec(
            variant,
            RECORDED,
            RECORDED,
            players=players,
            preset=preset,
            options=options,
            games=games,
            seed=seed,
            decision_seconds=2.0,
        )
    )
    return list(HEARD)


@pytest.fixture(scope="module")
def every_setting() -> dict[tuple, list[dict]]:
    return {
        (v, p, preset, tuple(sorted(o.items()))): recorded_match(v, p, preset, o)
        for v, p, preset, o in SETTINGS
    }


def test_the_schema_is_a_valid_json_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert pins_its_type()


def test_every_message_in_every_variant_and_player_count_is_valid(every_setting):
    for setting, messages in every_setting.items():
        kinds = {m["type"] for m in messages}
        assert kinds == set(TYPES), (setting, kinds)
        for message in messages:
            try:
                check(message)
            except AssertionError as exc:
                raise AssertionError(f"{setting}: {exc}") from None


def keys_seen(value, found: set[str]) -> set[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            found.add(key)
            keys_seen(item, found)
    elif isinstance(value, list):
        for item in value:
            keys_seen(item, found)
    return found


def schema_properties(node=SCHEMA, found=None) -> set[str]:
    found = set() if found is None else found
    if isinstance(node, dict):
        found.update(node.get("properties", {}))
        for item in node.values():
            schema_properties(item, found)
    elif isinstance(node, list):
        for item in node:
            schema_properties(item, found)
    return found


# Fields no random match reaches: each has its own test below.
RARE = {
    "answer_bytes": "a remote bot's limit: test_a_remote_and_a_jailed_bots_match_messages",
    "best_flor": "both teams holding a flor: test_the_rare_observations",
    "error": "a bot's answer: test_replies",
    "action": "a bot's answer: test_replies",
}


def test_the_matches_reach_every_field_phase_and_bet_the_schema_describes(every_setting):
    seen: set[str] = set()
    phases: set[str] = set()
    bets: dict[str, set[str]] = {}
    for messages in every_setting.values():
        for message in messages:
            keys_seen(message, seen)
            observation = message.get("observation")
            if observation:
                phases.add(observation["phase"])
                for action, value in observation["bet_values"].items():
                    bets.setdefault(action, set()).update(value)
    missing = schema_properties() - seen - set(RARE)
    assert not missing, f"fields the schema describes that no match sent: {sorted(missing)}"
    assert phases == {"play", "answer", "decide", "envido", "showdown", "lots", "over"}
    assert bets == {
        "truco": {"won", "lost", "refused", "conceded"},
        "accept": {"won", "lost"},
        "refuse": {"conceded"},
        "envido": {"won", "lost", "refused"},
        "real_envido": {"won", "lost", "refused"},
        "falta_envido": {"won", "lost", "refused"},
    }


def test_the_rare_observations():
    # Both teams declare a flor: the best one is shown (Argentino, tests/variants).
    cards = ("7o 3o 10o", "2b 3b 11b", "6e 10e 12e", "4c 5c 6b")
    state = start("argentino", [(list(cards), None)], players=4, options={"flor": True})
    for seat in range(4):
        if seat < 3:
            state = act(state, f"{seat} flor")
        state = act(state, f"{seat} play {cards[seat].split()[0]}")
    observation = state.observation(0)
    assert "best_flor" in observation.extra["revealed"]
    check(json.loads(encode(hand_end_message(observation))))
    result = {"score": list(state.score), "winner": None}
    check(json.loads(encode(game_end_message(observation, result))))
    # A hand of eleven with four players: the team on it sees its partner's cards.
    state = start(
        "paulista",
        [(["4c 5c 6c", "4d 5d 6d", "7c Qc Jc", "7d Qd Jd"], "Kh")],
        players=4,
        start_score=(11, 3),
    )
    observation = state.observation(state.to_act)
    assert observation.partner_cards and observation.phase == "decide"
    message = json.loads(encode(act_message(1, observation)))
    check(message)
    assert message["observation"]["bet_values"] == {
        "accept": {"won": 3, "lost": 3},
        "refuse": {"conceded": 1},
    }


def test_replies():
    for reply in ({"action": "play 4c"}, {"id": 3, "action": "truco"}, {"error": "no model"}):
        assert VALIDATORS["reply"].is_valid(reply), reply
    for reply in ({}, {"action": 3}, {"id": "x", "action": "truco"}):
        assert not VALIDATORS["reply"].is_valid(reply), reply


def test_a_remote_and_a_jailed_bots_match_messages():
    from engine.jail.probe import availability
    from engine.remote import remote_actor

    context = MatchContext("paulista", registry().variant("paulista").rules().options, 2, 2.0)
    remote = remote_actor(
        BotSpec(
            "https://bots.example/greedy", isolation="remote", url="https://bots.example/greedy"
        ),
        context,
    )
    check(json.loads(encode(remote.match)))
    assert "answer_bytes" in remote.match["limits"]
    if availability().ok:
        from engine.jail.actor import jailed_actor

        check(json.loads(encode(jailed_actor(BotSpec("random", isolation="jail"), context).match)))


# --- what a bundle reads in the jail ---------------------------------------------------------

ECHO = """import sys
for line in sys.stdin:
    sys.stderr.write("IN " + line)
    sys.stderr.flush()
    if line.startswith('{"type":"act"'):
        import json, random
        message = json.loads(line)
        print(json.dumps({"id": message["id"], "action": random.Random(message["id"]).choice(message["legal"])}), flush=True)
"""


@pytest.mark.parametrize(("variant", "players"), [("paulista", 2), ("argentino", 4)])
def test_what_a_bundle_reads_in_the_jail_is_valid(tmp_path, variant, players):
    from tests.jail.conftest import jail_or_skip

    jail_or_skip()
    from engine.bundles import bundle_spec, load_bundle

    (tmp_path / "bot.toml").write_text(
        'name = "echo"\ncommand = ["python3", "bot.py"]\n[params]\nstyle = "calm"\n'
    )
    (tmp_path / "bot.py").write_text(ECHO)
    tmp_path.chmod(0o755)  # the jail's own user reads it
    spec = bundle_spec(load_bundle(tmp_path))
    messages = []
    # A game may end in its first hand (an Argentino falta envido taken wins it), so that no
    # `hand_end` is sent: matches are played until every kind of message was heard (a few
    # matches of two games at most, whatever the bots' seeds draw).
    for seed in range(3, 13):
        result = play_match(MatchSpec(variant, spec, "random", players=players, games=2, seed=seed))
        messages += [
            json.loads(line[3:])
            for game in result.games
            for text in game.result.logs.values()
            for line in text.splitlines()
            if line.startswith("IN ")
        ]
        if {m["type"] for m in messages} == set(TYPES):
            break
    assert {m["type"] for m in messages} == set(TYPES)
    for message in messages:
        check(message)
    assert messages[0]["params"] == {"style": "calm"}


# --- the documentation ------------------------------------------------------------------------


def test_the_protocol_page_names_every_field_of_the_schema():
    reference = DOC.split("## Message reference", 1)[1]
    missing = sorted(
        name for name in schema_properties() if not re.search(rf"`{re.escape(name)}`", reference)
    )
    assert not missing, f"fields docs/bot-protocol.md does not describe: {missing}"


def test_every_field_of_the_schema_has_a_description():
    def walk(node, path):
        if isinstance(node, dict):
            for name, value in node.get("properties", {}).items():
                assert "description" in value or "$ref" in value, f"{path}/{name}"
            for key, value in node.items():
                walk(value, f"{path}/{key}")

    walk(SCHEMA, "")


if __name__ == "__main__":  # python tests/test_protocol_schema.py: print one Argentino act
    messages = recorded_match("argentino", 2, None, {}, games=1)
    print(json.dumps(next(m for m in messages if m["type"] == "act"), separators=(",", ":")))
    sys.exit(0)
