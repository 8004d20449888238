"""An exercise written in its fence (issue 34): a mistake stops the build naming the page, the
fence's line and the field; a right one is on the page as a code question, its solution and
known wrong answers kept sealed."""

import re
import sys
from pathlib import Path

from livelab.builder.question_markup import unseal
from tests.harness import run_as_author
from tests.sitebuild.test_authoring_errors import CONFIG, LIVELAB, ROOT, run

PAGE = """# Norms

Some prose.

```exercise
id: e1
prompt: Write the body of `rms_norm`.
function: rms_norm
template: |
  def rms_norm(x, eps=1e-6):
      ____
solution: |
  ms = np.mean(x ** 2, axis=-1, keepdims=True)
  return x / np.sqrt(ms + eps)
blank_label: "blank: the body of rms_norm"
example:
  - args: [[3.0, 4.0]]
cases:
  - args: [[[1.0, 2.0], [30.0, 40.0]]]
    label: a batch of two rows
wrong:
  - blank: return x / np.mean(x ** 2, axis=-1, keepdims=True)
    feedback: >-
      That divides by the mean square; its square root, $\\sqrt{\\overline{x^2}}$, is the size
      of the row.
  - blank: return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps)
    feedback: Squares written as products are still squares.
```
"""
FENCE_LINE = 5


def course(folder: Path, page: str) -> Path:
    (folder / "labs").symlink_to(ROOT / "labs", target_is_directory=True)
    (folder / "docs").mkdir(parents=True)
    (folder / "docs" / "index.md").write_text(page, encoding="utf-8")
    (folder / "mkdocs.yml").write_text(CONFIG + LIVELAB, encoding="utf-8")
    return folder / "mkdocs.yml"


def test_a_wrong_answer_that_passes_stops_the_build_naming_page_line_and_field(tmp_path):
    config = course(tmp_path, PAGE)
    message = run(tmp_path, "mkdocs", "build", "--strict", "-f", str(config))
    said = f"index.md:{FENCE_LINE}: exercise fence id 'e1': wrong 2: "
    assert said in message
    assert "should be wrong, but passed" in message
    assert not (tmp_path / "site" / "index.html").exists()


def test_an_exercise_without_hidden_cases_stops_the_build(tmp_path):
    config = course(tmp_path, PAGE.replace("cases:\n  - args: [[[1.0, 2.0], [30.0, 40.0]]]\n", ""))
    message = run(tmp_path, "mkdocs", "build", "--strict", "-f", str(config))
    assert f"index.md:{FENCE_LINE}: exercise fence id 'e1': cases: " in message


def test_a_right_exercise_is_a_code_question_with_its_answers_sealed(tmp_path):
    right = PAGE[: PAGE.index("  - blank: return x / np.sqrt")] + "```\n"
    config = course(tmp_path, right)
    done = run_as_author(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config)], tmp_path
    )
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert 'data-question="e1"' in page
    assert "<textarea" in page and 'aria-label="blank: the body of rms_norm"' in page
    assert "np.sqrt(ms + eps)" not in page and "mean square" not in page
    sealed = unseal(re.search(r'data-question="e1"[^>]*data-sealed="([^"]+)"', page)[1])
    assert sealed["exercise"]["wrong"][0]["feedback"].startswith("That divides")


TWO_BLANKS = """# Norms

Some prose.

```exercise
id: e2
prompt: Fill in both blanks of `rms_norm`.
function: rms_norm
template: |
  def rms_norm(x, eps=1e-6):
      ms = ____
      return x / ____
solution:
  - np.mean(x ** 2, axis=-1, keepdims=True)
  - np.sqrt(ms + eps)
blank_label: "blank: rms_norm"
example:
  - args: [[3.0, 4.0]]
cases:
  - args: [[[1.0, 2.0], [30.0, 40.0]]]
    label: a batch of two rows
wrong:
  - blanks:
      - np.mean(x ** 2, axis=-1, keepdims=True)
      - ms
    feedback: That divides by the mean square; take its square root.
```
"""


def test_an_exercise_of_two_blanks_is_a_code_question_with_a_field_each(tmp_path):
    config = course(tmp_path, TWO_BLANKS)
    done = run_as_author(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config)], tmp_path
    )
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert page.count("<textarea") == 2
    assert 'aria-label="blank 1 of 2: rms_norm"' in page
    assert 'aria-label="blank 2 of 2: rms_norm"' in page
    assert "np.sqrt(ms + eps)" not in page and "square root" not in page
    sealed = unseal(re.search(r'data-question="e2"[^>]*data-sealed="([^"]+)"', page)[1])
    assert sealed["reference"] == ["np.mean(x ** 2, axis=-1, keepdims=True)", "np.sqrt(ms + eps)"]


def test_a_wrong_answer_with_one_text_for_two_blanks_stops_the_build_naming_the_field(tmp_path):
    wrong = "  - blanks:\n      - np.mean(x ** 2, axis=-1, keepdims=True)\n      - ms\n"
    page = TWO_BLANKS.replace(wrong, "  - blank: ms\n")
    message = run(tmp_path, "mkdocs", "build", "--strict", "-f", str(course(tmp_path, page)))
    said = f"index.md:{FENCE_LINE}: exercise fence id 'e2': wrong 1: blank: the template has 2"
    assert said in message
    assert not (tmp_path / "site" / "index.html").exists()
