"""The example course built by Zensical: its own lab and code question come from its module.

Zensical runs no MkDocs plugin, so the course names its module to the Markdown extension
(`livelab.builder.extension: {modules: [...]}` in its mkdocs.yml, where the plugin reads it too)
and to `livelab assets --module`. The built page
carries the course's own lab with its first view and its code question, and the browser's
zip holds the module beside livelab.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from livelab.builder import fetch
from tests.harness import ROOT

EXAMPLE = ROOT / "examples" / "softmax-course"
ZENSICAL_CONFIG = """\
INHERIT: mkdocs.yml
site_dir: site
extra_css:
  - assets/livelab/livelab.css
extra_javascript:
  - path: assets/livelab/livelab.js
    type: module
"""


def _run(args: list[str], cwd: Path) -> str:
    env = {**os.environ, fetch.CACHE_ENV: str(fetch.cache_root()), "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"{' '.join(args)} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout + done.stderr


def test_zensical_builds_a_course_with_its_own_lab_and_code_question(tmp_path: Path):
    course = tmp_path / "course"
    shutil.copytree(EXAMPLE, course, ignore=shutil.ignore_patterns("__pycache__"))
    (course / "zensical.yml").write_text(ZENSICAL_CONFIG, encoding="utf-8")
    bin_dir = Path(sys.executable).parent
    assets = "docs/assets/livelab"
    _run([str(bin_dir / "livelab"), "assets", assets, "--module", "softmax_course"], course)
    _run([str(bin_dir / "zensical"), "build", "--clean", "-f", "zensical.yml"], course)
    _run([str(bin_dir / "livelab"), "finish", "site"], course)
    page = (course / "site" / "index.html").read_text(encoding="utf-8")
    assert 'data-lab-kind="temperature"' in page
    assert page.count("data-lab-kind=") == 1, "livelab brings no labs of its own"
    assert 'id="s1"' in page or 'data-question="s1"' in page
    assert "```" not in page, "a fence was left as raw text"
    archive = next((course / "site" / "assets" / "livelab").glob("livelab-*.zip"))
    names = zipfile.ZipFile(archive).namelist()
    assert "softmax_course/lab.py" in names
    assert not any(name.startswith("labs/") for name in names), "level 19 is not the engine's"
