"""The documents' pages (`/docs/bots/`, `/docs/bot-protocol/`, ...) and the starter zips."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import render

from engine.kit.new_bot import LANGUAGES
from website.guide import STARTER_NAME, render_document, starter_zip, starters

# The author's guide shows the starters and the way to the site's own upload page.
AUTHOR_PAGES = {"bots", "bot-protocol"}


def doc(request, name: str):
    document = render_document(name)
    if document is None:
        raise Http404("no such document")
    return render(
        request,
        "website/doc.html",
        {
            "name": name,
            "document": document,
            "starters": starters() if name in AUTHOR_PAGES else [],
        },
    )


def starter(request, language: str):
    if language not in LANGUAGES:
        raise Http404("no starter in that language")
    response = HttpResponse(starter_zip(language), content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{STARTER_NAME}-{language}.zip"'
    return response
