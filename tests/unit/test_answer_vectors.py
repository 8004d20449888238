"""The shared numeric-answer vectors: CPython's grader gives every one, and they run all of it.

tests/answer_vectors.json is what tests/js/numeric.test.mjs holds the page's
JavaScript grader to (see tests/unit/test_js_units.py). Set LIVELAB_UPDATE_VECTORS=1 to
write it again from the Python grader after an intended change, then read the diff.
"""

import inspect
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import CodeType, ModuleType

import pytest

import livelab.builder.answer_lexicon
import livelab.builder.answer_text
import livelab.builder.answer_vector
import livelab.builder.answers
from livelab.builder.answers import NumericSpec, grade_numeric
from tests.answer_vectors import (
    VECTORS,
    course_specs,
    expand,
    generate,
    load,
    reading,
    render,
    stored,
)

VECTOR_FILE = load()
CASES = VECTOR_FILE["cases"]
GRADER = (
    livelab.builder.answer_lexicon,
    livelab.builder.answer_text,
    livelab.builder.answer_vector,
    livelab.builder.answers,
)
# The one line no typed text reaches: take() always follows a peek() that found a token.
UNREACHED = {("take", "raise self.fail(READABLE)")}
NOT_GRADING = {"to_json"}  # the spec as the page carries it


def test_the_vectors_are_what_the_python_grader_gives_today():
    text = render(generate())
    if os.environ.get("LIVELAB_UPDATE_VECTORS") == "1":
        VECTORS.write_text(text, encoding="utf-8")
    assert text == stored(), (
        "the answer vectors are out of date (a course question or the grader changed): "
        "run LIVELAB_UPDATE_VECTORS=1 .venv/bin/python -m pytest tests/unit/test_answer_vectors.py "
        "and read the diff"
    )


@pytest.mark.parametrize("case", CASES, ids=[f"{c['spec']}-{i}" for i, c in enumerate(CASES)])
def test_the_python_grader_reproduces_the_vector(case):
    spec = NumericSpec.from_json(VECTOR_FILE["specs"][case["spec"]])
    typed = expand(case["text"])
    assert grade_numeric(spec, typed) == case["result"]
    if "reading" in case:
        assert reading(spec.read(typed)) == case["reading"]


def test_every_numeric_question_of_the_course_is_in_the_vectors():
    graded = {case["spec"] for case in CASES}
    assert set(course_specs()) <= graded
    assert {"level-19/modern-blocks.md:q7", "level-19/worked-examples.md:e4"} <= graded


def test_the_vectors_hold_every_verdict_and_the_big_inputs_as_descriptions():
    verdicts = {case["result"]["verdict"] for case in CASES}
    assert verdicts == {"correct", "wrong", "unreadable"}
    longest = max(len(expand(case["text"])) for case in CASES)
    assert longest >= 1_000_000 and VECTORS.stat().st_size < longest // 4


def _functions(code: CodeType) -> Iterator[CodeType]:
    for const in code.co_consts:
        if isinstance(const, CodeType):
            if const.co_flags & inspect.CO_OPTIMIZED:
                yield const
            yield from _functions(const)


def _body_lines(module: ModuleType) -> dict[int, CodeType]:
    """Each line inside a function of the module, with the function it belongs to."""
    path = Path(module.__file__ or "")
    top = compile(path.read_text(encoding="utf-8"), str(path), "exec")
    return {
        line: code
        for code in _functions(top)
        for _, _, line in code.co_lines()
        if line is not None and line != code.co_firstlineno
    }


def _lines_run(files: set[str], work: Callable[[], None]) -> set[tuple[str, int]]:
    ran: set[tuple[str, int]] = set()

    def local(frame, event, arg):
        if event == "line":
            ran.add((frame.f_code.co_filename, frame.f_lineno))
        return local

    def calls(frame, event, arg):
        return local if frame.f_code.co_filename in files else None

    previous = sys.gettrace()
    sys.settrace(calls)
    try:
        work()
    finally:
        sys.settrace(previous)
    return ran


def test_the_vectors_run_every_line_of_the_python_grader():
    def replay() -> None:
        for case in CASES:
            spec = NumericSpec.from_json(VECTOR_FILE["specs"][case["spec"]])
            grade_numeric(spec, expand(case["text"]))

    files = {str(Path(module.__file__ or "")) for module in GRADER}
    ran = _lines_run(files, replay)
    unreached = set()
    for module in GRADER:
        path = str(Path(module.__file__ or ""))
        source = Path(path).read_text(encoding="utf-8").splitlines()
        for line, code in _body_lines(module).items():
            if (path, line) not in ran and code.co_name not in NOT_GRADING:
                unreached.add((code.co_name, source[line - 1].strip()))
    assert unreached == UNREACHED
