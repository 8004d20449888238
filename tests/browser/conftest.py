"""One built site, two servers (cross-origin isolated or not) and one Chromium per session."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

from tests.harness import Site, course_served, launch_chromium, serve_site

# The first answer on a page waits for Python to boot (about 3 s, more on a busy machine).
expect.set_options(timeout=15_000)


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Iterator[Site]:
    """The site served cross-origin isolated, as `make serve` does."""
    yield from course_served(tmp_path_factory)


@pytest.fixture(scope="session")
def plain_site(site) -> Iterator[Site]:
    """The same files served without isolation headers (no SharedArrayBuffer)."""
    served = serve_site(site.site_dir, isolated=False, build_it=False)
    served.pages, served.questions = site.pages, site.questions
    yield served
    served.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        try:
            browser = launch_chromium(playwright)
        except RuntimeError as exc:
            pytest.fail(str(exc))
        yield browser
        browser.close()


class PageLog:
    """What a page did that a test may assert on: errors, requests, workers started."""

    def __init__(self, page: Page) -> None:
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.workers: list[str] = []
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        page.on("console", lambda msg: msg.type == "error" and self.errors.append(msg.text))
        page.on("request", lambda request: self.requests.append(request.url))
        page.on("worker", lambda worker: self.workers.append(worker.url))

    def python_workers(self, role: str = "") -> list[str]:
        """The page's main Python workers, or those of another role ("runner", "scratch")."""
        url_end = "/livelab/runtime/worker/worker.js" + (f"#{role}" if role else "")
        return [url for url in self.workers if url.endswith(url_end)]


@pytest.fixture(scope="module")
def warm_context(browser) -> Iterator[BrowserContext]:
    """One browser profile for a whole test file, as a returning student has: its service
    worker, precache and stored Python (snapshot, bytecode) carry from test to test."""
    yield from kept_context(browser)


# A phone: its screen, touch, and the mobile viewport.
PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}


@pytest.fixture(scope="module")
def phone_context(browser) -> Iterator[BrowserContext]:
    """warm_context on a phone: one profile for the file, cleared of the student's progress
    between tests by `phone`."""
    yield from kept_context(browser, **PHONE)


@pytest.fixture
def phone(phone_context) -> Iterator[Page]:
    page = phone_context.new_page()
    page.log = PageLog(page)  # type: ignore[attr-defined]
    yield page
    forget_the_student(phone_context)


def kept_context(browser: Browser, **options) -> Iterator[BrowserContext]:
    """A context that notes every origin it asked, for forget_the_student, until closed."""
    context = browser.new_context(**options)
    origins: set[str] = set()
    context.on("request", lambda request: origins.add(origin_of(request.url)))
    context.origins_seen = origins  # type: ignore[attr-defined]
    yield context
    context.close()


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def forget_the_student(context: BrowserContext) -> None:
    """Close the context's pages and clear what a student leaves behind on every origin it
    asked (saved progress and lab settings, the scratchpad), keeping what the site stored for
    itself: the service worker and Cache Storage (the precache, the stored Python).

    Cleared from a page of each origin, not over CDP: a renderer that stays up for the
    origin's service worker keeps its own copy of localStorage, and a later tab of the origin
    read a lab setting back from it after Storage.clearDataForOrigin."""
    for open_page in context.pages:
        open_page.close()
    blank = context.new_page()
    for origin in sorted(context.origins_seen):  # type: ignore[attr-defined]
        if origin.startswith("http"):
            clear_origin(blank, origin)
    context.clear_cookies()
    blank.close()


def clear_origin(blank: Page, origin: str) -> None:
    """Clear an origin's storage until it stays clear: a tab closed a moment ago may still
    have a write in flight to the browser process (CI once saw a lab setting of the previous
    test come back after one clear), so clear, let in-flight writes land, and look again from
    a fresh document."""
    blank.goto(f"{origin}/sitemap.xml")
    for _ in range(5):
        blank.evaluate("localStorage.clear(); sessionStorage.clear()")
        blank.wait_for_timeout(200)
        blank.reload()
        if blank.evaluate("localStorage.length + sessionStorage.length") == 0:
            return
    left = blank.evaluate("Object.keys(localStorage)")
    raise AssertionError(f"{origin} kept localStorage entries {left} after five clears")


@pytest.fixture
def page(request, browser) -> Iterator[Page]:
    """A tab in a fresh profile, or in a test file's `warm` profile (see `warm_context`) unless
    the test is marked `cold`: a test that routes requests, counts downloads or needs a first
    visit stays cold."""
    marks = {mark.name for mark in request.node.iter_markers()}
    warm = "warm" in marks and "cold" not in marks
    context = request.getfixturevalue("warm_context") if warm else browser.new_context()
    page = context.new_page()
    page.log = PageLog(page)  # type: ignore[attr-defined]
    yield page
    if warm:
        forget_the_student(context)
    else:
        context.close()
