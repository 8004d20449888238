"""package-lock.json is the one source of the npm pins: package.json names each package at
exactly its locked version, and runtime.lock.json (which the fetcher reads, without Node) and
tests/tools.lock.json are what livelab.builder.pins writes from the lock."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from livelab.builder import pins

ROOT = Path(__file__).resolve().parents[2]


def read(rel: str) -> dict:
    return json.loads((ROOT / rel).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def lock() -> dict:
    return read(pins.PACKAGE_LOCK)


@pytest.mark.parametrize("target", list(pins.NAMES))
def test_each_generated_lock_file_agrees_with_package_lock_json(lock, target):
    problems = pins.disagreements(lock, target, read(target))
    assert problems == [], (
        "\n".join(problems) + "\nRun `python -m livelab.builder.pins` to write them again."
    )
    assert (ROOT / target).read_text(encoding="utf-8") == pins.generated(lock, target)


def test_a_changed_version_or_integrity_is_named_with_its_package(lock):
    current = read(pins.RUNTIME_LOCK)
    changed = copy.deepcopy(current)
    changed["npm"]["katex"]["version"] = "0.0.1"
    changed["npm"]["workbox-core"]["integrity"] = "sha512-other"
    del changed["npm"]["pyodide"]
    changed["npm"]["left-pad"] = {"version": "1.3.0", "integrity": "sha512-x"}
    problems = "\n".join(pins.disagreements(lock, pins.RUNTIME_LOCK, changed))
    assert "katex version is 0.0.1" in problems
    assert "workbox-core integrity is sha512-other" in problems
    assert "pyodide is missing" in problems
    assert "left-pad is not one of" in problems
    assert len(problems.splitlines()) == 4


def test_package_json_pins_exact_versions_and_the_lock_holds_them(lock):
    meta = read("package.json")
    assert meta["private"] is True
    assert meta["scripts"]["test"] == "node --test tests/js/"
    wanted = {**meta["dependencies"], **meta["devDependencies"]}
    assert "esbuild" in meta["devDependencies"]
    assert "lighthouse" in meta["devDependencies"]  # bench/lighthouse.py runs it from node_modules
    assert lock["packages"][""]["dependencies"] == meta["dependencies"]
    for name, version in wanted.items():
        assert version[0].isdigit(), f"{name} is not pinned to one version: {version}"
        assert lock["packages"][f"node_modules/{name}"]["version"] == version, name
    for names in pins.NAMES.values():
        assert set(names) <= wanted.keys()


def test_a_package_missing_from_the_lock_is_named():
    with pytest.raises(pins.PinError, match=r"axe-core is not in package-lock\.json"):
        pins.locked({"packages": {}}, ("axe-core",))
