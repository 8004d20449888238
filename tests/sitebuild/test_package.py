"""The package a stranger installs: `python -m build` makes the sdist and, from it, the wheel;
twine checks their metadata and that the README renders; the wheel carries the browser code
and the data files and no tests."""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

import pytest

from tests.harness import ROOT
from tests.packaging import run, source_copy

PACKAGE = ROOT / "py" / "livelab"


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    source = source_copy(tmp_path_factory.mktemp("source"))
    out = tmp_path_factory.mktemp("dist")
    run(sys.executable, "-m", "build", "-q", "--outdir", out, source, cwd=source)
    return out


def test_twine_passes_the_sdist_and_the_wheel(dist):
    assert sorted(p.name for p in dist.iterdir()) == [
        "livelab-0.1.0-py3-none-any.whl",
        "livelab-0.1.0.tar.gz",
    ]
    output = run(sys.executable, "-m", "twine", "check", "--strict", *dist.iterdir(), cwd=dist)
    assert output.count("PASSED") == 2


def test_the_metadata_names_the_license_the_readme_and_the_classifiers(dist):
    (wheel,) = dist.glob("*.whl")
    archive = zipfile.ZipFile(wheel)
    (meta,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
    text = archive.read(meta).decode()
    assert "License-Expression: MIT" in text
    assert "Description-Content-Type: text/markdown" in text
    assert "Classifier: Framework :: MkDocs" in text
    assert any(n.endswith("licenses/LICENSE") for n in archive.namelist())


def test_the_wheel_carries_the_browser_code_and_the_data_files_and_no_tests(dist):
    (wheel,) = dist.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    needed = {
        "livelab/" + path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*")
        if path.is_file()
        and "__pycache__" not in path.parts
        and "tests" not in path.parts
        and (
            (
                path.suffix in (".json", ".mjs", ".js")
                and path.relative_to(PACKAGE).parts[0] == "builder"
            )
            or path.relative_to(PACKAGE).parts[0] == "web"
            or path.suffix == ".json"
        )
    }
    assert "livelab/web/runtime/worker/boot.js" in needed
    assert "livelab/builder/runtime.lock.json" in needed
    assert "livelab/builder/bytecode.mjs" in needed
    # `livelab new` writes a course from these (its tests folder is selftest/ here).
    assert "livelab/builder/scaffold/mkdocs.yml.tmpl" in names
    assert "livelab/builder/scaffold/selftest/test_course.py.tmpl" in names
    assert needed - names == set()
    assert [n for n in names if "tests/" in n or n.startswith("tests")] == []
