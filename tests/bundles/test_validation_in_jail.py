"""The smoke match in the jail: a good bundle passes in every setting it lists; one that crashes
at start-up, answers illegally, is too slow or needs a runtime the server lacks is rejected with
a reason its author can act on, and its log is kept for its owner."""

from __future__ import annotations

import pytest

from engine.bundles import bundle_spec, load_bundle
from engine.bundles.smoke import smoke_test
from engine.plugins import registry
from tests.jail.conftest import jail_or_skip

from .hostile_bundles import write_bundle


@pytest.fixture(autouse=True)
def jail():
    jail_or_skip()


def smoke(folder, **kw):
    bundle = load_bundle(folder)
    return smoke_test(bundle_spec(bundle), bundle.manifest, registry(), **kw)


def test_a_legal_bundle_passes_in_every_setting_it_lists(tmp_path):
    folder = write_bundle(tmp_path, "legal", variants='["paulista", "mineiro"]')
    report = smoke(folder)
    assert report.ok, report.reason
    assert [(s.variant, s.players, s.games) for s in report.settings] == [
        ("paulista", 2, 2),
        ("mineiro", 2, 2),
    ]
    assert all(s.terminations == {"normal": 2} for s in report.settings)


@pytest.mark.parametrize(
    "kind, reason",
    [
        ("crashes-at-start", "crashed at start-up (in paulista with 2 players, game 1)"),
        ("illegal", "illegal action in the smoke match (in paulista with 2 players, game 1)"),
        ("slow", "too slow (in paulista with 2 players, game 1)"),
        ("no-runtime", "no such command: 'ruby' is not installed on this server"),
    ],
)
def test_a_faulty_bundle_is_rejected_with_its_reason(tmp_path, kind, reason):
    report = smoke(write_bundle(tmp_path, kind), decision_seconds=0.5)
    assert not report.ok
    assert report.reason.startswith(reason), report.reason


def test_the_bots_log_is_kept_for_its_owner(tmp_path):
    report = smoke(write_bundle(tmp_path, "crashes-at-start"))
    assert "cannot find my model file" in report.log
    assert "exited with code 3" in report.reason


def test_a_bundle_slow_to_start_is_told_so_not_that_it_is_too_slow(tmp_path, monkeypatch):
    """Its start-up outran its allowance (here 1 s): the reason says that, with the allowance,
    and its log shows it; "too slow" is for a decision over its time."""
    from engine.jail import actor
    from engine.jail.limits import Limits

    monkeypatch.setattr(actor, "DEFAULT", Limits(startup_seconds=1.0))
    report = smoke(write_bundle(tmp_path, "sleeps-at-start"), decision_seconds=0.5, games=1)
    assert not report.ok
    assert report.reason.startswith(
        "did not answer its first message within 1 s of starting (in paulista with 2 players, "
        "game 1): a bot has 1 s to start"
    ), report.reason
    assert "[the server: did not answer its first message within 1 s of starting]" in report.log
    slow = smoke(write_bundle(tmp_path, "slow"), decision_seconds=0.5, games=1)
    assert slow.reason.startswith("too slow (in paulista with 2 players, game 1)"), slow.reason
    assert "[the server: no answer within 0.5s]" in slow.log
