"""Issue 34's second example course, written from the authoring guide alone: in French, a
runnable block that plots with matplotlib, an exercise whose blank is a whole function body
with two known wrong answers, hints, and a choice with several right options. It builds with
MkDocs and with Zensical, and `livelab check` replays every question."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from tests.harness import ROOT
from tests.sitebuild.test_example_zensical import ZENSICAL_CONFIG, _run

EXAMPLE = ROOT / "examples" / "cours-activations"
KATEX = "extra_css:\n  - assets/livelab/katex/katex.min.css\n"


def copy(tmp_path: Path) -> Path:
    course = tmp_path / "course"
    shutil.copytree(EXAMPLE, course)
    return course


def test_mkdocs_builds_it_and_livelab_check_replays_every_question(tmp_path):
    course = copy(tmp_path)
    _run([sys.executable, "-m", "mkdocs", "build", "--strict"], course)
    said = _run([sys.executable, "-m", "livelab.builder.cli", "check"], course)
    result = json.loads(said.strip().splitlines()[-1])
    assert result == {"questions": 3, "failed": 0}
    for line in ("ok    q1 (numeric", "ok    q2 (choice", "ok    e1 (exercise"):
        assert line in said
    page = (course / "site" / "index.html").read_text(encoding="utf-8")
    assert '<html lang="fr"' in page
    assert 'data-livelab="runnable"' in page and 'type="checkbox"' in page
    manifest = json.loads((course / "site/assets/livelab/manifest.json").read_text("utf-8"))
    assert manifest["packages"]["matplotlib"] == "matplotlib"
    speaks_french(course / "site")


def speaks_french(site: Path) -> None:
    """The site's table and the worker's language are French (theme.language: fr)."""
    folder = site / "assets/livelab"
    assert json.loads((folder / "manifest.json").read_text("utf-8"))["language"] == "fr"
    strings = (folder / "strings.js").read_text(encoding="utf-8")
    assert '"@code": "fr"' in strings and '"hints.none_left": "Plus d’indice"' in strings
    (archive,) = folder.glob("livelab-*.zip")
    with zipfile.ZipFile(archive) as zipped:
        table = json.loads(zipped.read("livelab/i18n/site.json"))
        names = [n for n in zipped.namelist() if n.startswith("livelab/i18n/")]
    assert table["@code"] == "fr" and table["hints.none_left"] == "Plus d’indice"
    assert names == ["livelab/i18n/__init__.py", "livelab/i18n/site.json"]


def zensical_build(course: Path, site_url: str | None = None) -> None:
    """The course built by Zensical into course/site, in the three steps the guide gives."""
    config = ZENSICAL_CONFIG.replace("extra_css:\n", KATEX, 1)
    (course / "zensical.yml").write_text(config, encoding="utf-8")
    bin_dir = Path(sys.executable).parent
    assets = ["assets", "docs/assets/livelab", "--math", "--package", "matplotlib"]
    assets += ["--language", "fr"]
    _run([str(bin_dir / "livelab"), *assets], course)
    _run([str(bin_dir / "zensical"), "build", "--clean", "-f", "zensical.yml"], course)
    url = ["--site-url", site_url] if site_url else []
    _run([str(bin_dir / "livelab"), "finish", "site", *url], course)


def test_zensical_builds_it_in_three_steps(tmp_path):
    course = copy(tmp_path)
    zensical_build(course)
    page = (course / "site" / "index.html").read_text(encoding="utf-8")
    assert "```" not in page, "a fence was left as raw text"
    for qid in ("q1", "q2", "e1"):
        assert f'data-question="{qid}"' in page
    assert 'data-livelab="runnable"' in page
    wheels = {p.name.split("-")[0] for p in (course / "site/assets/livelab/pyodide").glob("*.whl")}
    assert {"numpy", "matplotlib", "pillow"} <= wheels
    speaks_french(course / "site")


def test_zensical_stops_when_the_runtime_files_speak_another_language(tmp_path):
    # As an author would: the three steps, but `livelab assets` without --language fr.
    course = copy(tmp_path)
    config = ZENSICAL_CONFIG.replace("extra_css:\n", KATEX, 1)
    (course / "zensical.yml").write_text(config, encoding="utf-8")
    bin_dir = Path(sys.executable).parent
    _run([str(bin_dir / "livelab"), "assets", "docs/assets/livelab", "--math"], course)
    done = subprocess.run(
        [str(bin_dir / "zensical"), "build", "--clean", "-f", "zensical.yml"],
        cwd=course, capture_output=True, text=True, check=False,
    )  # fmt: skip
    said = done.stdout + done.stderr
    assert done.returncode != 0, said
    assert "in the theme's language (they speak 'en')" in said
    assert "livelab assets docs/assets/livelab --math --package matplotlib --language fr" in said
