"""Fixtures for tests that drive pages in a real headless Chromium.

Tests here are marked ``@pytest.mark.browser``; ``make test`` leaves them out and
``make test-browser`` runs only them, after installing what they need: Debian's ``chromium``
and the ``playwright`` package, which drives that Chromium (``executable_path``) and never
downloads a browser of its own. ``SEARCHVID_CHROMIUM`` names another Chromium binary.

Fixtures:
    ``chromium``: one headless Chromium for the session (a fresh, temporary profile).
    ``page``: a new page of it for each test, 1000 x 700 px, failing the test on any script
        error, error logged on the console, or request for anything but the page's own file
        and ``data:`` URLs.
    ``phone``: the same on a phone's screen (:data:`PHONE`: 390 px wide, touch).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

# Chromium as root in a sandbox without network: no sandbox, no GPU, no background traffic.
CHROMIUM_ARGS = [
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str:
    """The Chromium binary to drive: ``$SEARCHVID_CHROMIUM``, else ``chromium`` on the PATH."""
    path = os.environ.get("SEARCHVID_CHROMIUM") or shutil.which("chromium")
    if not path:
        pytest.fail("no chromium on the PATH: `make test-browser` installs Debian's chromium")
    return path


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("the playwright package is missing: `make test-browser` installs it")
    with sync_playwright() as driver:
        # Playwright adds --headless and --no-sandbox, and gives the browser a new profile.
        browser = driver.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 3,
    "is_mobile": True,
    "has_touch": True,
}
"""A phone's screen: 390 CSS px wide (an iPhone 12 to 15), touch, three device pixels a px."""


def _watched_page(chromium: Any, **context_options: Any) -> Iterator[Any]:
    """A page of a new context that fails the test on script errors, console errors and
    requests for anything but the page's own file and ``data:`` URLs."""
    context = chromium.new_context(**context_options)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(f"script error: {error}"))
    page.on(
        "console",
        lambda message: (
            problems.append(f"console {message.type}: {message.text}")
            if message.type == "error"
            else None
        ),
    )

    def request(req: Any) -> None:
        if not req.url.startswith(("file://", "data:")):
            problems.append(f"request for {req.url}")

    page.on("request", request)
    yield page
    context.close()
    assert problems == []


@pytest.fixture
def page(chromium: Any) -> Iterator[Any]:
    yield from _watched_page(chromium, viewport={"width": 1000, "height": 700})


@pytest.fixture
def phone(chromium: Any) -> Iterator[Any]:
    yield from _watched_page(chromium, **PHONE)
