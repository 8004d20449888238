"""Shared by the browser tests and bench/: build the site for a port, serve it, start Chromium."""

from __future__ import annotations

import os
from pathlib import Path

from mkdocs.commands.build import build
from mkdocs.config import load_config

from livelab.serve import make_server, serve_in_thread

ROOT = Path(__file__).resolve().parents[1]
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

    def __init__(self, server, site_dir: Path, isolated: bool) -> None:
        self.server = server
        self.site_dir = site_dir
        self.isolated = isolated
        self.origin = f"http://127.0.0.1:{server.server_port}"
        self.questions: dict[str, list] = {}  # page url -> questions declared on it

    def question(self, qid: str):
        """(page url, question) of a question id; ids are unique within the course."""
        found = [(url, q) for url, qs in self.questions.items() for q in qs if q.id == qid]
        assert len(found) == 1, f"{qid}: {len(found)} questions"
        return found[0]

    def url(self, path: str = "") -> str:
        return f"{self.origin}/{path.lstrip('/')}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def serve_site(site_dir: Path, isolated: bool = True, build_it: bool = True) -> Site:
    """Serve site_dir on a free port, building the course into it first if asked."""
    server = make_server(site_dir, port=0, isolated=isolated)
    site = Site(server, site_dir, isolated)
    if build_it:
        # Instant navigation only takes links listed in sitemap.xml, whose addresses carry the
        # port, so the site is built for the port it is served on.
        config = load_config(
            str(ROOT / "mkdocs.yml"), site_dir=str(site_dir), site_url=site.url(), strict=True
        )
        build(config)
        plugin = config.plugins["livelab"]
        site.questions = {
            plugin.pages[src][0]: questions
            for src, questions in plugin.fences.questions.items()
            if src in plugin.pages
        }
    serve_in_thread(server)
    return site


def launch_chromium(playwright):
    """Debian's Chromium under Playwright; never a browser downloaded by a tool."""
    if not CHROMIUM.is_file():
        raise RuntimeError(f"{CHROMIUM} is missing: `make test` installs Debian's chromium")
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
