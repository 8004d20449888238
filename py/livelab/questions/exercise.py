"""A code exercise written as data (an `exercise` fence's YAML), made into a CodeQuestion.

The same function runs at build time and in the browser's worker, so both grade the same
question: the reference is the template run with the author's solution, the example and
hidden cases are the fence's literal arguments (lists become float arrays) or come from a
small `cases(rng)` the author writes, and each known wrong answer is a misconception,
recognised by behaving as that blank does, with the author's feedback.

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
from collections.abc import Callable
from typing import Any

import numpy as np

from livelab.questions.code_question import BLANK, PRELUDE, Case, CodeQuestion, Misconception

EXERCISE_PREFIX = "exercise-"
"""Every exercise's question name starts so: exercise-<page>-<id>, never a module's name."""


class ExerciseError(ValueError):
    """The exercise's data is wrong; the message names the field."""


def _function(template: str, blank: str, name: str, field: str) -> Callable[..., Any]:
    """The function the template defines with `blank` in the blank (its prints discarded)."""
    lines = template.split("\n")
    at = next(i for i, line in enumerate(lines) if BLANK in line)
    indent = lines[at][: len(lines[at]) - len(lines[at].lstrip())]
    filled = "\n".join(
        indent + part if n else part for n, part in enumerate(blank.strip("\n").split("\n"))
    )
    source = template.replace(BLANK, filled if lines[at].strip() == BLANK else blank.strip())
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


def exercise_question(name: str, data: dict) -> CodeQuestion:
    """The CodeQuestion of an exercise's data (the fence's checked YAML)."""
    template, function = str(data["template"]), str(data["function"])
    if template.count(BLANK) != 1:
        raise ExerciseError(f"template: needs exactly one {BLANK}")
    reference = _function(template, str(data["solution"]), function, "solution")
    example = tuple(_case(c, f"example {i}", False) for i, c in enumerate(data["example"], 1))
    literal = [_case(c, f"cases {i}", True) for i, c in enumerate(data.get("cases") or [], 1)]
    make = _generated(data["generate"]) if data.get("generate") else None

    def hidden(rng: np.random.Generator) -> list[Case]:
        drawn = make(rng) if make else []
        return [*literal, *(_case(c, f"generated case {i}", True) for i, c in enumerate(drawn, 1))]

    wrong = []
    for i, item in enumerate(data.get("wrong") or [], 1):
        if not isinstance(item, dict) or set(item) != {"blank", "feedback"}:
            raise ExerciseError(f"wrong {i}: needs exactly blank and feedback")
        variant = _function(template, str(item["blank"]), function, f"wrong {i}")
        wrong.append(Misconception(f"wrong-{i}", str(item["feedback"]), variants=(variant,)))
    compare = data.get("compare", {}) or {}
    exact = compare == "exact"
    tolerances = {} if exact else {k: float(v) for k, v in compare.items()}
    return CodeQuestion(
        name=name,
        template=template,
        function_name=function,
        reference=reference,
        reference_blank=str(data["solution"]).strip("\n"),
        example_cases=example,
        hidden_cases=hidden,
        seed=int(data.get("seed", 0)),
        misconceptions=tuple(wrong),
        rtol=0.0 if exact else tolerances.get("rtol", 1e-6),
        atol=0.0 if exact else tolerances.get("atol", 1e-9),
        module="",
    )
