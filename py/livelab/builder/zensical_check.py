"""A Zensical build that would ship livelab's pages without livelab's runtime fails, saying
what to run.

Zensical reads `mkdocs.yml` but runs no MkDocs plugin, so the three steps the plugin takes
are the author's: `livelab assets` puts the runtime into the docs, a configuration lists its
script (`extra_javascript`), and `livelab finish` adds the service worker. A plain
`zensical build` of a configuration that skips the first two would render every fence and
report no issue, while no lab or question on the site could ever run.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from livelab import i18n
from livelab.builder.course_pages import theme_language
from livelab.builder.site_assets import ASSET_DIR

SCRIPT = f"{ASSET_DIR}/livelab.js"
ARITHMATEX = "pymdownx.arithmatex"


def _listed(entries: Any) -> set[str]:
    out = set()
    for entry in entries or []:
        path = entry.get("path") if isinstance(entry, dict) else getattr(entry, "path", entry)
        out.add(str(path))
    return out


class _TolerantLoader(yaml.SafeLoader):
    """Reads an mkdocs.yml whatever tags it holds (!!python/name, !ENV): only lists matter."""


_TolerantLoader.add_multi_constructor("", lambda loader, suffix, node: None)


def _packages(config: dict) -> list[str]:
    """The extra Pyodide packages the livelab plugin entry names (plugins: a list or a map).

    Zensical keeps only the plugins it knows, so it is read from the mkdocs.yml beside the
    configuration (root_dir) when Zensical's own settings lack it."""
    found = _plugin_packages(config.get("plugins") or [])
    root = config.get("root_dir")
    if found is None and root and (Path(root) / "mkdocs.yml").is_file():
        text = (Path(root) / "mkdocs.yml").read_text(encoding="utf-8")
        try:
            mkdocs = yaml.load(text, Loader=_TolerantLoader) or {}
        except yaml.YAMLError:
            mkdocs = {}
        found = _plugin_packages(mkdocs.get("plugins") or [] if isinstance(mkdocs, dict) else [])
    return found or []


def _plugin_packages(plugins: Any) -> list[str] | None:
    """The packages of a `livelab` entry among plugins; None when livelab is not listed."""
    entries = (
        plugins.items()
        if isinstance(plugins, dict)
        else (
            next(iter(e.items())) if isinstance(e, dict) and len(e) == 1 else (e, None)
            for e in plugins
        )
    )
    for name, settings in entries:
        if name == "livelab":
            packages = settings.get("packages") if isinstance(settings, dict) else None
            return [str(p) for p in packages or []]
    return None


def _installed_language(docs: Path) -> str:
    """The language `livelab assets` wrote the runtime files in (their manifest says)."""
    try:
        manifest = json.loads((docs / ASSET_DIR / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return i18n.DEFAULT
    return str(manifest.get("language", i18n.DEFAULT))


def missing_runtime(config: dict, modules: list[str]) -> str | None:
    """What a Zensical build lacks to run livelab's widgets, with the commands; None if nothing."""
    docs = Path(config["docs_dir"])
    wanting = []
    asked = i18n.resolve(theme_language(config.get("theme")))[0]
    if not (docs / SCRIPT).is_file():
        wanting.append(f"the runtime files in {docs.name}/{ASSET_DIR}/")
    elif (spoken := _installed_language(docs)) != asked:
        wanting.append(
            f"the runtime files in {docs.name}/{ASSET_DIR}/ in the theme's language "
            f"(they speak {spoken!r})"
        )
    if SCRIPT not in _listed(config.get("extra_javascript")):
        wanting.append(f"{SCRIPT} in extra_javascript")
    if not wanting:
        return None
    math = " --math" if ARITHMATEX in str(config.get("markdown_extensions")) else ""
    module_args = "".join(f" --module {name}" for name in modules)
    module_args += "".join(f" --package {name}" for name in _packages(config))
    language = theme_language(config.get("theme"))
    module_args += f" --language {language}" if language != i18n.DEFAULT else ""
    site_dir = Path(config.get("site_dir") or "site").name
    return (
        "livelab: this Zensical build lacks " + " and ".join(wanting) + ", so its labs and "
        "questions would never run. Zensical runs no MkDocs plugin; build in three steps, "
        "with a zensical.yml that lists the runtime (the livelab guide, 'Build with Zensical'):\n"
        f"  livelab assets {docs.name}/{ASSET_DIR}{math}{module_args}\n"
        "  zensical build --clean -f zensical.yml\n"
        f"  livelab finish {site_dir}"
    )
