"""The language of a table's push connection (tables/push.py, `language_of`): a browser whose
first language the site does not have once made the connection fail (Django's lookup of the
variant raised), and its page never heard the table; every spelling of a language was a view
the host rendered apart. Every connection's language is now one of the site's, as the site
writes it: a bounded set of views per table, whatever the headers say."""

from __future__ import annotations

import pytest
from django.conf import settings
from hypothesis import given
from hypothesis import strategies as st

from tables.push import language_of

SITE = {code for code, _ in settings.LANGUAGES}


def accept(header: str) -> dict:
    return {"headers": [(b"accept-language", header.encode("latin-1"))]}


@pytest.mark.parametrize(
    "header,language",
    [
        ("ja,en;q=0.8", "en"),  # Japanese first: the site has none, English next
        ("pt-BR,pt;q=0.9", "pt-br"),  # the site's spelling, one view for both
        ("fr-CA,es;q=0.5", "es"),
        ("en;q=0.1, es;q=0.9", "es"),  # by weight, not by order
        ("xx", settings.LANGUAGE_CODE),
        ("*", settings.LANGUAGE_CODE),
        ("de;q=abc,es", "es"),  # a malformed weight leaves that one out
    ],
)
def test_a_browsers_languages_give_one_the_site_has(header, language):
    assert language_of(accept(header)) == language


def test_the_sites_cookie_comes_first_in_any_case():
    scope = {**accept("es"), "cookies": {settings.LANGUAGE_COOKIE_NAME: "PT-BR"}}
    assert language_of(scope) == "pt-br"


@given(st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=255), max_size=80))
def test_whatever_the_header_the_language_is_one_of_the_sites(header):
    assert language_of(accept(header)) in SITE
