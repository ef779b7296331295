"""The OpenAPI schema at /api/schema/ is valid OpenAPI 3 and documents every endpoint; the
interactive docs page is served."""

from __future__ import annotations

import pytest
import yaml
from drf_spectacular.validation import validate_schema

pytestmark = pytest.mark.django_db


def test_schema_is_valid_openapi(api):
    response = api.get("/api/schema/")
    assert response.status_code == 200
    schema = yaml.safe_load(response.content)
    validate_schema(schema)  # raises on anything that is not OpenAPI 3
    paths = schema["paths"]
    for path in (
        "/api/variants/",
        "/api/bots/",
        "/api/players/",
        "/api/tournaments/",
        "/api/tournaments/{id}/standings/",
        "/api/tournaments/{id}/bracket/",
        "/api/tournaments/{id}/start/",
        "/api/rounds/",
        "/api/matches/",
        "/api/games/{id}/record/",
        "/api/ratings/",
        "/api/play/matches/{id}/act/",
    ):
        assert path in paths, path


def test_schema_generation_has_no_warnings(api, capsys):
    from drf_spectacular.drainage import GENERATOR_STATS

    GENERATOR_STATS.reset()
    api.get("/api/schema/")
    assert not GENERATOR_STATS._warn_cache, list(GENERATOR_STATS._warn_cache)
    assert not GENERATOR_STATS._error_cache, list(GENERATOR_STATS._error_cache)


def test_interactive_docs_page(api):
    response = api.get("/api/docs/")
    assert response.status_code == 200
    assert b"swagger" in response.content.lower()
