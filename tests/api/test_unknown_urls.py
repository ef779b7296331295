"""Every /api/ error answers JSON: an unknown API URL, a wrong id, a method an endpoint does not
take. Pages outside /api/ keep Django's HTML 404."""

from __future__ import annotations

import pytest
from django.test import RequestFactory

from restapi.errors import not_found

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "url",
    [
        "/api/tournaments/abc/standings/",
        "/api/nonsense/",
        "/api/tournaments/1/nothing/",
        "/api/play/nothing/",
    ],
)
@pytest.mark.parametrize("method", ["get", "post", "delete"])
def test_an_unknown_api_url_is_a_json_404(staff_api, url, method):
    response = getattr(staff_api, method)(url)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["detail"]


def test_an_id_that_does_not_exist_is_a_json_404(staff_api):
    response = staff_api.get("/api/tournaments/999999/")
    assert response.status_code == 404
    assert response.json() == {"detail": "No Tournament matches the given query."}


@pytest.mark.parametrize("debug", [True, False])
def test_the_json_404_holds_with_debug_on_too(api, settings, debug):
    settings.DEBUG = debug  # with DEBUG on Django would list every URL pattern
    response = api.get("/api/tournaments/abc/standings/")
    assert response.status_code == 404
    assert "/api/docs/" in response.json()["detail"]
    assert b"URLconf" not in response.content


def test_a_url_missing_its_slash_is_still_redirected_to_the_endpoint(api):
    response = api.get("/api/tournaments")
    assert response.status_code == 301 and response["Location"] == "/api/tournaments/"


@pytest.mark.parametrize(
    "method, url", [("put", "/api/variants/paulista/"), ("post", "/api/tournaments/1/")]
)
def test_a_method_an_endpoint_does_not_take_is_a_json_405(staff_api, method, url):
    response = getattr(staff_api, method)(url, {}, format="json")
    assert response.status_code == 405
    assert response.json() == {"detail": f'Method "{method.upper()}" not allowed.'}


def test_the_404_handler_answers_json_under_api_and_html_elsewhere():
    api_answer = not_found(RequestFactory().get("/api/anything"))
    assert api_answer.status_code == 404 and api_answer["Content-Type"] == "application/json"
    page = not_found(RequestFactory().get("/tournaments/nothing/"))
    assert page.status_code == 404 and page["Content-Type"].startswith("text/html")


def test_an_unknown_page_outside_the_api_is_still_an_html_404(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
