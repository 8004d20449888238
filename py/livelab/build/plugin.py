"""The MkDocs plugin `livelab`: registers our fences and ships the browser side with the site.

Built site layout (all under assets/livelab/):
  livelab.js, livelab.css, runtime/, widgets/   the browser code, copied from livelab/web/
  pyodide/                                      Pyodide core + verified NumPy wheel
  livelab-<hash>.zip                            this package and the course's own modules
  manifest.json                                 tells the worker the names above
  workbox/                                      Workbox builds that the service worker imports
and at the site root sw.js, the service worker with its precache list (livelab.build.offline).
Pyodide, KaTeX and Workbox come from the cache that livelab.build.fetch fills from npm.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import markdown
from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.utils import get_relative_url

import livelab
from livelab.build import assets, compress, fetch, offline
from livelab.build.course import CourseModuleError, import_course_modules
from livelab.build.fences import FenceContext, check_lab_links, custom_fences
from livelab.build.progress import (
    page_progress_html,
    page_questions,
    page_summary_html,
    progress_placeholder,
    progress_table,
)

ASSET_DIR = "assets/livelab"
SUPERFENCES = "pymdownx.superfences"
ARITHMATEX = "pymdownx.arithmatex"
KATEX_FILES = ("katex.mjs", "katex.min.css", "fonts")  # in the npm package's dist/
WORKBOX_PATH = f"{ASSET_DIR}/workbox/"
WEB_DIR = Path(livelab.__file__).parent / "web"
"""The browser code (runtime/, widgets/, livelab.js, livelab.css), shipped inside the package."""


class LiveLabConfig(base.Config):
    cache_dir = c.Optional(c.Type(str))
    """Where the verified runtime files are kept between builds (relative to mkdocs.yml);
    unset: $LIVELAB_CACHE, else the user's cache (livelab.build.fetch.cache_root)."""
    modules = c.ListOfItems(c.Type(str), default=[])
    """The course's own Python modules (beside mkdocs.yml or installed): the build imports
    them, so the labs and code questions they register exist, and the browser gets them."""


class LiveLabPlugin(BasePlugin[LiveLabConfig]):
    """Fences for labs and questions, plus the self-hosted Pyodide runtime."""

    def __init__(self) -> None:
        self.command = "build"
        self.math = False
        self.fences = FenceContext()
        self.pages: dict[str, tuple[str, str]] = {}  # src_uri -> (url, title)
        self.modules: dict[str, Path] = {}  # course module name -> its file or package folder

    def _path(self, config, value: str) -> Path:
        return (Path(config.config_file_path).parent / value).resolve()

    def on_startup(self, *, command, dirty):
        self.command = (
            command  # "serve": the service worker must keep nothing (livelab.build.offline)
        )

    def on_config(self, config):
        if SUPERFENCES not in config.markdown_extensions:
            raise PluginError(f"livelab needs the markdown extension {SUPERFENCES}")
        try:
            self.modules = import_course_modules(
                self.config.modules, Path(config.config_file_path).parent
            )
        except CourseModuleError as exc:
            raise PluginError(f"livelab: {exc}") from None
        self.fences = FenceContext(render_markdown=self._markdown_renderer(config))
        self.pages = {}
        ours = custom_fences(self.fences)
        names = {fence["name"] for fence in ours}
        settings = config.mdx_configs.setdefault(SUPERFENCES, {})
        kept = [f for f in settings.get("custom_fences", []) if f.get("name") not in names]
        settings["custom_fences"] = kept + ours
        self.math = ARITHMATEX in config.markdown_extensions
        if self.math:
            if not config.mdx_configs.get(ARITHMATEX, {}).get("generic"):
                raise PluginError(
                    f"livelab typesets math with KaTeX: set {ARITHMATEX}: generic: true"
                )
            config.extra_css.append(f"{ASSET_DIR}/katex/katex.min.css")
        config.extra_css.append(f"{ASSET_DIR}/livelab.css")
        script = c.ExtraScriptValue(f"{ASSET_DIR}/livelab.js")
        script.type = "module"
        config.extra_javascript.append(script)
        # The runtime client again, async in <head> (Material's `polyfills` slot): the worker
        # starts while the page is still loading instead of after it. Modules run once per tab,
        # so this is the same runtime that livelab.js imports.
        early = c.ExtraScriptValue(f"{ASSET_DIR}/runtime/client.js")
        early.type, early.async_ = "module", True
        config.extra.setdefault("polyfills", []).append(early)
        return config

    @staticmethod
    def _markdown_renderer(config):
        """Markdown for text inside fences (prompts, options), with the site's extensions."""

        def render(text: str) -> str:
            md = markdown.Markdown(
                extensions=config.markdown_extensions, extension_configs=config.mdx_configs
            )
            return md.convert(text)

        return render

    def on_page_markdown(self, markdown, page, **kwargs):
        self.fences.start(page.file.src_uri)
        return markdown

    def on_page_content(self, html, page, **kwargs):
        check_lab_links(self.fences)
        if self.fences.errors:
            raise PluginError("\n".join(self.fences.errors))
        self.pages[page.file.src_uri] = (page.url, page.title or page.file.src_uri)
        questions = self.fences.questions.get(page.file.src_uri, [])
        if not questions:
            return html
        listed = page_questions(html, [(q.id, q.lab) for q in questions])
        # The progress line goes right under the page's title, the summary at its end.
        head, title_end, body = html.partition("</h1>")
        top = page_progress_html(listed)
        html = head + title_end + top + body if title_end else top + html
        return html + page_summary_html(listed)

    def on_page_context(self, context, page, config, **kwargs):
        """Fill the progress table once every page's questions are known."""
        marker = progress_placeholder()
        if marker in page.content:
            page.content = page.content.replace(marker, self._progress(page.url))
        return context

    def _progress(self, from_url: str) -> str:
        rows = []
        for src, questions in self.fences.questions.items():
            if not questions or src not in self.pages:
                continue
            url, title = self.pages[src]
            href = get_relative_url(url, from_url)
            rows.append((url, href, title, [q.id for q in questions]))
        return progress_table(rows)

    def on_post_build(self, config, **kwargs):
        out = Path(config.site_dir) / ASSET_DIR
        labs_dir = WEB_DIR
        # The service worker's source becomes <site>/sw.js below, never a second copy in assets;
        # the JavaScript tests and the package.json that marks ES modules for Node stay home.
        ignore = shutil.ignore_patterns(offline.SW_NAME, "tests", "package.json")
        shutil.copytree(labs_dir, out, dirs_exist_ok=True, ignore=ignore)
        setting = self.config.cache_dir
        cache = fetch.cache_root(self._path(config, setting) if setting else None)
        try:
            runtime = fetch.fetch_runtime(cache)
            assets.install_runtime(runtime, out / "pyodide")
        except assets.AssetError as exc:
            raise PluginError(f"livelab: {exc}") from None
        if self.math:
            self._copy_katex(runtime.katex / "dist", out / "katex")
        for old in out.glob("livelab-*.zip"):
            old.unlink()
        archive = assets.write_package_archive(Path(livelab.__file__).parent, out, self.modules)
        manifest = {
            "pyodide": "pyodide/",
            "numpy": runtime.numpy_wheel.name,
            "archive": archive.name,
            "modules": list(self.modules),
            "version": livelab.__version__,
        }
        manifest.update(assets.boot_facts(out / "pyodide", manifest["numpy"], archive))
        (out / "manifest.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
        try:
            offline.install_workbox(runtime.workbox, out / "workbox")
            # After every file a page asks for is in place, so the precache list holds them all.
            offline.write_service_worker(
                Path(config.site_dir),
                labs_dir / offline.SW_NAME,
                config.site_url,
                WORKBOX_PATH,
                retire=self.command == "serve",
            )
        except offline.OfflineError as exc:
            raise PluginError(f"livelab: {exc}") from None
        # Last, so that every file written above has its pre-compressed copy.
        compress.precompress(Path(config.site_dir))

    @staticmethod
    def _copy_katex(source: Path, dest: Path) -> None:
        missing = [name for name in KATEX_FILES if not (source / name).exists()]
        if missing:
            raise PluginError(f"livelab: KaTeX files missing in {source}: {', '.join(missing)}")
        dest.mkdir(parents=True, exist_ok=True)
        for name in KATEX_FILES:
            if (source / name).is_dir():
                shutil.copytree(source / name, dest / name, dirs_exist_ok=True)
            else:
                shutil.copyfile(source / name, dest / name)

    def on_serve(self, server, config, builder, **kwargs):
        server.watch(str(Path(livelab.__file__).parent))
        for source in self.modules.values():
            server.watch(str(source))
        return server
