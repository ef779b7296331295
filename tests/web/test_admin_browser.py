"""The admin's tournament form in a real browser, on a live server: the option groups follow the
selected variant and format, a preset fills the fields in, and what is saved is what was shown.
The same server answers JSON for an unknown API URL and serves the favicon."""

from __future__ import annotations

import json

import pytest

from tests.web.test_browser import page  # noqa: F401 (the Chromium page; `browser` is in conftest)

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_admin_form_follows_the_variant_and_fills_in_a_preset(page, live_server):  # noqa: F811
    from django.contrib.auth import get_user_model

    from tournaments.models import Tournament

    get_user_model().objects.create_superuser("boss", "", "un-truco-largo-42")
    page.goto(f"{live_server.url}/admin/login/?next=/admin/tournaments/tournament/add/")
    page.fill("#id_username", "boss")
    page.fill("#id_password", "un-truco-largo-42")
    page.click("input[type=submit]")
    page.wait_for_selector("#id_variant")
    assert page.locator("fieldset.rule-options-paulista").is_visible()
    assert not page.locator("fieldset.rule-options-mineiro").is_visible()

    page.select_option("#id_variant", "mineiro")
    assert page.locator("fieldset.rule-options-mineiro").is_visible()
    assert not page.locator("fieldset.rule-options-paulista").is_visible()
    page.select_option("#id_preset", "mineiro-pagat")
    assert page.input_value("#id_rule__mineiro__ladder") == "1, 3, 6, 9, 12"
    assert page.is_checked("#id_rule__mineiro__no_winning_raise")
    assert not page.is_checked("#id_rule__mineiro__first_tie_showdown")
    page.fill("#id_rule__mineiro__target", "20")
    page.select_option("#id_format", "swiss")
    assert page.locator("fieldset.format-options-swiss").is_visible()
    assert not page.locator("fieldset.format-options-round-robin").is_visible()
    page.fill("#id_fmt__swiss__rounds", "3")
    page.fill("#id_name", "Browser Cup")
    page.click("input[name=_save]")
    page.wait_for_url("**/admin/tournaments/tournament/")

    saved = Tournament.objects.get(name="Browser Cup")
    assert (saved.variant, saved.preset) == ("mineiro", "mineiro-pagat")
    assert saved.options == {"target": 20}  # the preset's values are the preset's, not copies
    assert saved.format_options == {"rounds": 3}


def test_the_live_server_answers_json_for_an_unknown_api_url_and_has_a_favicon(
    page,  # noqa: F811
    live_server,
):
    answer = page.request.get(f"{live_server.url}/api/tournaments/abc/standings/")
    assert answer.status == 404 and answer.headers["content-type"] == "application/json"
    assert "/api/docs/" in json.loads(answer.text())["detail"]
    icon = page.request.get(f"{live_server.url}/favicon.ico")
    assert icon.status == 200 and icon.headers["content-type"].startswith("image/svg")
