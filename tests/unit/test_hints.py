"""Hints: every question of the course has a ladder of them, sealed, and none gives its answer away.

The course's fences are read from the pages' Markdown as the build reads them (nested examples
in the authoring guide left out) and parsed by their kind, so a hint that does not parse fails
here as it would fail the build.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import markdown
import pytest

from livelab.builder.course_pages import fence_bodies
from livelab.builder.fences import parse_body
from livelab.builder.kinds import QuestionError, hint_texts, question_kind
from livelab.builder.kinds.choice import ChoiceQuestion
from livelab.builder.kinds.code import KIND as CODE
from livelab.builder.kinds.numeric import KIND as NUMERIC
from livelab.builder.kinds.numeric import NumericQuestion
from livelab.builder.question_markup import unseal
from livelab.questions import code_question

ROOT = Path(__file__).resolve().parents[2]
COURSE_PAGES = sorted((ROOT / "docs").rglob("*.md"))
EXAMPLE_PAGES = sorted((ROOT / "examples" / "softmax-course" / "docs").rglob("*.md"))
KINDS = ("numeric", "choice", "code")
MOST = 3  # hints a course question gives at most: a ladder, not a walk-through


def fences(pages: list[Path]) -> list[tuple[str, str, dict]]:
    """(where, kind, fence data) of every question fence on the pages."""
    found = []
    for page in pages:
        lines = page.read_text(encoding="utf-8").split("\n")
        for kind in KINDS:
            for line, body in fence_bodies(lines, kind):
                data = parse_body(body)
                found.append((f"{page.relative_to(ROOT)}:{line + 1} {data['id']}", kind, data))
    return found


COURSE = fences(COURSE_PAGES)
EXAMPLE = fences(EXAMPLE_PAGES)


def test_the_course_has_questions_of_every_kind_and_the_example_a_code_question():
    assert {kind for _, kind, _ in COURSE} == set(KINDS)
    assert len(COURSE) >= 38
    assert [kind for _, kind, _ in EXAMPLE] == ["code"]


@pytest.mark.parametrize(("where", "kind", "data"), COURSE, ids=[w for w, _, _ in COURSE])
def test_every_course_question_has_one_to_three_hints(where, kind, data):
    question = question_kind(kind).question(data)
    assert 1 <= len(question.hints) <= MOST, where


def test_the_example_courses_question_has_hints_too():
    for where, _, data in EXAMPLE:  # its code question lives in the example's own package
        assert 1 <= len(hint_texts(data.get("hints", []))) <= MOST, where


def answer_texts(question: NumericQuestion) -> list[str]:
    """The answer as the page reveals it, each entry of a vector apart; one digit left out
    (a lone digit turns up in any hint that counts steps)."""
    parts = [p.strip() for p in question.answer_text.strip("[]").split(",")]
    return [p for p in parts if len(p.lstrip("-")) > 1 and float(p) != 0]


def states(answer: str, text: str) -> bool:
    return re.search(rf"(?<![\d.]){re.escape(answer)}(?!\d)", text.replace(",", "")) is not None


@pytest.mark.parametrize(("where", "kind", "data"), COURSE, ids=[w for w, _, _ in COURSE])
def test_no_hint_states_its_questions_answer(where, kind, data):
    question = question_kind(kind).question(data)
    hints = " ".join(question.hints)
    if isinstance(question, NumericQuestion):
        for answer in answer_texts(question):
            assert not states(answer, hints), f"{where}: a hint prints {answer}"
    elif isinstance(question, ChoiceQuestion):
        right = question.options[question.correct_index].text
        assert right.lower() not in hints.lower(), where
    else:
        assert question.reference_blank not in hints, where


def test_the_check_finds_an_answer_stated_in_a_hint():
    question = NUMERIC.question({"id": "x", "prompt": "p", "answer": "2/3", "decimals": 2})
    assert states(answer_texts(question)[0], "The ratio comes to 0.67 in the end.")
    assert not states(answer_texts(question)[0], "Divide 2 by 3, not 0.675 by anything.")


def render(text: str) -> str:
    return markdown.markdown(text)


def test_hints_are_rendered_as_markdown_and_sealed_never_in_the_markup():
    hints = ["Square *each* entry of $x$ first.", "Then take the mean over the last axis."]
    data = {"id": "q9", "prompt": "p", "answer": 3, "hints": hints}
    html = NUMERIC.markup(NUMERIC.question(data), render)
    sealed = unseal(re.search(r'data-sealed="([^"]*)"', html).group(1))
    assert sealed["hints"] == [render(hint) for hint in hints]
    outside = re.sub(r'data-sealed="[^"]*"', "", html)
    assert "each" not in outside and "last axis" not in outside
    assert '<ol class="livelab-hints" data-hints hidden data-search-exclude></ol>' in outside
    assert 'data-action="hint" disabled hidden>Hint</button>' in outside


OPTIONS = [{"text": "a", "why": "w", "correct": True}, {"text": "b", "why": "w"}]


@pytest.mark.parametrize("kind", KINDS)
def test_a_hint_that_is_not_text_names_its_number(kind):
    data = {
        "numeric": {"id": "q1", "prompt": "p", "answer": 1},
        "choice": {"id": "q1", "prompt": "p", "options": OPTIONS},
        "code": {"id": "c1", "question": "rmsnorm", "prompt": "p"},
    }[kind]
    with pytest.raises(QuestionError, match=r"hint 2 must be a line of Markdown text"):
        question_kind(kind).question({**data, "hints": ["fine", {"text": "a mapping"}]})
    with pytest.raises(QuestionError, match=r"hint 1 must be"):
        question_kind(kind).question({**data, "hints": ["  "]})
    with pytest.raises(ValueError, match="hints"):
        question_kind(kind).question({**data, "hints": "one hint, not a list"})


def test_a_code_fence_without_hints_falls_back_to_its_questions_own_hint(monkeypatch):
    own = dataclasses.replace(code_question("rmsnorm"), hint="Square <x> first & average.")
    monkeypatch.setattr("livelab.builder.kinds.code.code_question", lambda name: own)
    data = {"id": "c1", "question": "rmsnorm", "prompt": "p"}
    sealed = lambda d: unseal(  # noqa: E731
        re.search(r'data-sealed="([^"]*)"', CODE.markup(CODE.question(d), render)).group(1)
    )
    assert sealed(data)["hints"] == ["<p>Square &lt;x&gt; first &amp; average.</p>"]
    assert sealed({**data, "hints": ["Use `np.mean`."]})["hints"] == [render("Use `np.mean`.")]
    bare = dataclasses.replace(own, hint="")
    monkeypatch.setattr("livelab.builder.kinds.code.code_question", lambda name: bare)
    assert sealed(data)["hints"] == []
