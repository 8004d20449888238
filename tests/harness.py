"""Shared by the browser tests and bench/: build the site for a port, serve it, start Chromium."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

from livelab.builder import fetch
from livelab.builder.browser import launch_chromium
from livelab.builder.check import build_course
from livelab.builder.serve import make_server, serve_in_thread

__all__ = [
    "ROOT",
    "Site",
    "course_served",
    "launch_chromium",
    "run_as_author",
    "serve_page",
    "serve_site",
]

ROOT = Path(__file__).resolve().parents[1]


class Site:
    """A served build of the course: base URL, plus whether pages are cross-origin isolated."""

    def __init__(self, server, site_dir: Path, isolated: bool) -> None:
        self.server = server
        self.site_dir = site_dir
        self.isolated = isolated
        self.origin = f"http://127.0.0.1:{server.server_port}"
        self.questions: dict[str, list] = {}  # page url -> questions declared on it
        self.pages: dict[str, str] = {}  # page url -> title

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
        course = build_course(ROOT / "mkdocs.yml", site_dir, site.url())
        site.pages, site.questions = course.pages, course.questions
    serve_in_thread(server)
    return site


def course_served(tmp_path_factory) -> Iterator[Site]:
    """The course built and served cross-origin isolated, as `make serve` does, until closed:
    what each suite's session fixture yields from."""
    served = serve_site(tmp_path_factory.mktemp("site"), isolated=True)
    yield served
    served.close()


def config_for_docs(
    docs_dir: Path, packages: tuple[str, ...] = (), language: str | None = None
) -> Path:
    """A mkdocs.yml beside docs_dir: the real configuration, building only those pages
    (with packages: the plugin serves those extra Pyodide packages too; with language: the
    theme's language, which livelab's widgets speak)."""
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8").split("\nnav:")[0]
    if language:
        assert "\ntheme:\n" in text, "mkdocs.yml has a theme"
        text = text.replace("\ntheme:\n", f"\ntheme:\n  language: {language}\n", 1)
    if packages:
        plugin = "\n  - livelab  #"
        assert plugin in text, "mkdocs.yml lists the plugin as `- livelab`"
        text = text.replace(plugin, f"\n  - livelab:\n      packages: {list(packages)}\n  #", 1)
    config = docs_dir.parent / "mkdocs.yml"
    text += f"\ndocs_dir: {docs_dir}\n"
    config.write_text(text, encoding="utf-8")
    course = docs_dir.parent / "labs"  # the course's own Python, beside its mkdocs.yml
    if not course.exists():
        course.symlink_to(ROOT / "labs", target_is_directory=True)
    return config


def block_until_lifted(context, pattern: str, handler=None) -> Callable[[], None]:
    """Route the requests that match pattern to handler (by default: abort them) until the
    returned function is called; from then on they reach the server.

    Lifting a block with unroute makes Playwright wait until every target of the context has
    changed its interception, and in one full run that wait never returned (after a Python
    worker had failed to boot); this way nothing has to change.
    """
    lifted: list[bool] = []

    def route(request_route) -> None:
        if lifted:
            request_route.fallback()
        elif handler is None:
            request_route.abort()
        else:
            handler(request_route)

    context.route(pattern, route)
    return lambda: lifted.append(True)


def serve_page(
    folder: Path, page: str, packages: tuple[str, ...] = (), language: str | None = None
) -> Site:
    """One page (Markdown text) as a course's home page, built under the real configuration
    (with the course's stylesheets and labs, the extra Pyodide packages named, and the
    theme's language if given) and served isolated from folder, until closed."""
    docs = folder / "docs"
    docs.mkdir()
    shutil.copytree(ROOT / "docs" / "assets", docs / "assets")
    (docs / "index.md").write_text(page, encoding="utf-8")
    server = make_server(folder / "site", port=0, isolated=True)
    site = Site(server, folder / "site", isolated=True)
    build_course(config_for_docs(docs, packages, language), site.site_dir, site.url())
    serve_in_thread(server)
    return site


def run_as_author(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    """A command as an author runs it: the project's own root is not on the module path."""
    paths = os.environ.get("PYTHONPATH", "").split(os.pathsep)
    kept = [p for p in paths if p and Path(p).resolve() != ROOT]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(kept),
        fetch.CACHE_ENV: str(fetch.cache_root()),
        "NO_MKDOCS_2_WARNING": "1",
    }
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, check=False)
