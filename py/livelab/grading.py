"""The code grader: run or check a student's blank against the question's reference kernel.

Public entry points (all return JSON-friendly dicts, the same in CPython and Pyodide):

    run(question, blank)    execute the template's example, return what it printed
    check(question, blank)  the example plus hidden cases, compared with the reference
    check_reference(question), example_output(question)

Each of run and check is two halves that the browser runs in two interpreters:
plan(question, action) says what to run; livelab.grading_execute.execute(plan, blank) runs
the student's code and describes what it did, in a worker that holds no course and no
reference; grade(question, raw) or finish_run(question, raw) turn that description into the
result, in the page's main worker, which never runs student code. CPython runs both halves
in one process, with the description passed through JSON as the browser passes it.

A result dict has the keys action, question, verdict, message, stdout, cases, error,
misconception and seconds (run results add expected_stdout). check verdicts are
"correct", "wrong", "error" (the code cannot run or never returns) and "too_slow"; run
verdicts are "ran" and "error". error is None or {type, message, line, column,
template_line, traceback}, with line 1 the blank's first line and column 1-based in the
student's own text.

Isolation: in the browser a verdict never depends on an interpreter that student code has
touched, and the code under test cannot reach the reference or the expected outputs (they
are not in its interpreter). In CPython the guard of livelab.grading_run (NumPy, builtins
and livelab put back after each piece of student code) is what remains: a guard against
accidents, not a sandbox. KeyboardInterrupt (the browser's stop button) is never caught.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np

from livelab import i18n
from livelab.grading_compare import compare
from livelab.grading_diagnosis import Outcome, diagnose, trusted_call
from livelab.grading_execute import execute
from livelab.grading_messages import case_detail, error_message
from livelab.grading_program import StudentError, compile_program
from livelab.grading_run import StudentRun
from livelab.grading_wire import WireError, from_wire, inputs_to_wire
from livelab.questions import Case, CodeQuestion, code_question


def _question(question: str | CodeQuestion) -> CodeQuestion:
    return question if isinstance(question, CodeQuestion) else code_question(question)


def _expected_outputs(q: CodeQuestion, cases: Sequence[Case]) -> list[np.ndarray]:
    outputs = []
    for case in cases:
        value, raised = trusted_call(q.reference, case)
        if raised or type(value) is not np.ndarray:
            raise RuntimeError(f"question {q.name}: the reference fails on {case.label}")
        outputs.append(value)
    return outputs


def _result(
    action: str,
    q: CodeQuestion,
    verdict: str,
    message: str,
    *,
    stdout: str = "",
    cases: Sequence[Outcome] = (),
    error: StudentError | None = None,
    misconception: str | None = None,
    seconds: float = 0.0,
) -> dict[str, Any]:
    return {
        "action": action,
        "question": q.name,
        "verdict": verdict,
        "message": message,
        "stdout": stdout,
        "cases": [
            {
                "name": o.case.label,
                "hidden": o.case.hidden,
                "passed": o.passed,
                "detail": case_detail(o.error, o.mismatch),
            }
            for o in cases
        ],
        "error": None if error is None else error.as_dict(),
        "misconception": misconception,
        "seconds": round(seconds, 4),
    }


def _student_error(data: Any) -> StudentError | None:
    """A StudentError from the runner's description; WireError when it is not one."""
    if data is None:
        return None
    if not isinstance(data, dict):
        raise WireError("an error is not described as one")
    fields: dict[str, Any] = {}
    for name in ("type", "message", "traceback"):
        if not isinstance(data.get(name), str):
            raise WireError(f"an error's {name} is not text")
        fields[name] = data[name]
    for name in ("blank", "line", "column", "template_line"):
        if data.get(name) is not None and type(data.get(name)) is not int:
            raise WireError(f"an error's {name} is not a number")
        fields[name] = data.get(name)
    return StudentError(**fields)


def plan(question: str | CodeQuestion, action: str) -> dict[str, Any]:
    """What the runner needs to run a blank: never the reference, its blank or its outputs."""
    q = _question(question)
    cases = q.cases() if action == "check" else []
    return {
        "action": action,
        "name": q.name,
        "template": q.template,
        "function": q.function_name,
        "time_budget": q.time_budget,
        "cases": [
            {
                "args": [inputs_to_wire(arg) for arg in case.args],
                "kwargs": {name: inputs_to_wire(arg) for name, arg in case.kwargs.items()},
            }
            for case in cases
        ],
    }


def _over_the_wire(raw: dict[str, Any]) -> Any:
    """The runner's reply as the grader receives it in the browser: through JSON."""
    return json.loads(json.dumps(raw))


def _opening(action: str, q: CodeQuestion, raw: Any) -> dict[str, Any] | None:
    """The result when the blank never got to run (it cannot be compiled), else None."""
    if not isinstance(raw, dict):
        raise WireError("the runner's reply is not a record")
    if "problem" in raw:
        if not isinstance(raw["problem"], str):
            raise WireError("a problem is not text")
        return _result(action, q, "error", raw["problem"])
    compiled = _student_error(raw.get("compile_error"))
    if compiled is not None:
        return _result(action, q, "error", error_message(compiled, q), error=compiled)
    return None


def _printed(raw: dict[str, Any]) -> tuple[str, float]:
    stdout, seconds = raw.get("stdout", ""), raw.get("seconds", 0.0)
    if not isinstance(stdout, str) or type(seconds) not in (int, float):
        raise WireError("the output or the time is missing")
    return stdout, float(seconds)


def example_output(question: str | CodeQuestion) -> str:
    """What the template's example prints when the reference kernel stands in for the blank."""
    q = _question(question)
    program = compile_program(q.template, q.reference_blanks, f"<{q.name}>")
    if isinstance(program, StudentError):
        raise RuntimeError(f"question {q.name}: the reference blank does not compile")
    attempt = StudentRun(program)
    problem = attempt.execute(program.definitions)
    attempt.namespace[q.function_name] = q.reference
    problem = problem or attempt.execute(program.example)
    if problem is not None:
        raise RuntimeError(f"question {q.name}: the example fails: {problem.message}")
    return attempt.output.getvalue()


def finish_run(question: str | CodeQuestion, raw: Any) -> dict[str, Any]:
    """The result of a run, from the runner's description of it (execute with a "run" plan)."""
    q = _question(question)
    result = _opening("run", q, raw)
    if result is None:
        stdout, seconds = _printed(raw)
        error = _student_error(raw.get("definitions_error")) or _student_error(
            raw.get("example_error")
        )
        if error is None:
            verdict, message = "ran", i18n.text("grader.ran")
        else:
            verdict, message = "error", error_message(error, q)
        result = _result("run", q, verdict, message, stdout=stdout, error=error, seconds=seconds)
    result["expected_stdout"] = example_output(q)
    return result


def run(question: str | CodeQuestion, blank: str | Sequence[str]) -> dict[str, Any]:
    """Execute the template with the blank filled in and return what it printed (blank: a list
    of each blank's text for a template of several)."""
    q = _question(question)
    return finish_run(q, _over_the_wire(execute(plan(q, "run"), blank)))


def _outcomes(q: CodeQuestion, raw: dict[str, Any], seconds: float) -> list[Outcome]:
    """The runner's outcomes beside the cases they belong to, each compared with the reference.

    The runner stops early only when the time budget is spent; any other count is refused.
    """
    cases = q.cases()
    expected = _expected_outputs(q, cases)
    described = raw.get("outcomes", [])
    if not isinstance(described, list) or len(described) > len(cases):
        raise WireError("the outcomes do not match the cases")
    if len(described) < len(cases) and seconds <= q.time_budget:
        raise WireError("the runner stopped before the last case with time to spare")
    outcomes = []
    for case, want, item in zip(cases, expected, described, strict=False):
        if not isinstance(item, dict):
            raise WireError("an outcome is not a record")
        error = _student_error(item.get("error"))
        value = None if error is not None else from_wire(item.get("value"))
        mismatch = None if value is None else compare(value, want, q.rtol, q.atol)
        outcomes.append(Outcome(case, value, error, mismatch))
    return outcomes


def grade(question: str | CodeQuestion, raw: Any) -> dict[str, Any]:
    """The verdict on a check, from the runner's description of it (execute with a "check"
    plan); WireError when the description is not one execute writes."""
    q = _question(question)
    opening = _opening("check", q, raw)
    if opening is not None:
        return opening
    stdout, seconds = _printed(raw)
    error = _student_error(raw.get("definitions_error"))
    if error is not None:
        message = error_message(error, q)
        return _result("check", q, "error", message, stdout=stdout, error=error)
    if raw.get("no_function"):
        message = i18n.text("grader.no_function", function=q.function_name)
        return _result("check", q, "error", message, stdout=stdout)
    example_error = _student_error(raw.get("example_error"))
    outcomes = _outcomes(q, raw, seconds)

    def finish(verdict: str, message: str, **extra: Any) -> dict[str, Any]:
        return _result(
            "check", q, verdict, message, stdout=stdout, cases=outcomes, seconds=seconds, **extra
        )

    errors = [example_error, *(o.error for o in outcomes)]
    # A runaway recursion, or memory running out, is the news, not the time it took.
    news = any(e is not None and e.type in ("RecursionError", "MemoryError") for e in errors)
    if seconds > q.time_budget and not news:
        said = i18n.text("grader.too_slow", seconds=f"{seconds:.1f}", budget=f"{q.time_budget:g}")
        return finish("too_slow", said)
    if all(o.passed for o in outcomes):
        if example_error is not None:
            return finish("error", error_message(example_error, q), error=example_error)
        return finish("correct", i18n.text("grader.correct", count=len(outcomes)))
    message, key = diagnose(q, outcomes)
    first_error = next((o.error for o in outcomes if o.error is not None), example_error)
    never_returned = all(o.error is not None for o in outcomes)
    verdict = "error" if never_returned and key is None else "wrong"
    return finish(verdict, message, error=first_error, misconception=key)


def check(question: str | CodeQuestion, blank: str | Sequence[str]) -> dict[str, Any]:
    """Grade a blank (or a list of each blank's text): the example and the hidden cases
    against the reference kernel."""
    q = _question(question)
    return grade(q, _over_the_wire(execute(plan(q, "check"), blank)))


def check_reference(question: str | CodeQuestion) -> dict[str, Any]:
    """Check the question's own reference blank; a build fails unless the verdict is correct."""
    q = _question(question)
    return check(q, q.reference_blank)
