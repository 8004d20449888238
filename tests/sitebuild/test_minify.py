"""A course built with mkdocs-minify-plugin listed after livelab keeps working offline (issue 34).

Minify renames the stylesheets it compresses (livelab.css becomes livelab.min.css) in its
post-build step and points the pages at the new names. livelab's runtime files are MkDocs
files, so minify finds them, and livelab writes the service worker after every other plugin:
its precache list names the files the site holds, and nothing that is gone.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from livelab.builder import fetch
from tests.harness import ROOT

EXAMPLE = ROOT / "examples" / "softmax-course"
MINIFY = """
  - minify:
      minify_html: true
      minify_css: true
      css_files: [assets/livelab/livelab.css]
"""


def precached(site: Path) -> set[str]:
    head = (site / "sw.js").read_text(encoding="utf-8").partition(";\n\n")[0]
    return {entry["url"] for entry in json.loads(head.removeprefix("const BUILD = "))["precache"]}


def test_minify_after_livelab_keeps_every_precached_file(tmp_path):
    course = tmp_path / "course"
    shutil.copytree(EXAMPLE, course, ignore=shutil.ignore_patterns("__pycache__"))
    config = course / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    start = text.index("plugins:\n")
    end = text.index("\n\n", start)
    config.write_text(text[:end] + MINIFY + text[end:], encoding="utf-8")
    env = {**os.environ, fetch.CACHE_ENV: str(fetch.cache_root()), "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict"],
        cwd=course,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    site = course / "site"
    page = (site / "index.html").read_text(encoding="utf-8")
    assert "assets/livelab/livelab.min.css" in page  # minify did its work
    assert not (site / "assets" / "livelab" / "livelab.css").exists()
    urls = precached(site)
    assert "assets/livelab/livelab.min.css" in urls
    missing = sorted(url for url in urls if not (site / (url.split("?")[0] or ".")).exists())
    assert missing == [], "precached but not in the site"
