"""The example opponents of examples/opponents/ (bots with distinct styles to measure ours
against): each plays whole matches in the jail, as a bundle, in every variant its manifest lists,
and only ever answers legal actions; their shared helper reads hands as the rules say."""

from __future__ import annotations

import random
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from engine.observation import Observation
from tests.jail.conftest import jail_or_skip

PROJECT = Path(__file__).resolve().parents[2]
OPPONENTS = PROJECT / "examples" / "opponents"
BUNDLES = sorted(p.parent.name for p in OPPONENTS.glob("*/bot.toml"))
ALL_VARIANTS = ("paulista", "mineiro", "truc-tete", "argentino")

sys.path.insert(0, str(OPPONENTS / "kit"))
sys.path.insert(0, str(OPPONENTS / "polarised"))
import kit  # noqa: E402
from polarised import Polarised  # noqa: E402


def variants_of(bundle: str) -> list[str]:
    manifest = tomllib.loads((OPPONENTS / bundle / "bot.toml").read_text())
    return manifest.get("variants") or list(ALL_VARIANTS)


def test_there_are_the_four_styles():
    assert {"bluffer", "eleven_rush", "counter", "envido_shark", "polarised"} <= set(BUNDLES)


@pytest.mark.parametrize("bundle", BUNDLES)
def test_each_opponent_plays_only_normal_games_in_the_jail(bundle):
    jail_or_skip()
    for variant in variants_of(bundle):
        for players in (2, 4) if variant != "truc-tete" else (2,):
            run = subprocess.run(
                [sys.executable, "-m", "engine", "arena", "--variant", variant,
                 "--players", str(players), "--bots", f"examples/opponents/{bundle}", "random",
                 "--pairs", "1", "--seed", "3"],
                cwd=PROJECT, capture_output=True, text=True, timeout=300,
            )  # fmt: skip
            where = f"{bundle} in {variant} with {players} players"
            assert run.returncode == 0, f"{where}: {run.stderr}"
            assert "terminations: normal 2" in run.stdout, f"{where}: {run.stdout}"


@pytest.mark.parametrize("bundle", BUNDLES)
def test_each_bundle_carries_the_same_kit(bundle):
    assert (OPPONENTS / bundle / "kit.py").read_text() == (OPPONENTS / "kit" / "kit.py").read_text()


def observation(**changes) -> Observation:
    base = dict(
        variant="paulista", options={}, players=2, seat=0, score=(0, 0), target=12, hand_no=0,
        dealer=1, mano=0, phase="play", to_act=0, legal=("play 4c", "play 4h", "play 4s"),
        hand=("4c", "4h", "4s"), covered=(), vira="3d", kind="normal", stake=1, pending=None,
        bettor=None, raise_holder=None, tricks=(), results=(), trick=(), partner_cards={},
        history=(), extra={},
    )  # fmt: skip
    base.update(changes)
    return Observation(**base)


def test_the_three_best_manilhas_always_take_the_hand():
    # Vira 3: the fours are manilhas, and clubs, hearts and spades are the three best of them.
    obs = observation()
    assert kit.win_chance(obs, random.Random(1), samples=50) == 1.0


def test_the_weakest_cards_after_losing_the_first_trick_never_win():
    # Vira 3: the fours are manilhas, so fives are the weakest cards. Seat 0 lost the first trick
    # and holds two fives: a later trick it ties goes to the first winner, and nothing is lower.
    obs = observation(
        hand=("5c", "5h"), legal=(), results=(1,), to_act=1,
        tricks=(((0, "6c", False), (1, "7c", False)),),
    )  # fmt: skip
    assert kit.next_to_play(obs) == 1
    assert kit.win_chance(obs, random.Random(2), samples=50) == 0.0


def test_hand_winner_follows_the_tie_rules():
    tied = kit.TIED
    assert kit.hand_winner([0, 0], 1, False) == 0
    assert kit.hand_winner([tied, 1], 0, False) == 1  # a tied first trick: the next one decides
    assert kit.hand_winner([1, tied], 0, False) == 1  # a later tie: the first winner
    assert kit.hand_winner([0, 1], 1, False) is None  # still open
    assert kit.hand_winner([tied, tied, tied], 1, True) == 1  # Argentino: the mano's team
    assert kit.hand_winner([tied, tied, tied], 1, False) == tied


def test_accepting_a_truco_pays_from_one_chance_in_three():
    # Refusing loses 1; accepting wins or loses 3: break-even at 1/3.
    assert kit.accept_threshold(observation(phase="answer", pending=3)) == pytest.approx(1 / 3)


def test_no_opponent_calls_truco_in_a_hand_of_eleven():
    obs = observation(kind="eleven", legal=("play 4c", "truco"))
    assert not kit.may_truco(obs)


def test_a_blind_showdown_pairs_slots():
    # Mineiro's iron hand is blind; a tied first trick then asks for a pair of slots.
    obs = observation(
        variant="mineiro", vira=None, hand=("#0", "#2"), phase="showdown", kind="iron",
        legal=("pair #0 #2", "pair #2 #0"), results=(-1,),
        tricks=(((0, "4c", False), (1, "4h", False)),),
    )  # fmt: skip
    assert kit.default_action(obs) in obs.legal


def polarised_after_taking_the_first_trick(hand, **changes) -> Observation:
    # Vira 3: the fours are manilhas. Seat 0 took the first trick with a two, unbet.
    base = dict(
        hand=hand, legal=tuple(sorted((*(f"play {c}" for c in hand), "truco"))), results=(0,),
        tricks=(((0, "2c", False), (1, "7c", False)),), history=((0, "play 2c"), (1, "play 7c")),
    )  # fmt: skip
    base.update(changes)
    return observation(**base)


def polarised_bot() -> Polarised:
    return Polarised(variant="paulista", options={}, seat=0, players=2, rng=random.Random(1))


def test_the_polarised_opponent_bluffs_with_nothing_once_it_took_the_first_trick():
    # A queen and a jack, nothing above a king: a truco all the same.
    assert polarised_bot().act(polarised_after_taking_the_first_trick(("Qc", "Jh"))) == "truco"


def test_the_polarised_opponent_bets_a_manilha_with_a_good_card_and_not_a_middling_hand():
    bot = polarised_bot()
    assert bot.act(polarised_after_taking_the_first_trick(("4c", "3h"))) == "truco"
    # An ace and a king: neither nothing nor the best, so it plays on quietly.
    assert bot.act(polarised_after_taking_the_first_trick(("Ac", "Kh"))).startswith("play ")


def test_the_polarised_opponent_never_bets_before_it_took_the_first_trick():
    obs = observation(hand=("Qc", "Jh", "5s"), legal=("play 5s", "play Jh", "play Qc", "truco"))
    assert polarised_bot().act(obs).startswith("play ")


def test_the_polarised_opponent_answers_by_its_cards_alone():
    bot = polarised_bot()
    answer = dict(phase="answer", pending=3, bettor=1, history=((1, "truco"),))
    weak = observation(hand=("Qc", "Jh", "5s"), legal=("accept", "refuse", "truco"), **answer)
    assert bot.act(weak) == "refuse"
    two_manilhas = observation(
        hand=("4c", "4h", "5s"), legal=("accept", "refuse", "truco"), **answer
    )
    assert bot.act(two_manilhas) == "truco"
