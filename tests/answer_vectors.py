"""The shared numeric-answer vectors: what is typed, and what livelab.builder.answers says about it.

tests/answer_vectors.json is replayed by CPython (tests/unit/test_answer_vectors.py),
by Node (tests/js/numeric.test.mjs) and by Chromium (tests/browser/test_questions.py), so
the page's JavaScript grader reads, judges and words every answer as the Python one does.
The file is generated here from the Python grader, the source of truth: the typed texts
below (tests/answer_texts.py) and every numeric question of the course pages. Big inputs
are stored as a description, {"before", "repeat", "times", "after"}, not as a megabyte.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from livelab.builder.answers import NumericSpec, grade_numeric
from livelab.builder.fences import parse_body
from livelab.builder.kinds.numeric import KIND as NUMERIC
from livelab.builder.kinds.numeric import NumericQuestion
from tests.answer_texts import SPECS, TEXTS

ROOT = Path(__file__).resolve().parents[1]
VECTORS = ROOT / "tests/answer_vectors.json"
DOCS = ROOT / "docs"
EXAMPLE = re.compile(r"^````.*?^````", re.MULTILINE | re.DOTALL)  # a fence shown, not used
FENCE = re.compile(r"^```numeric\n(.*?)^```", re.MULTILINE | re.DOTALL)
ABOUT = (
    "Typed numeric answers and what livelab.builder.answers.grade_numeric says about them. "
    "Replayed by tests/unit/test_answer_vectors.py (CPython), tests/js/numeric.test.mjs (Node) and "
    "tests/browser/test_questions.py (Chromium). Generated from the Python grader: "
    "LIVELAB_UPDATE_VECTORS=1 .venv/bin/python -m pytest tests/unit/test_answer_vectors.py"
)

Text = str | dict


def expand(text: Text) -> str:
    """The typed text of a case: as stored, or built from its repeat description."""
    if isinstance(text, str):
        return text
    return text.get("before", "") + text["repeat"] * text["times"] + text.get("after", "")


def reading(value: float | tuple[float, ...]) -> float | list[float]:
    return list(value) if isinstance(value, tuple) else value


def course_specs() -> dict[str, NumericQuestion]:
    """Every numeric question of the course pages, by "page:id", read as the build reads it."""
    found = {}
    for page in sorted(DOCS.rglob("*.md")):
        source = EXAMPLE.sub("", page.read_text(encoding="utf-8"))
        for body in FENCE.findall(source):
            question = NUMERIC.question(parse_body(body))
            found[f"{page.relative_to(DOCS).as_posix()}:{question.id}"] = question
    return found


def course_texts(question: NumericQuestion) -> list[str]:
    """The reference answer, the listed wrong ones, other spellings, and near misses."""
    spec = question.spec
    texts = [question.answer_text]
    for value, _ in spec.wrong:
        texts.append(", ".join(map(repr, value)) if isinstance(value, tuple) else repr(value))
    step = 2 * spec.tolerance if spec.decimals is not None else 0.25
    if isinstance(spec.answer, tuple):
        texts.append("; ".join(f"{v:e}" for v in spec.answer))
        texts.append(", ".join(repr(v + step * (i == 0)) for i, v in enumerate(spec.answer)))
        texts.append("[" + ", ".join(repr(-v) for v in spec.answer) + "]")
    else:
        texts += [f"{spec.answer:e}", repr(spec.answer + step), repr(spec.answer - 40 * step)]
        texts.append(question.answer_text.replace(".", ",").replace("-", "−"))
        texts.append(f"[{question.answer_text}]")
    return list(dict.fromkeys(texts))


def generate() -> dict:
    """The vectors as the Python grader makes them today."""
    specs = dict(SPECS)
    inputs = [(name, text) for name, texts in TEXTS.items() for text in texts]
    for name, question in course_specs().items():
        specs[name] = question.spec.to_json()
        inputs += [(name, text) for text in course_texts(question)]
    cases = []
    for name, text in inputs:
        spec = NumericSpec.from_json(specs[name])
        case: dict = {"spec": name, "text": text, "result": grade_numeric(spec, expand(text))}
        if case["result"]["verdict"] != "unreadable":
            case["reading"] = reading(spec.read(expand(text)))
        cases.append(case)
    return {"about": ABOUT, "specs": specs, "cases": cases}


def _line(value: object) -> str:
    """One JSON value on one line; characters a reader cannot see are written as escapes."""
    text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    return "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in text)


def render(vectors: dict) -> str:
    """The file's text: a spec or a case per line, so a change shows as a small diff."""
    specs = ",\n".join(f"  {_line(k)}: {_line(v)}" for k, v in vectors["specs"].items())
    cases = ",\n".join(f"  {_line(case)}" for case in vectors["cases"])
    about = _line(vectors["about"])
    return f'{{\n "about": {about},\n "specs": {{\n{specs}\n }},\n "cases": [\n{cases}\n ]\n}}\n'


def stored() -> str:
    """The file's text, or nothing before it is first generated."""
    return VECTORS.read_text(encoding="utf-8") if VECTORS.is_file() else ""


def load() -> dict:
    return json.loads(stored() or '{"specs": {}, "cases": []}')


def close_readings(got: object, want: object, tolerance: float) -> bool:
    """Readings agree: the same shape, each number within the grader's tolerance and 1e-12."""
    if isinstance(want, list):
        return (
            isinstance(got, list)
            and len(got) == len(want)
            and all(close_readings(g, w, tolerance) for g, w in zip(got, want, strict=True))
        )
    if not isinstance(got, int | float) or not isinstance(want, int | float):
        return False
    gap = abs(got - want)
    return gap <= tolerance and gap <= 1e-12 * max(1.0, abs(want))
