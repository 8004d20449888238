"""Orientation on a page (issue 31): links to a lab or a question must land, and each question
has one title, shown at the question and used by the page's progress lists.

Each case is a one-page course of its own, built by `mkdocs build --strict` as an author would.
"""

import html
import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONFIG = """site_name: Links course
markdown_extensions:
  - admonition
  - pymdownx.superfences
plugins:
  - livelab:
      modules: [labs]
"""


def page(link: str, reason_link: str, title: str = "E3") -> str:
    return f"""# Links

```lab
lab: rope
id: rope
```

!!! example "Try it"
    Move both positions in the [RoPE lab]({link}) and read the score.

```numeric
id: q1
prompt: What is one plus one?
answer: 2
```

```choice
id: e3
title: {title}
prompt: Which lab turns arrows?
options:
  - text: The RoPE lab
    correct: true
    why: It turns q and k; see [the lab]({reason_link}).
  - text: None
    why: One of them does.
```
"""


def line_of(text: str, words: str) -> int:
    """1-based line of the page that holds words (the test does not count by hand)."""
    return next(n for n, line in enumerate(text.splitlines(), start=1) if words in line)


def build(tmp_path: Path, text: str) -> subprocess.CompletedProcess:
    (tmp_path / "labs").symlink_to(ROOT / "labs", target_is_directory=True)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text(text, encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(CONFIG, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        check=False,
    )


def test_a_link_to_an_id_not_on_the_page_fails_the_build_naming_page_and_line(tmp_path):
    text = page("#rope-lab", "#rope-labb")
    result = build(tmp_path, text)
    message = result.stdout + result.stderr
    assert result.returncode != 0
    assert line_of(text, "(#rope-lab)") == 9
    assert "index.md:9: a link to #rope-lab leads nowhere" in message
    # A link inside a sealed reason is checked too: the student follows it once it is shown.
    line = line_of(text, "(#rope-labb)")
    assert f"index.md:{line}: a link to #rope-labb leads nowhere" in message


def test_links_to_a_lab_and_a_question_on_the_page_build(tmp_path):
    result = build(tmp_path, page("#rope", "#e3"))
    assert result.returncode == 0, result.stdout + result.stderr
    built = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert '<a href="#rope">RoPE lab</a>' in built


def test_each_question_shows_its_one_title_and_the_progress_lists_use_it(tmp_path):
    result = build(tmp_path, page("#rope", "#rope"))
    assert result.returncode == 0, result.stdout + result.stderr
    built = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    shown = dict(
        re.findall(
            r'id="([a-z0-9-]+)-prompt"><strong class="livelab-question__title">([^<]*)<', built
        )
    )
    # The author's title, else the question's place among the page's questions.
    assert shown == {"q1": "Question 1", "e3": "E3"}
    for items in re.findall(
        r'data-livelab="page-(?:progress|summary)" data-items="([^"]*)"', built
    ):
        listed = {item["id"]: item["title"] for item in json.loads(html.unescape(items))}
        assert listed == shown


def test_a_title_of_more_than_one_line_fails_the_build_naming_the_question(tmp_path):
    result = build(tmp_path, page("#rope", "#rope", title='"E3\\nand more"'))
    assert result.returncode != 0
    assert "choice fence id 'e3': option 'title' must be one line" in result.stdout + result.stderr
