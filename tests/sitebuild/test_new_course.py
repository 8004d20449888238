"""`livelab new DIR` (issue 34): the course it writes builds strictly, holds each kind of
widget a new author starts from, and passes its own tests as written; a folder that is not
empty is refused with a clear message and left as it was."""

import os
import subprocess
import sys
from pathlib import Path

from livelab.builder import fetch
from tests.harness import ROOT


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    """As an author runs it: the project's own root is not on the module path."""
    paths = os.environ.get("PYTHONPATH", "").split(os.pathsep)
    kept = [p for p in paths if p and Path(p).resolve() != ROOT]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(kept),
        fetch.CACHE_ENV: str(fetch.cache_root()),
        "NO_MKDOCS_2_WARNING": "1",
    }
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, check=False)


def test_a_new_course_builds_and_passes_its_own_tests(tmp_path):
    made = run([sys.executable, "-m", "livelab.builder.cli", "new", "first-course"], tmp_path)
    assert made.returncode == 0, made.stderr
    assert "python -m pytest" in made.stdout
    course = tmp_path / "first-course"
    assert 'site_name: "First course"' in (course / "mkdocs.yml").read_text(encoding="utf-8")
    own = run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], course)
    assert own.returncode == 0, own.stdout + own.stderr
    assert "2 passed" in own.stdout
    built = run([sys.executable, "-m", "mkdocs", "build", "--strict"], course)
    assert built.returncode == 0, built.stderr
    page = (course / "site" / "index.html").read_text(encoding="utf-8")
    assert 'data-livelab="runnable"' in page
    assert 'data-lab-kind="temperature"' in page
    assert 'type="checkbox"' in page  # the multiple-answer choice
    assert 'data-question="s1"' in page  # the code question
    assert "fonts.googleapis.com" not in page


def test_a_folder_that_is_not_empty_is_refused_and_left_alone(tmp_path):
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    made = run([sys.executable, "-m", "livelab.builder.cli", "new", str(tmp_path)], tmp_path)
    assert made.returncode == 1
    assert "is not an empty folder: livelab new writes only a new one" in made.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]
