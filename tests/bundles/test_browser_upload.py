"""In a real browser (Chromium driven by Playwright): a user uploads the Node example from the
"My bots" page and watches it become ready. The worker is stood in for by a thread that runs the
same validation (the smoke match in the jail) as soon as the upload is committed."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from tests.browser_support import browser, page  # noqa: F401 (the fixtures)
from tests.jail.conftest import jail_or_skip

pytestmark = pytest.mark.django_db(transaction=True)
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "bots"


@pytest.fixture
def validating_worker(monkeypatch):
    from django.db import connection

    from submitted_bots.smoke_match import validate_version

    def validate(bot_id: int) -> None:
        try:
            validate_version(bot_id)
        finally:
            connection.close()

    # The smoke match's opponent drawn among the quick built-in bots: against mcts (a chance
    # of the draw) the validation took 19 s of the test's 22; the page shows the same.
    monkeypatch.setattr("engine.bundles.smoke.OPPONENTS", ("random", "heuristic"))
    monkeypatch.setattr(
        "submitted_bots.bundles.uploads.publish_validation",
        lambda bot_id: threading.Thread(target=validate, args=(bot_id,), daemon=True).start(),
    )


def test_a_bundle_uploaded_from_my_bots_is_validated(
    page,  # noqa: F811 (the fixture)
    live_server,
    validating_worker,
    tmp_path,  # noqa: F811
):
    jail_or_skip()
    from django.contrib.auth import get_user_model

    from submitted_bots.bundles.operator import zipped

    archive = tmp_path / "node-greedy.zip"
    archive.write_bytes(zipped(EXAMPLES / "node-greedy"))
    get_user_model().objects.create_user("ana", password="un-truco-largo-42")
    page.goto(f"{live_server.url}/accounts/login/?next=/bots/mine/")
    page.fill("input[name=username]", "ana")
    page.fill("input[name=password]", "un-truco-largo-42")
    page.click("button[type=submit]")
    page.wait_for_url("**/bots/mine/")
    page.click("text=My bots")
    assert page.locator("#no-bots").count() == 1
    page.set_input_files("input[name=bundle]", str(archive))
    page.click("#upload button[type=submit]")
    page.wait_for_selector("text=ana/node-greedy v1 uploaded")
    row = page.locator("tr[data-status]").first
    assert row.get_attribute("data-status") in ("validating", "ready")
    page.wait_for_selector("tr[data-status=ready]", timeout=30_000)  # the page reloads itself
    text = page.locator("tr[data-status=ready]").inner_text()
    assert "paulista 2p" in text and "2 played to the end" in text
