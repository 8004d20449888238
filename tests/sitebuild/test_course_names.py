"""A course's names are its own: livelab brings no labs, so a course may name a lab as level 19
does; two packages of one site that register the same name stop the build, naming both."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

from livelab.registry import Registry

ROOT = Path(__file__).resolve().parents[2]

COURSE_MODULE = '''
"""A course with a lab of its own named "rope", as level 19 names one of its labs."""

from livelab.labs import Lab, register_lab
from livelab.options import Option, Options

PARAMS = Options(turns=Option(2, 1, 5, 1, "turns", what="how many turns"))


def state(*, turns):
    return {"turns": turns}


def view(s):
    return {"text": {"turns": str(s["turns"])}}


def body(values, marks):
    return "<p>turns: " + marks.text("turns") + "</p>"


register_lab(
    Lab(name="rope", title="A skipping rope, the course's own", params=PARAMS, state=state,
        view=view, body=body, module=__name__)
)
'''
PAGE = """# Ropes

```lab
lab: rope
id: skipping
```
"""


def course(folder: Path, modules: str) -> Path:
    (folder / "docs").mkdir(parents=True)
    (folder / "docs" / "index.md").write_text(PAGE, encoding="utf-8")
    (folder / "skipping.py").write_text(COURSE_MODULE, encoding="utf-8")
    (folder / "labs").symlink_to(ROOT / "labs", target_is_directory=True)
    (folder / "mkdocs.yml").write_text(
        "site_name: Ropes\nmarkdown_extensions:\n  - pymdownx.superfences\n"
        f"plugins:\n  - livelab:\n      modules: {modules}\n",
        encoding="utf-8",
    )
    return folder


def build(folder: Path) -> subprocess.CompletedProcess:
    """`mkdocs build` in a process of its own: only the course's modules are registered."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--site-dir", "site"],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def test_a_course_may_name_a_lab_as_level_19_does(tmp_path):
    folder = course(tmp_path, "[skipping]")
    result = build(folder)
    assert result.returncode == 0, result.stdout + result.stderr
    page = (folder / "site" / "index.html").read_text(encoding="utf-8")
    assert 'data-lab-kind="rope"' in page
    assert "A skipping rope, the course&#x27;s own" in page or "the course's own" in page
    assert "turns: " in page


def test_two_packages_that_register_one_name_stop_the_build_naming_both(tmp_path):
    folder = course(tmp_path, "[labs, skipping]")
    result = build(folder)
    assert result.returncode != 0
    said = result.stdout + result.stderr
    assert "lab 'rope' is registered twice: by " in said
    assert "labs.rope (package labs)" in said and "skipping (package skipping)" in said
    assert "give one of them another name, e.g. '" in said


class Item(NamedTuple):
    name: str
    module: str


def test_the_same_module_registering_again_replaces_its_object():
    registry: Registry[Item] = Registry("lab", "livelab.labs")
    registry.register(Item("rope", "my_course.ropes"))
    registry.register(Item("rope", "my_course.ropes"))  # a reload under `mkdocs serve`
    with pytest.raises(ValueError, match=r"by my_course.ropes \(package my_course\) and by"):
        registry.register(Item("rope", "other_course.rope"))
