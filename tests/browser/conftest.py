"""One built site, two servers (cross-origin isolated or not) and one Chromium per session."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config
from playwright.sync_api import Browser, Page, sync_playwright

from livelab.serve import make_server, serve_in_thread

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path(os.environ.get("LIVELAB_CHROMIUM", "/usr/bin/chromium"))
# Headless Chromium as root, with the background services that phone home switched off.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


class Site:
    """A served build of the course: base URL, plus whether pages are cross-origin isolated."""

    def __init__(self, server, isolated: bool) -> None:
        self.server = server
        self.isolated = isolated
        self.origin = f"http://127.0.0.1:{server.server_port}"

    def url(self, path: str = "") -> str:
        return f"{self.origin}/{path.lstrip('/')}"


def _serve_build(site_dir: Path, isolated: bool, build_it: bool) -> Site:
    server = make_server(site_dir, port=0, isolated=isolated)
    site = Site(server, isolated)
    if build_it:
        # Instant navigation only takes links listed in sitemap.xml, whose addresses carry the
        # port, so the site is built for the port it is served on.
        config = load_config(
            str(ROOT / "mkdocs.yml"), site_dir=str(site_dir), site_url=site.url(), strict=True
        )
        build(config)
    serve_in_thread(server)
    return site


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Iterator[Site]:
    """The site served cross-origin isolated, as `make serve` does."""
    served = _serve_build(tmp_path_factory.mktemp("site"), isolated=True, build_it=True)
    yield served
    served.server.shutdown()
    served.server.server_close()


@pytest.fixture(scope="session")
def plain_site(site) -> Iterator[Site]:
    """The same files served without isolation headers (no SharedArrayBuffer)."""
    served = _serve_build(
        Path(site.server.RequestHandlerClass.keywords["directory"]), isolated=False, build_it=False
    )
    yield served
    served.server.shutdown()
    served.server.server_close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.is_file():
        pytest.fail(f"{CHROMIUM} is missing: run `make test`, which installs Debian's chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
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
