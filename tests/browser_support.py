"""The browser tests' fixtures (Debian's Chromium driven by Playwright), for every folder of
tests: import `browser` and `page` from here."""

from __future__ import annotations

import os
import shutil

import pytest

# --- the browser tests (Debian's Chromium driven by Playwright) ---------------------------
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_found() -> bool:
    return bool(os.path.exists(CHROMIUM) or shutil.which(CHROMIUM))


def browser_or_skip():
    """Playwright's sync API for a module of browser tests, or the whole module skipped saying
    what is missing (called at the module's top: `sync_api = browser_or_skip()`)."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
    if not chromium_found():
        pytest.skip(
            f"Chromium not found at {CHROMIUM} (apt-get install -y chromium, or set CHROMIUM)",
            allow_module_level=True,
        )
    return sync_api


@pytest.fixture(scope="module")
def browser():
    sync_api = browser_or_skip()
    # Playwright's sync API runs an event loop: Django must allow its ORM calls around it.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            yield browser
            browser.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def page(browser):
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()
