"""`livelab new DIR` (issue 34): the course it writes builds strictly, holds each kind of
widget a new author starts from, and passes its own tests as written; a folder that is not
empty is refused with a clear message and left as it was."""

import sys

from tests.harness import run_as_author


def test_a_new_course_builds_and_passes_its_own_tests(tmp_path):
    made = run_as_author(
        [sys.executable, "-m", "livelab.builder.cli", "new", "first-course"], tmp_path
    )
    assert made.returncode == 0, made.stderr
    assert "python -m pytest" in made.stdout
    course = tmp_path / "first-course"
    assert 'site_name: "First course"' in (course / "mkdocs.yml").read_text(encoding="utf-8")
    own = run_as_author([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], course)
    assert own.returncode == 0, own.stdout + own.stderr
    assert "2 passed" in own.stdout
    built = run_as_author([sys.executable, "-m", "mkdocs", "build", "--strict"], course)
    assert built.returncode == 0, built.stderr
    page = (course / "site" / "index.html").read_text(encoding="utf-8")
    assert 'data-livelab="runnable"' in page
    assert 'data-lab-kind="temperature"' in page
    assert 'type="checkbox"' in page  # the multiple-answer choice
    assert 'data-question="s1"' in page  # the code question
    assert "fonts.googleapis.com" not in page


def test_a_folder_that_is_not_empty_is_refused_and_left_alone(tmp_path):
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    made = run_as_author(
        [sys.executable, "-m", "livelab.builder.cli", "new", str(tmp_path)], tmp_path
    )
    assert made.returncode == 1
    assert "is not an empty folder: livelab new writes only a new one" in made.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]
