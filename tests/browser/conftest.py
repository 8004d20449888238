"""One built site, two servers (cross-origin isolated or not) and one Chromium per session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

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

    def python_workers(self) -> list[str]:
        return [url for url in self.workers if "/livelab/runtime/worker.js" in url]


@pytest.fixture
def page(browser) -> Iterator[Page]:
    context = browser.new_context()
    page = context.new_page()
    page.log = PageLog(page)  # type: ignore[attr-defined]
    yield page
    context.close()
