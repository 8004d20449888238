"""A code exercise written as data (an `exercise` fence's YAML), made into a CodeQuestion.

The same function runs at build time and in the browser's worker, so both grade the same
question: the reference is the template run with the author's solution, the example and
hidden cases are the fence's literal arguments (lists become float arrays) or come from a
small `cases(rng)` the author writes, and each known wrong answer is a misconception,
recognised by behaving as that blank does, with the author's feedback. A template may have
several blanks: the solution is then a list, one text per blank in order, and each wrong
answer gives `blanks:` (a list) instead of `blank:`.

    id: e1
    function: rms
    template: |
      def rms(x):
          ____
      print(rms(np.array([3.0, 4.0])))
    solution: return np.sqrt(np.mean(x ** 2))
    example:
      - args: [[3.0, 4.0]]
    cases:
      - args: [[1.0, 1.0, 1.0, 1.0]]
        label: four ones
    wrong:
      - blank: return np.mean(x ** 2)
        feedback: That is the mean square; its root brings it back to the scale of x.
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Callable
from typing import Any

import numpy as np

from livelab.questions.code_question import BLANK, PRELUDE, Case, CodeQuestion, Misconception

EXERCISE_PREFIX = "exercise-"
"""Every exercise's question name starts so: exercise-<id>-<digest>, never a module's name."""
GRADING_FIELDS: tuple[str, ...] = ("function", "template", "solution", "example", "cases")
GRADING_FIELDS += ("generate", "compare", "seed", "wrong")
"""What of an exercise's fence grades it: the build seals these into the page for the worker."""


class ExerciseError(ValueError):
    """The exercise's data is wrong; the message names the field."""


def _function(template: str, blanks: list[str], name: str, field: str) -> Callable[..., Any]:
    """The function the template defines with `blanks` in its blanks (its prints discarded),
    placed as the grader places a student's (grading_program.fill_blanks)."""
    from livelab.grading_program import BlankProblem, fill_blanks

    try:
        source, _ = fill_blanks(template, blanks)
    except BlankProblem as exc:
        raise ExerciseError(f"{field}: {exc}") from None
    space: dict[str, Any] = {}
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(PRELUDE + source, f"<exercise {field}>", "exec"), space)
    except Exception as exc:
        raise ExerciseError(f"{field}: the template with it does not run: {exc!r}") from None
    found = space.get(name)
    if not callable(found):
        raise ExerciseError(f"{field}: the template defines no function {name!r}")
    return found


def _value(item: Any) -> Any:
    """A literal argument: a list (of lists) of numbers is a float array, anything else stays."""
    if isinstance(item, list):
        return np.asarray(item, dtype=float)
    return item


def _case(item: Any, where: str, hidden: bool) -> Case:
    if not isinstance(item, dict) or "args" not in item or not isinstance(item["args"], list):
        raise ExerciseError(f"{where}: each case is {{args: [...], kwargs: {{...}}, label: ...}}")
    unknown = sorted(set(item) - {"args", "kwargs", "label"})
    if unknown:
        raise ExerciseError(f"{where}: unknown keys {unknown}")
    args = tuple(_value(a) for a in item["args"])
    kwargs = {k: _value(v) for k, v in (item.get("kwargs") or {}).items()}
    label = str(item.get("label") or ", ".join(repr(a) for a in item["args"]))
    return Case(label, args, kwargs, hidden=hidden)


def _generated(source: str) -> Callable[[np.random.Generator], list[dict]]:
    space: dict[str, Any] = {"np": np}
    try:
        exec(compile(source, "<exercise generate>", "exec"), space)
    except Exception as exc:
        raise ExerciseError(f"generate: does not run: {exc!r}") from None
    made = space.get("cases")
    if not callable(made):
        raise ExerciseError("generate: define a function cases(rng) that returns a list of cases")
    return made


def blank_texts(value: Any, count: int, field: str) -> list[str]:
    """The texts of a template's `count` blanks: one text for one blank, a list of one text
    per blank, in order, for several. ExerciseError names the field otherwise."""
    if count == 1 and not isinstance(value, list):
        return [str(value)]
    if count > 1 and isinstance(value, str):
        raise ExerciseError(
            f"{field}: the template has {count} blanks: give a list of {count} texts, one per "
            "blank, in order"
        )
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise ExerciseError(f"{field}: a text, or a list of texts (one per blank)")
    if len(value) != count:
        raise ExerciseError(
            f"{field}: the template has {count} blank{'s' if count > 1 else ''} "
            f"but {len(value)} {'text is' if len(value) == 1 else 'texts are'} given for them"
        )
    return list(value)


def wrong_blanks(item: Any, count: int, number: int) -> list[str]:
    """A known wrong answer's blanks: `blank:` (one text, for one blank) or `blanks:` (a list,
    one per blank)."""
    field = f"wrong {number}"
    keys = set(item) - {"feedback"} if isinstance(item, dict) else set()
    if not isinstance(item, dict) or "feedback" not in item or len(keys) != 1:
        raise ExerciseError(f"{field}: needs exactly blank (or blanks) and feedback")
    key = keys.pop()
    if key not in ("blank", "blanks"):
        raise ExerciseError(f"{field}: needs exactly blank (or blanks) and feedback, not {key!r}")
    if key == "blanks" and not isinstance(item[key], list):
        raise ExerciseError(f"{field}: blanks is a list of texts, one per blank")
    return blank_texts(item[key], count, f"{field}: {key}")


def solution_blanks(data: dict) -> list[str]:
    """The solution's text of each blank of the exercise's template, checked."""
    return blank_texts(data["solution"], str(data["template"]).count(BLANK), "solution")


def exercise_question(name: str, data: dict) -> CodeQuestion:
    """The CodeQuestion of an exercise's data (the fence's checked YAML)."""
    template, function = str(data["template"]), str(data["function"])
    count = template.count(BLANK)
    if count < 1:
        raise ExerciseError(f"template: needs a {BLANK} (one per blank)")
    solution = solution_blanks(data)
    reference = _function(template, solution, function, "solution")
    example = tuple(_case(c, f"example {i}", False) for i, c in enumerate(data["example"], 1))
    literal = [_case(c, f"cases {i}", True) for i, c in enumerate(data.get("cases") or [], 1)]
    make = _generated(data["generate"]) if data.get("generate") else None
    if not literal and not make:
        raise ExerciseError(
            "cases: give at least one hidden case (cases, or generate), so that a blank "
            "written for the example alone cannot pass"
        )

    def hidden(rng: np.random.Generator) -> list[Case]:
        drawn = make(rng) if make else []
        return [*literal, *(_case(c, f"generated case {i}", True) for i, c in enumerate(drawn, 1))]

    wrong = []
    for i, item in enumerate(data.get("wrong") or [], 1):
        variant = _function(template, wrong_blanks(item, count, i), function, f"wrong {i}")
        wrong.append(Misconception(f"wrong-{i}", str(item["feedback"]), variants=(variant,)))
    compare = data.get("compare") or {}
    exact = compare == "exact"
    if not exact and (not isinstance(compare, dict) or set(compare) - {"rtol", "atol"}):
        raise ExerciseError(f'compare: "exact", or {{rtol: ..., atol: ...}}; got {compare!r}')
    try:
        tolerances = {} if exact else {k: float(v) for k, v in compare.items()}
    except (TypeError, ValueError):
        raise ExerciseError(f"compare: tolerances are numbers; got {compare!r}") from None
    return CodeQuestion(
        name=name,
        template=template,
        function_name=function,
        reference=reference,
        reference_blank=solution[0].strip("\n")
        if count == 1
        else tuple(text.strip("\n") for text in solution),
        example_cases=example,
        hidden_cases=hidden,
        seed=int(data.get("seed", 0)),
        misconceptions=tuple(wrong),
        rtol=0.0 if exact else tolerances.get("rtol", 1e-6),
        atol=0.0 if exact else tolerances.get("atol", 1e-9),
        module=__name__,
    )


_DEFINED: dict[str, tuple[str, CodeQuestion]] = {}
"""Each exercise defined here: the data it was made from (as JSON) and its question. Kept apart
from the registry of a course's code questions, which lists those (the authoring reference,
the worker's warm-up); livelab.questions.code_question finds an exercise here by its name."""


def define(name: str, data: dict, question: CodeQuestion | None = None) -> CodeQuestion:
    """The exercise's question under name, made once per data: the build defines each fence's
    once it has checked it, the page's main worker before it plans or grades one (worker_api)."""
    if not name.startswith(EXERCISE_PREFIX):
        raise ExerciseError(f"an exercise's name starts with {EXERCISE_PREFIX!r}, got {name!r}")
    text = json.dumps(data, sort_keys=True)
    if name not in _DEFINED or _DEFINED[name][0] != text:
        _DEFINED[name] = (text, question or exercise_question(name, data))
    return _DEFINED[name][1]


def defined(name: str) -> CodeQuestion | None:
    """The exercise defined under name, if any."""
    found = _DEFINED.get(name)
    return found[1] if found else None
