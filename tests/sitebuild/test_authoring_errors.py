"""Authoring errors name file, line and id with a "did you mean"; serve shows them, a build fails.

Each case is a small course of its own (one page with front matter, so the line counted is the
file's, not the Markdown's after MkDocs strips the front matter).
"""

import logging
import os
import subprocess
import sys
from pathlib import Path

from mkdocs.commands.build import build
from mkdocs.config import load_config

PAGE = """---
title: Broken
---

# A page with mistakes

Some prose.

```lab
lab: rop
```

```numeric
id: q1
prompt: What is one plus one?
answr: 2
```

```numeric
id: q2
prompt: How long is the diagonal of a unit square? `sqrt(2)` is accepted.
answer: sqrt(2)
decimals: 2
```
"""
LAB_LINE, NUMERIC_LINE, KEYPAD_LINE = 9, 13, 19
# A prompt that invites an expression on a field whose phone keypad has digits and a point only.
KEYPAD = "numeric fence id 'q2': option 'prompt' invites an expression (`sqrt(2)`)"
CONFIG = """site_name: Broken course
markdown_extensions:
  - pymdownx.superfences
"""
LIVELAB = "plugins:\n  - livelab:\n      modules: [labs]\n"
ROOT = Path(__file__).resolve().parents[2]


def course(folder: Path, config: str) -> Path:
    """The broken page in a course that uses level 19's labs (a package beside its mkdocs.yml)."""
    (folder / "labs").symlink_to(ROOT / "labs", target_is_directory=True)
    (folder / "docs").mkdir(parents=True)
    (folder / "docs" / "index.md").write_text(PAGE, encoding="utf-8")
    (folder / "mkdocs.yml").write_text(config, encoding="utf-8")
    return folder / "mkdocs.yml"


def serve_config(tmp_path: Path):
    """The course's configuration as `mkdocs serve` loads it."""
    config = load_config(
        str(course(tmp_path, CONFIG + LIVELAB)),
        site_dir=str(tmp_path / "site"),
        strict=False,  # as `mkdocs serve` runs by default
    )
    config.plugins.on_startup(command="serve", dirty=False)
    return config


def run(tmp_path: Path, *args: str) -> str:
    """Run a builder in the course folder; its output, after asserting that it failed."""
    result = subprocess.run(
        [sys.executable, "-m", *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        check=False,
    )
    assert result.returncode != 0
    return result.stdout + result.stderr


def test_a_strict_build_fails_naming_page_line_id_and_the_closest_name(tmp_path):
    config = course(tmp_path, CONFIG + LIVELAB)
    message = run(tmp_path, "mkdocs", "build", "--strict", "-f", str(config))
    assert f"index.md:{LAB_LINE}: lab fence id 'rop': unknown lab 'rop'" in message
    assert "(did you mean 'rope'?)" in message
    assert f"index.md:{NUMERIC_LINE}: numeric fence id 'q1': unknown option 'answr'" in message
    assert "(did you mean 'answer'?)" in message
    assert f"index.md:{KEYPAD_LINE}: {KEYPAD}, but input is number (the default)" in message
    assert not (tmp_path / "site" / "index.html").exists()


def test_under_serve_the_page_shows_each_error_and_the_log_names_its_line(tmp_path, caplog):
    config = serve_config(tmp_path)
    with caplog.at_level(logging.WARNING, logger="mkdocs.plugins.livelab"):
        build(config, serve_url="http://127.0.0.1:8000/")
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert f"index.md:{LAB_LINE}: lab fence id 'rop'" in logged
    assert f"index.md:{NUMERIC_LINE}: numeric fence id 'q1'" in logged
    assert "(did you mean 'answer'?)" in logged
    assert f"index.md:{KEYPAD_LINE}: {KEYPAD}" in logged
    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    boxes = page.count('class="livelab-authoring-error" role="alert"')
    assert boxes == 3
    assert "unknown lab &#x27;rop&#x27; (did you mean &#x27;rope&#x27;?)" in page
    assert "Some prose." in page


def test_a_zensical_build_fails_naming_page_line_and_id(tmp_path):
    config = course(tmp_path, CONFIG + "  - livelab.builder.extension:\n      modules: [labs]\n")
    output = run(tmp_path, "zensical", "build", "--clean", "-f", str(config))
    assert f"index.md:{LAB_LINE}: lab fence id 'rop'" in output
    assert f"index.md:{NUMERIC_LINE}: numeric fence id 'q1': unknown option 'answr'" in output
    assert f"index.md:{KEYPAD_LINE}: {KEYPAD}" in output
    assert not (tmp_path / "site" / "index.html").exists()
