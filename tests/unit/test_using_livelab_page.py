"""The "Use livelab in your course" page: its code samples work as printed.

The page's Python blocks are run as a course module would run them; the lab they register
renders its first view, and the code question they register passes its own grader with
its reference blank and fails a wrong one.
"""

import re
from pathlib import Path

import pytest

from livelab import grading
from livelab.labs import LABS, all_labs, lab_view
from livelab.questions import CODE_QUESTIONS, all_code_questions

PAGE = Path(__file__).resolve().parents[2] / "docs" / "using-livelab.md"


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)


@pytest.fixture
def registries(monkeypatch):
    """Fresh copies of the registries, so the page's samples do not leak into other tests."""
    monkeypatch.setattr(LABS, "items", dict(all_labs()))
    monkeypatch.setattr(CODE_QUESTIONS, "items", dict(all_code_questions()))


def test_the_sample_lab_registers_and_renders(registries):
    lab_sample = next(code for code in _blocks("python") if "register_lab" in code)
    exec(compile(lab_sample, "using-livelab.md", "exec"), {"__name__": "my_course.doubling"})
    first = lab_view("doubling", {"x": 2.5})
    assert first["view"]["text"] == {"x": "2.50", "double": "5.00"}
    assert first["params"] == {"x": 2.5}


def test_the_sample_code_question_grades_right_and_wrong(registries):
    sample = next(code for code in _blocks("python") if "register_code_question" in code)
    exec(compile(sample, "using-livelab.md", "exec"), {"__name__": "my_course.question"})
    assert grading.check("doubling", "2 * v")["verdict"] == "correct"
    assert grading.check("doubling", "v + 1")["verdict"] == "wrong"


def test_the_sample_configuration_names_what_the_plugin_needs():
    config = next(code for code in _blocks("yaml") if "plugins:" in code)
    assert "pymdownx.superfences" in config
    assert "- livelab" in config
