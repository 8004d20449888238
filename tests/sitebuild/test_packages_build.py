"""A course's extra Pyodide packages at build time (issue 34): served beside NumPy with every
dependency and precached, or a misspelt name stops the build with the closest one; a course
that names none serves none."""

import json
import os
import shutil
import subprocess
import sys

from livelab.builder import fetch
from tests.sitebuild.test_minify import EXAMPLE, precached

PYODIDE = "assets/livelab/pyodide/"


def build(tmp_path, packages: str):
    course = tmp_path / "course"
    shutil.copytree(EXAMPLE, course, ignore=shutil.ignore_patterns("__pycache__"))
    config = course / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    if packages:
        text = text.replace("  - livelab  #", f"  - livelab:\n      packages: {packages}\n  #", 1)
    config.write_text(text, encoding="utf-8")
    env = {**os.environ, fetch.CACHE_ENV: str(fetch.cache_root()), "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict"],
        cwd=course,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    return done, course / "site"


def test_matplotlib_is_served_with_its_dependencies_checked_and_precached(tmp_path):
    done, site = build(tmp_path, "[matplotlib]")
    assert done.returncode == 0, done.stderr
    manifest = json.loads((site / "assets/livelab/manifest.json").read_text(encoding="utf-8"))
    assert manifest["packages"]["matplotlib"] == "matplotlib"
    assert manifest["packages"]["PIL"] == "pillow"
    lock = json.loads((site / PYODIDE / "pyodide-lock.json").read_text(encoding="utf-8"))
    urls = precached(site)
    for package in set(manifest["packages"].values()):
        name = lock["packages"][package]["file_name"]
        served = site / PYODIDE / name
        assert fetch.sha256_of(served) == lock["packages"][package]["sha256"], name
        assert PYODIDE + name in urls, f"{name} is not precached"


def test_a_misspelt_package_stops_the_build_with_the_closest_name(tmp_path):
    done, _ = build(tmp_path, "[matplotlb]")
    assert done.returncode != 0
    assert "packages: Pyodide 0.27.7 has no package 'matplotlb'" in done.stderr
    assert "did you mean 'matplotlib'" in done.stderr


def test_a_course_that_names_no_package_serves_none(tmp_path):
    done, site = build(tmp_path, "")
    assert done.returncode == 0, done.stderr
    manifest = json.loads((site / "assets/livelab/manifest.json").read_text(encoding="utf-8"))
    assert manifest["packages"] == {}
    assert sorted(p.name for p in (site / PYODIDE).glob("*.whl")) == [manifest["numpy"]]
