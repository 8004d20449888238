"""The files a livelab site serves besides its pages, as two steps any builder can run.

`install` lays out assets/livelab/ (the browser code, Pyodide with the verified NumPy wheel,
KaTeX, Workbox, the zip of the Python the browser runs and manifest.json).
`finish` writes the service worker, whose precache list must see every file of the built
site, and the pre-compressed copies (after giving the last page its "Next" link home,
livelab.builder.footer, and every page the script that moves it to its own address,
.addresses, and the one that starts Python early, .early; and names Material's search dialog
and progress bar, .chrome_names). The
MkDocs plugin installs into a folder of its own and hands the files to MkDocs (on_files), so
other plugins see them, and finishes after every other plugin. Zensical runs no plugin, so
there `livelab assets` installs into the docs folder before the build (the builder copies
them like any other file) and `livelab finish` runs on the built site.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import livelab
from livelab import i18n
from livelab.builder import (
    addresses,
    assets,
    bytecode,
    chrome_names,
    compress,
    early,
    fetch,
    footer,
    offline,
)
from livelab.builder import packages as extra

ASSET_DIR = "assets/livelab"
WORKBOX_PATH = f"{ASSET_DIR}/workbox/"
KATEX_FILES = ("katex.mjs", "katex.min.css", "fonts")  # in the npm package's dist/
WEB_DIR = Path(livelab.__file__).parent / "web"
"""The browser code (runtime/, widgets/, livelab.js, livelab.css), shipped inside the package."""


class SiteAssetError(RuntimeError):
    """A runtime file is missing or does not verify; the message says which and what to do."""


def install(
    out: Path,
    cache: Path | None,
    modules: Mapping[str, Path],
    math: bool,
    packages: Sequence[str] = (),
    language: str = i18n.DEFAULT,
) -> dict[str, object]:
    """Write everything under assets/livelab/ into out; return the manifest written there.

    packages: extra Pyodide packages the course names (livelab.builder.packages).
    language: the theme's language; the widgets' sentences (strings.js) and the worker's
    (its archive's livelab/i18n/site.json) come from its table (livelab.i18n).
    """
    # The service worker's source becomes <site>/sw.js in `finish`, never a second copy here;
    # the JavaScript tests and the package.json that marks ES modules for Node stay home.
    ignore = shutil.ignore_patterns(offline.SW_NAME, "tests", "package.json")
    shutil.copytree(WEB_DIR, out, dirs_exist_ok=True, ignore=ignore)
    try:
        runtime = fetch.fetch_runtime(fetch.cache_root(cache))
        assets.install_runtime(runtime, out / "pyodide")
        offline.install_workbox(runtime.workbox, out / "workbox")
        imports = extra.install(packages, runtime.pyodide, out / "pyodide", fetch.cache_root(cache))
    except (assets.AssetError, offline.OfflineError, extra.PackageError) as exc:
        raise SiteAssetError(str(exc)) from None
    if math:
        _copy_katex(runtime.katex / "dist", out / "katex")
    for old in out.glob("livelab-*.zip"):
        old.unlink()
    code = i18n.resolve(language)[0]
    (out / i18n.STRINGS_JS).write_text(i18n.strings_module(code), encoding="utf-8")
    archive = assets.write_package_archive(Path(livelab.__file__).parent, out, modules, code)
    manifest: dict[str, object] = {
        "pyodide": "pyodide/",
        "numpy": runtime.numpy_wheel.name,
        "archive": archive.name,
        "modules": list(modules),
        "version": livelab.__version__,
        "packages": imports,  # what code imports -> the package the scratch Python loads
        "language": code,
    }
    wheel = out / "pyodide" / runtime.numpy_wheel.name
    # Before boot_facts: it also writes the python_stdlib.zip the site serves.
    made = bytecode.write_bytecode(
        out, out / "pyodide", wheel, archive, list(modules), fetch.cache_root(cache)
    )
    if made is not None:
        # The standard modules for the memory snapshot (runtime/shared/snapshot.js) come from
        # the same run under Node; without it there are none (builder/bytecode.py says why).
        manifest["preload"] = made.pop("preload")
        manifest["bytecode"] = made
    manifest.update(assets.boot_facts(out / "pyodide", runtime.numpy_wheel.name, archive))
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    return manifest


def built_language(site_dir: Path) -> str:
    """The language a built site's runtime files speak: its manifest's (install wrote it)."""
    try:
        manifest = json.loads((site_dir / ASSET_DIR / "manifest.json").read_text("utf-8"))
    except (OSError, ValueError):
        return i18n.DEFAULT
    return str(manifest.get("language", i18n.DEFAULT))


def finish(site_dir: Path, site_url: str | None, retire: bool = False) -> None:
    """Lead the last page home, give every page its one address and an early start for Python,
    write sw.js, then compress. What it writes for students is in the site's language."""
    language = i18n.use(built_language(site_dir))
    footer.lead_last_page_home(site_dir)  # before the precache list records every page
    addresses.canonical_addresses(site_dir)  # first in each page's <head>
    early.start_workers_early(site_dir)
    chrome_names.name_material_chrome(site_dir)  # Material's search dialog and progress bar
    try:
        # After every file a page asks for is in place, so the precache list holds them all.
        offline.write_service_worker(
            site_dir, WEB_DIR / offline.SW_NAME, site_url, WORKBOX_PATH, retire, language
        )
    except offline.OfflineError as exc:
        raise SiteAssetError(str(exc)) from None
    # Last, so that every file written above has its pre-compressed copy.
    compress.precompress(site_dir)


def _copy_katex(source: Path, dest: Path) -> None:
    missing = [name for name in KATEX_FILES if not (source / name).exists()]
    if missing:
        raise SiteAssetError(f"KaTeX files missing in {source}: {', '.join(missing)}")
    dest.mkdir(parents=True, exist_ok=True)
    for name in KATEX_FILES:
        if (source / name).is_dir():
            shutil.copytree(source / name, dest / name, dirs_exist_ok=True)
        else:
            shutil.copyfile(source / name, dest / name)


def _assets_command(args: argparse.Namespace) -> int:
    from livelab.builder.course import CourseModuleError, import_course_modules

    try:
        modules = import_course_modules(args.module, Path.cwd())
        cache = Path(args.cache_dir) if args.cache_dir else None
        for warning in i18n.warnings(args.language):
            print(f"livelab: warning: {warning}", file=sys.stderr)
        install(Path(args.dest), cache, modules, args.math, args.package, args.language)
    except (SiteAssetError, CourseModuleError) as exc:
        print(f"livelab: {exc}", file=sys.stderr)
        return 1
    print(f"livelab: the runtime files are in {args.dest}; build the site now")
    return 0


def sitemap_site_url(site_dir: Path) -> str | None:
    """The address a site was built for: its sitemap's first <loc>, the home page's."""
    sitemap = site_dir / "sitemap.xml"
    if not sitemap.is_file():
        return None
    found = re.search(r"<loc>\s*([^<\s]+)\s*</loc>", sitemap.read_text(encoding="utf-8"))
    return found.group(1) if found else None


def _finish_command(args: argparse.Namespace) -> int:
    site_dir = Path(args.site_dir)
    try:
        finish(site_dir, args.site_url or sitemap_site_url(site_dir))
    except SiteAssetError as exc:
        print(f"livelab: {exc}", file=sys.stderr)
        return 1
    return 0


def add_commands(sub: Any) -> None:
    """`livelab assets` (before a build that runs no plugin) and `livelab finish` (after it)."""
    cmd = sub.add_parser(
        "assets",
        help="put the runtime files into the docs folder, for builders without the plugin",
    )
    cmd.add_argument("dest", nargs="?", default=f"docs/{ASSET_DIR}")
    cmd.add_argument("--cache-dir", help="where fetched runtime files are kept (see fetch-runtime)")
    cmd.add_argument("--math", action="store_true", help="also KaTeX (pymdownx.arithmatex is on)")
    cmd.add_argument(
        "--module", action="append", default=[], help="a course module the browser needs too"
    )
    cmd.add_argument(
        "--package",
        action="append",
        default=[],
        help="an extra Pyodide package the course's code imports (matplotlib, scipy, pandas)",
    )
    cmd.add_argument(
        "--language",
        default=i18n.DEFAULT,
        help="the theme's language: the widgets speak it (tables: "
        + ", ".join(i18n.languages())
        + ")",
    )
    cmd.set_defaults(handler=_assets_command)
    cmd = sub.add_parser(
        "finish", help="write the service worker and compressed copies of a built site"
    )
    cmd.add_argument("site_dir")
    cmd.add_argument("--site-url", help="the address it was built for (default: from sitemap.xml)")
    cmd.set_defaults(handler=_finish_command)
