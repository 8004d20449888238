"""Lay out the runtime files and the browser's Python code in the built site.

The files themselves are fetched and verified by livelab.builder.fetch; this module copies
them into the site's asset folder, zips the Python that runs in the browser (this package
and a course's own modules) and says what the worker needs to know before it downloads.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import zipfile
from collections.abc import Mapping, Sequence
from fnmatch import fnmatch
from pathlib import Path

from livelab import i18n
from livelab.builder.fetch import (
    CORE_FILES,
    AssetError,
    Runtime,
    sha256_of,
)
from livelab.questions import CASES_SUFFIX

__all__ = [
    "AssetError",
    "boot_facts",
    "install_runtime",
    "sha256_of",
    "write_package_archive",
]


def install_runtime(runtime: Runtime, dest: Path) -> list[Path]:
    """Copy Pyodide's core files and the verified NumPy wheel into dest; return what was written."""
    dest.mkdir(parents=True, exist_ok=True)
    written = []
    for name in CORE_FILES:
        target = dest / name
        shutil.copyfile(runtime.pyodide / name, target)
        written.append(target)
    target = dest / runtime.numpy_wheel.name
    shutil.copyfile(runtime.numpy_wheel, target)
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


# What never goes into the archive: builder/ runs only at build time (the Python numeric
# grader among it: the page grades with web/grading/), web/ (the browser's JavaScript and CSS)
# is copied into the site as files of its own, and of livelab.i18n's tables the browser gets
# only the site's, written into the archive as i18n/site.json (write_package_archive).
NOT_IN_ARCHIVE = ("builder/*", "web/*", "i18n/*.json", "i18n/__main__.py")


def _browser_files(folder: Path, skipped: Sequence[str] = ()) -> list[Path]:
    """A package's files that run in the browser: .py and .json outside the skipped folders,
    but a code question's replay data (<name>.cases.json), which only the build and the tests
    read: the author check sends its blanks to the browser itself."""
    files = []
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if any(fnmatch(rel.as_posix(), pattern) for pattern in skipped):
            continue
        if "__pycache__" in rel.parts:
            continue
        if path.name.endswith(CASES_SUFFIX):
            continue
        if path.is_file() and path.suffix in {".py", ".json"}:
            files.append(path)
    return files


def archive_entries(
    package_dir: Path, modules: Mapping[str, Path] | None = None
) -> dict[str, Path]:
    """Zip member name -> file: the livelab package, then each course module by its name.

    A course module is a single file (zipped as <name>.py) or a package folder (zipped
    under <name>/); it sits beside livelab/ so the worker imports it by the same name.
    """
    entries = {
        "livelab/" + path.relative_to(package_dir).as_posix(): path
        for path in _browser_files(package_dir, NOT_IN_ARCHIVE)
    }
    for name, source in (modules or {}).items():
        if source.is_dir():
            for path in _browser_files(source):
                entries[f"{name}/{path.relative_to(source).as_posix()}"] = path
        else:
            entries[f"{name}.py"] = source
    return entries


def write_package_archive(
    package_dir: Path,
    dest_dir: Path,
    modules: Mapping[str, Path] | None = None,
    language: str = i18n.DEFAULT,
) -> Path:
    """Zip the Python the browser runs under a content-hashed name; return the zip's path.

    That is the livelab package plus the course's own modules (name -> module file or
    package folder). The zip is reproducible (fixed timestamps, sorted entries), so its
    name changes only when the code does and browsers may cache it for good. Of the
    language tables it holds the site's (`language`, English under it) as i18n/site.json.
    """
    dest_dir.mkdir(parents=True, exist_ok=True)
    partial = dest_dir / "livelab.zip.part"
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, path in archive_entries(package_dir, modules).items():
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
        table = i18n.table(i18n.resolve(language)[0])
        info = zipfile.ZipInfo(f"livelab/i18n/{i18n.SITE_FILE}", date_time=(2020, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        archive.writestr(info, json.dumps(table, ensure_ascii=False, sort_keys=True).encode())
    target = dest_dir / f"livelab-{sha256_of(partial)[:12]}.zip"
    partial.replace(target)
    return target
