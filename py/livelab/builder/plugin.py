"""The MkDocs plugin `livelab`: a thin wrapper around the Markdown extension and the asset steps.

The fences are the Markdown extension livelab.builder.extension (which Zensical runs too); the
files are livelab.builder.site_assets. The plugin adds both to an MkDocs build, says which
page is converted, fails a build on an authoring error and only logs it under `serve`.

Built site layout (all under assets/livelab/):
  livelab.js, livelab.css, runtime/, widgets/   the browser code, copied from livelab/web/
  pyodide/                                      Pyodide core + verified NumPy wheel
  livelab-<hash>.zip                            this package and the course's own modules
  manifest.json                                 tells the worker the names above
  workbox/                                      Workbox builds that the service worker imports
and at the site root sw.js, the service worker with its precache list (livelab.builder.offline).
Pyodide, KaTeX and Workbox come from the cache that livelab.builder.fetch fills from npm.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
from pathlib import Path

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File

import livelab
from livelab import i18n
from livelab.builder import dev, extension, site_assets, web_fonts
from livelab.builder.course import CourseModuleError, import_course_modules
from livelab.builder.course_pages import Site
from livelab.builder.fences import FenceContext
from livelab.builder.site_assets import ASSET_DIR

SUPERFENCES = "pymdownx.superfences"
ARITHMATEX = "pymdownx.arithmatex"
log = logging.getLogger("mkdocs.plugins.livelab")


class LiveLabConfig(base.Config):
    cache_dir = c.Optional(c.Type(str))
    """Where the verified runtime files are kept between builds (relative to mkdocs.yml);
    unset: $LIVELAB_CACHE, else the user's cache (livelab.builder.fetch.cache_root)."""
    modules = c.Optional(c.ListOfItems(c.Type(str)))
    """The course's own Python modules (beside mkdocs.yml or installed): the build imports
    them, so the labs and code questions they register exist, and the browser gets them.
    Unset: those named to the Markdown extension, when mkdocs.yml lists it (so that Zensical,
    which runs no plugin, reads them from the same line)."""
    packages = c.ListOfItems(c.Type(str), default=[])
    """Extra Pyodide packages the course's code imports (matplotlib, scipy, pandas): served
    with their dependencies, hash-checked, precached, and loaded by a page only when its code
    imports one (livelab.builder.packages)."""


class LiveLabPlugin(BasePlugin[LiveLabConfig]):
    """Fences for labs and questions, plus the self-hosted Pyodide runtime."""

    def __init__(self) -> None:
        self.command = "build"
        self.math = False
        # .questions: each page's questions (the author check reads it)
        self.fences = FenceContext()
        self.pages: dict[str, tuple[str, str]] = {}  # src_uri -> (url, title)
        self.modules: dict[str, Path] = {}  # course module name -> its file or package folder
        self.watch: dev.SourceWatch | None = None  # under serve: Python edits between builds
        self.staged: Path | None = None  # this build's runtime files, until MkDocs copied them
        self.language = i18n.DEFAULT  # the theme's, for the widgets' sentences (livelab.i18n)

    def _path(self, config, value: str) -> Path:
        return (Path(config.config_file_path).parent / value).resolve()

    def module_names(self, config) -> list[str]:
        """The course modules: the plugin's own setting, else the Markdown extension's."""
        named = config.mdx_configs.get(extension.NAME, {}).get("modules")
        own = self.config.modules
        if own is not None and named is not None and list(own) != list(named):
            raise PluginError(
                f"livelab: the plugin's modules {list(own)} and those of the Markdown extension "
                f"{extension.NAME} {list(named)} differ; name them in one place"
            )
        return list(own if own is not None else named or [])

    def on_startup(self, *, command, dirty):
        self.command = command  # "serve": the service worker keeps nothing (build.offline)

    def on_config(self, config):
        if SUPERFENCES not in config.markdown_extensions:
            raise PluginError(f"livelab needs the markdown extension {SUPERFENCES}")
        web_fonts.keep_self_hosted(config)
        if self.watch:  # a rebuild under serve: take up the author's Python edits first
            self.watch.take_up()
        try:
            self.modules = import_course_modules(
                self.module_names(config), Path(config.config_file_path).parent
            )
        except CourseModuleError as exc:
            raise PluginError(f"livelab: {exc}") from None
        if extension.NAME not in config.markdown_extensions:
            config.markdown_extensions.append(extension.NAME)
        session = extension.start_session(
            site=Site.from_mkdocs(config),
            render_markdown=extension.markdown_renderer(
                config.markdown_extensions, config.mdx_configs
            ),
            collect=True,
            serving=self.command == "serve",
        )
        self.language = session.site.language if session.site else i18n.DEFAULT
        for warning in i18n.warnings(self.language):
            log.warning(warning)  # `mkdocs build --strict` fails on it
        self.fences = FenceContext(questions=session.questions)
        self.pages = {}
        self.math = ARITHMATEX in config.markdown_extensions
        css = [f"{ASSET_DIR}/livelab.css"]
        if self.math:
            if not config.mdx_configs.get(ARITHMATEX, {}).get("generic"):
                raise PluginError(
                    f"livelab typesets math with KaTeX: set {ARITHMATEX}: generic: true"
                )
            css.insert(0, f"{ASSET_DIR}/katex/katex.min.css")
        # A configuration that Zensical reads too may list these already.
        config.extra_css.extend(path for path in css if path not in config.extra_css)
        listed = {str(script) for script in config.extra_javascript}
        if f"{ASSET_DIR}/livelab.js" not in listed:
            script = c.ExtraScriptValue(f"{ASSET_DIR}/livelab.js")
            script.type = "module"
            config.extra_javascript.append(script)
        # The runtime client again, async in <head> (Material's `polyfills` slot): the worker
        # starts while the page is still loading instead of after it. Modules run once per tab,
        # so this is the same runtime that livelab.js imports.
        polyfills = config.extra.setdefault("polyfills", [])
        if f"{ASSET_DIR}/runtime/page/client.js" not in {str(s) for s in polyfills}:
            early = c.ExtraScriptValue(f"{ASSET_DIR}/runtime/page/client.js")
            early.type, early.async_ = "module", True
            polyfills.append(early)
        return config

    def on_files(self, files, config, **kwargs):
        """The runtime files as MkDocs files, so that plugins after this one (a minifier) see
        them and MkDocs copies them; those that `livelab assets` left in docs for Zensical
        give way to fresh ones."""
        for file in [f for f in files if f.src_uri.startswith(ASSET_DIR + "/")]:
            files.remove(file)
        setting = self.config.cache_dir
        if self.staged is not None:
            shutil.rmtree(self.staged, ignore_errors=True)
        self.staged = Path(tempfile.mkdtemp(prefix="livelab-assets-"))
        try:
            site_assets.install(
                self.staged, self._path(config, setting) if setting else None, self.modules,
                self.math, self.config.packages, self.language,
            )  # fmt: skip
        except site_assets.SiteAssetError as exc:
            raise PluginError(f"livelab: {exc}") from None
        for path in sorted(p for p in self.staged.rglob("*") if p.is_file()):
            uri = f"{ASSET_DIR}/{path.relative_to(self.staged).as_posix()}"
            files.append(File.generated(config, uri, abs_src_path=str(path)))
        return files

    def on_page_markdown(self, markdown, page, **kwargs):
        extension.SESSION.page = extension.PageRef(
            page.file.src_uri, Path(page.file.abs_src_path or ""), page.url
        )
        return markdown

    def on_page_content(self, html, page, **kwargs):
        errors = extension.SESSION.errors.get(page.file.src_uri, [])
        if errors and self.command != "serve":
            raise PluginError("livelab authoring errors:\n" + "\n".join(errors))
        for message in errors:  # under serve: the page shows each error in place
            log.warning("livelab authoring error: %s", message)
        self.pages[page.file.src_uri] = (page.url, page.title or page.file.src_uri)
        return html

    @event_priority(-100)  # after every other plugin: the precache list sees the final files
    def on_post_build(self, config, **kwargs):
        try:
            site_assets.finish(Path(config.site_dir), config.site_url, self.command == "serve")
        except site_assets.SiteAssetError as exc:
            raise PluginError(f"livelab: {exc}") from None
        finally:
            if self.staged is not None:
                shutil.rmtree(self.staged, ignore_errors=True)
                self.staged = None

    def on_serve(self, server, config, builder, **kwargs):
        # The same isolation headers as `livelab serve`, so Stop interrupts a run in place.
        server.set_app(dev.isolate(server.get_app()))
        self.watch = dev.SourceWatch(Path(livelab.__file__).parent, self.modules)
        server.watch(str(Path(livelab.__file__).parent))
        for source in self.modules.values():
            server.watch(str(source))
        return server
