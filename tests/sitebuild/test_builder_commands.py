"""The project's own configuration under the plain commands an author would type (issue 34).

`zensical build` reads mkdocs.yml, where the livelab Markdown extension is listed, and runs no
plugin: it stops and says the three commands to run, instead of rendering every fence and
finding "No issues". `mkdocs build -f` from another folder finds the course's modules beside
mkdocs.yml. The plugin takes its modules from the extension's line, and a second, different
list stops the build.
"""

import shutil
import sys
from pathlib import Path

from tests.harness import ROOT, run_as_author

BIN = Path(sys.executable).parent


def copy_of_the_course(folder: Path) -> Path:
    folder.mkdir()
    for name in ("mkdocs.yml", "zensical.yml"):
        shutil.copy(ROOT / name, folder / name)
    for name in ("docs", "labs"):
        shutil.copytree(ROOT / name, folder / name, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def test_a_plain_zensical_build_stops_and_says_what_to_run(tmp_path):
    course = copy_of_the_course(tmp_path / "course")
    done = run_as_author([str(BIN / "zensical"), "build"], course)
    said = done.stdout + done.stderr
    assert done.returncode != 0, said
    assert "this Zensical build lacks the runtime files in docs/assets/livelab/" in said
    assert "assets/livelab/livelab.js in extra_javascript" in said
    for step in (
        "livelab assets docs/assets/livelab --math --module labs",
        "zensical build --clean -f zensical.yml",
        "livelab finish site",
    ):
        assert f"\n  {step}" in said, step
    assert not (course / "site" / "level-19").exists(), "no pages that could never run"


def test_mkdocs_builds_the_course_from_another_folder(tmp_path):
    course = copy_of_the_course(tmp_path / "course")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    config = str(course / "mkdocs.yml")
    done = run_as_author([str(BIN / "mkdocs"), "build", "--strict", "-f", config], elsewhere)
    assert done.returncode == 0, done.stderr
    page = (course / "site" / "level-19" / "modern-blocks" / "index.html").read_text("utf-8")
    assert 'data-lab-kind="train_norm"' in page  # a lab of the course's own module


def test_the_plugins_modules_and_the_extensions_must_be_one_list(tmp_path):
    course = copy_of_the_course(tmp_path / "course")
    config = course / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    plugin = "  - livelab  # its course modules: those of the Markdown extension below\n"
    assert plugin in text
    config.write_text(
        text.replace(plugin, "  - livelab:\n      modules: [labs, other]\n"), encoding="utf-8"
    )
    done = run_as_author([str(BIN / "mkdocs"), "build", "--strict"], course)
    assert done.returncode != 0
    assert "the plugin's modules ['labs', 'other'] and those of the Markdown extension" in (
        done.stderr
    )
    assert "name them in one place" in done.stderr
