"""Offline after the first visit: the site's service worker and its precache list.

The service worker's source is livelab/web/sw.js (it uses Workbox, fetched from npm like
KaTeX by livelab.builder.fetch).
The build writes it to the site root as sw.js, because a service worker controls only the
pages at or below its own folder, and puts one line in front of it: `const BUILD = {...}`,
which lists every file a page can ask for with its content hash. So sw.js changes whenever
any of those files does, browsers install the new version, and that version downloads only
the files whose hash changed. The same line carries the site's language and the sentences of
its table (livelab.i18n) that the worker says (keys `offline.*`): the page it answers for a
page it cannot serve, and the note a page shows for a file it cannot. After that line comes
`canonicalPath` (livelab.builder.addresses), by which the worker finds a page reached at
another of its addresses.
"""

from __future__ import annotations

import base64
import fnmatch
import hashlib
import json
import shutil
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path

from livelab import i18n
from livelab.builder.addresses import classic_source
from livelab.builder.assets import sha256_of
from livelab.builder.serve import rewrite_sitemap

SW_NAME = "sw.js"
# The npm packages whose builds the service worker imports: the loader, then the modules
# it loads by name (precaching needs core, routing and strategies).
WORKBOX_BUILDS = {
    "workbox-sw": "workbox-sw.js",
    "workbox-core": "workbox-core.prod.js",
    "workbox-precaching": "workbox-precaching.prod.js",
    "workbox-routing": "workbox-routing.prod.js",
    "workbox-strategies": "workbox-strategies.prod.js",
}
# Files no page asks for, so precaching them would only cost the student bytes: source maps
# (developer tools only), pre-compressed copies (the server chooses them, the URL stays the
# same), Lunr's language packs and word splitters (English search loads none), KaTeX's older
# font formats (every browser that runs Pyodide takes woff2), the 404 page, the service
# worker and its Workbox scripts (the browser keeps those with the registration itself), the
# licences shipped beside the editor's CodeMirror bundle, and the browser code's own tests.
# The bundle itself (assets/livelab/editor/codemirror.bundle.js) is precached, so the
# scratchpad opens offline.
SKIPPED = (
    "*.map",
    "*.gz",
    "404.html",
    SW_NAME,
    "assets/javascripts/lunr/*",
    "assets/livelab/katex/fonts/*.ttf",
    "assets/livelab/katex/fonts/*.woff",
    "assets/livelab/workbox/*",
    "assets/livelab/editor/*.licenses.txt",
    "assets/livelab/tests/*",
)
REVISION_DIGITS = 16
# `livelab serve` rewrites the addresses in sitemap.xml (livelab.builder.serve.rewrite_sitemap), so
# its bytes on the wire are not the build's: it is precached by revision, without integrity, and
# the service worker checks it against sitemap_integrity instead.
SITEMAP = "sitemap.xml"
REWRITTEN_BY_SERVERS = frozenset({SITEMAP})
PAGE = "index.html"


class OfflineError(RuntimeError):
    """A file the service worker needs is missing."""


@dataclass(frozen=True)
class PrecacheEntry:
    """One file to precache, in the form Workbox's precache list takes."""

    url: str  # relative to the site root
    revision: str  # the start of the file's sha256: a new hash means a new download
    # "sha256-<base64>": the browser rejects other bytes, and the service worker checks its
    # copy against it each time it serves it
    integrity: str | None


def integrity_of(data: bytes) -> str:
    """The Subresource Integrity value of data: "sha256-<base64>"."""
    return "sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode("ascii")


def sitemap_integrity(site_dir: Path) -> str | None:
    """The integrity of sitemap.xml with its addresses relative to its home page, as the
    service worker checks its copy (sw.js `relocated`), whatever address a server moved them
    to; None when the site has no sitemap."""
    path = site_dir / SITEMAP
    if not path.is_file():
        return None
    return integrity_of(rewrite_sitemap(path.read_text(encoding="utf-8"), "").encode("utf-8"))


def skipped(rel: str) -> bool:
    """Whether a file (path relative to the site root, with /) stays out of the precache."""
    return any(fnmatch.fnmatch(rel, pattern) for pattern in SKIPPED)


def page_url(rel: str) -> str:
    """The address a page is asked for by: its folder, as links and the browser ask for it.

    The browser has just downloaded the page at that address, so precaching it there costs
    a revalidation, where `<folder>/index.html` would download it a second time.
    """
    if rel == PAGE:
        return "./"
    if rel.endswith("/" + PAGE):
        return rel[: -len(PAGE)]
    return rel


def precache_entries(site_dir: Path) -> list[PrecacheEntry]:
    """Every file of the built site that a page can ask for, with its content hash."""
    entries = []
    for path in sorted(site_dir.rglob("*")):
        rel = path.relative_to(site_dir).as_posix()
        if not path.is_file() or skipped(rel):
            continue
        digest = sha256_of(path)
        integrity: str | None = None
        if rel not in REWRITTEN_BY_SERVERS:
            integrity = "sha256-" + base64.b64encode(bytes.fromhex(digest)).decode("ascii")
        entries.append(PrecacheEntry(page_url(rel), digest[:REVISION_DIGITS], integrity))
    return entries


def install_workbox(packages: Mapping[str, Path], dest: Path) -> list[Path]:
    """Copy the Workbox builds the service worker imports into dest; return what was written.

    packages maps each npm package name of WORKBOX_BUILDS to its unpacked folder.
    """
    sources = [
        packages.get(name, Path(name)) / "build" / file for name, file in WORKBOX_BUILDS.items()
    ]
    missing = [str(path) for path in sources if not path.is_file()]
    if missing:
        raise OfflineError(
            f"Workbox files missing: {', '.join(missing)}. "
            "Run `livelab fetch-runtime` to fetch them again."
        )
    dest.mkdir(parents=True, exist_ok=True)
    written = []
    for source in sources:
        target = dest / source.name
        shutil.copyfile(source, target)
        written.append(target)
    return written


def worker_sentences(language: str) -> dict[str, object]:
    """The sentences the service worker says (sw.js `t`), in the table of a theme's language."""
    code = i18n.resolve(language)[0]
    return {key: value for key, value in i18n.table(code).items() if key.startswith("offline.")}


def write_service_worker(
    site_dir: Path,
    template: Path,
    site_url: str | None,
    workbox_path: str,
    retire: bool = False,
    language: str = i18n.DEFAULT,
) -> Path:
    """Write sw.js at the site root: the precache list of site_dir, the rule for a page's one
    address (livelab/web/address.js, `canonicalPath`), then the template.

    site_url is the address the site was built for (sitemap.xml's <loc>s start with it);
    workbox_path is the folder of the Workbox builds, relative to the site root; language,
    the theme's, the language of the sentences the worker says.
    Call it once every other file is in place: a file written later is not precached.
    With retire (under `mkdocs serve`, where pages change with each save) the worker keeps
    nothing: it replaces any earlier version at once, empties its caches and unregisters.
    """
    if not template.is_file():
        raise OfflineError(f"the service worker source {template} is missing")
    build: dict[str, object] = {"retire": True}
    if not retire:
        build = {
            "siteUrl": site_url,
            "workbox": workbox_path,
            "sitemap": sitemap_integrity(site_dir),
            "language": i18n.resolve(language)[0],
            "text": worker_sentences(language),
            "precache": [
                {key: value for key, value in asdict(entry).items() if value is not None}
                for entry in precache_entries(site_dir)
            ],
        }
    target = site_dir / SW_NAME
    header = f"const BUILD = {json.dumps(build, indent=1)};\n\n"
    body = classic_source() + "\n" + template.read_text(encoding="utf-8")
    target.write_text(header + body, encoding="utf-8")
    return target
