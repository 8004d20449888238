"""The MkDocs plugin `livelab`: registers our fences and ships the browser side with the site.

Built site layout (all under assets/livelab/):
  livelab.js, livelab.css, runtime/, widgets/   the browser code, copied from labs_dir
  pyodide/                                      Pyodide core + verified NumPy wheel
  livelab-<hash>.zip                            this package, as the worker imports it
  manifest.json                                 tells the worker the two names above
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin

import livelab
from livelab import assets
from livelab.fences import FenceErrors, custom_fences

ASSET_DIR = "assets/livelab"
SUPERFENCES = "pymdownx.superfences"


class LiveLabConfig(base.Config):
    labs_dir = c.Type(str, default="labs")
    """Folder of the browser code (runtime/, widgets/, livelab.js, livelab.css)."""
    pyodide_dir = c.Type(str, default="node_modules/pyodide")
    """Folder of the npm package `pyodide` whose files the site serves."""
    cache_dir = c.Type(str, default=".cache/livelab")
    """Where the verified NumPy wheel is kept between builds (outside the site)."""


class LiveLabPlugin(BasePlugin[LiveLabConfig]):
    """Fences for labs and questions, plus the self-hosted Pyodide runtime."""

    def __init__(self) -> None:
        self.fence_errors = FenceErrors()

    def _path(self, config, value: str) -> Path:
        return (Path(config.config_file_path).parent / value).resolve()

    def on_config(self, config):
        if SUPERFENCES not in config.markdown_extensions:
            raise PluginError(f"livelab needs the markdown extension {SUPERFENCES}")
        self.fence_errors = FenceErrors()
        ours = custom_fences(self.fence_errors)
        names = {fence["name"] for fence in ours}
        settings = config.mdx_configs.setdefault(SUPERFENCES, {})
        kept = [f for f in settings.get("custom_fences", []) if f.get("name") not in names]
        settings["custom_fences"] = kept + ours
        config.extra_css.append(f"{ASSET_DIR}/livelab.css")
        script = c.ExtraScriptValue(f"{ASSET_DIR}/livelab.js")
        script.type = "module"
        config.extra_javascript.append(script)
        return config

    def on_page_markdown(self, markdown, page, **kwargs):
        self.fence_errors.start(page.file.src_uri)
        return markdown

    def on_page_content(self, html, page, **kwargs):
        if self.fence_errors.errors:
            raise PluginError("\n".join(self.fence_errors.errors))
        return html

    def on_post_build(self, config, **kwargs):
        out = Path(config.site_dir) / ASSET_DIR
        labs_dir = self._path(config, self.config.labs_dir)
        if not (labs_dir / "livelab.js").is_file():
            raise PluginError(f"livelab: no livelab.js in labs_dir {labs_dir}")
        shutil.copytree(labs_dir, out, dirs_exist_ok=True)
        try:
            assets.install_runtime(
                self._path(config, self.config.pyodide_dir),
                self._path(config, self.config.cache_dir),
                out / "pyodide",
            )
        except assets.AssetError as exc:
            raise PluginError(f"livelab: {exc}") from None
        for old in out.glob("livelab-*.zip"):
            old.unlink()
        archive = assets.write_package_archive(Path(livelab.__file__).parent, out)
        manifest = {"pyodide": "pyodide/", "archive": archive.name, "version": livelab.__version__}
        (out / "manifest.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")

    def on_serve(self, server, config, builder, **kwargs):
        server.watch(str(self._path(config, self.config.labs_dir)))
        server.watch(str(Path(livelab.__file__).parent))
        return server
