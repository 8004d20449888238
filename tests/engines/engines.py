"""The three engines by name, and the server that lets WebKit report console errors."""

from __future__ import annotations

import functools
import io
import os
from collections.abc import Iterator
from contextlib import contextmanager
from http import HTTPStatus
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from livelab.builder.serve import SiteHandler, make_server, serve_in_thread
from tests.engines.chromium import Chromium
from tests.engines.firefox import Firefox
from tests.engines.webkit import ERROR_PROBE, WebKit
from tests.harness import Site

ENGINES = ("chromium", "firefox", "webkit")


@contextmanager
def launched(name: str) -> Iterator[Any]:
    """A running engine (.tab() opens a fresh tab), closed on exit."""
    if name == "chromium":
        with sync_playwright() as playwright:
            engine: Any = Chromium(playwright)
            try:
                yield engine
            finally:
                engine.close()
        return
    engine = Firefox() if name == "firefox" else WebKit()
    try:
        yield engine
    finally:
        engine.close()


class ProbeHandler(SiteHandler):
    """SiteHandler that puts a script first in every page's <head> (server.probe): the
    console-error probe for the engine whose driver cannot read the console (classic
    WebDriver, WebKit), or a timing probe for bench/engines.py."""

    def send_head(self):  # type: ignore[no-untyped-def]
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if path.suffix != ".html" or not path.is_file():
            return super().send_head()
        html = path.read_text(encoding="utf-8")
        probe = getattr(self.server, "probe", ERROR_PROBE)
        body = html.replace("<head>", "<head>" + probe, 1).encode("utf-8")
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


def serve_probed(site: Site, probe: str = ERROR_PROBE) -> Site:
    """The built site's files at another port, each page carrying `probe` (HTML)."""
    server = make_server(site.site_dir, port=0, isolated=site.isolated)
    server.probe = probe  # type: ignore[attr-defined]
    server.RequestHandlerClass = functools.partial(  # type: ignore[assignment]
        ProbeHandler, directory=os.fspath(site.site_dir)
    )
    probed = Site(server, site.site_dir, site.isolated)
    probed.pages, probed.questions = site.pages, site.questions
    serve_in_thread(server)
    return probed
