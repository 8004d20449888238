"""The runner's half of a code question: run the student's blank, describe what it did.

In the browser this runs in a worker of its own, booted for one request and ended after it
(livelab.worker_api.set_aside_course has removed the course, its questions and its
reference from that interpreter first). It gets a plan from the grader (livelab.grading.plan:
the template, the function's name, the cases' inputs, the time budget) and answers with
data only (livelab.grading_wire): what was printed, the errors, located in the student's
text, and a description of each returned value. It decides no verdict: whatever the student
code changes here, the grader's interpreter never ran it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from livelab.grading_program import BlankProblem, StudentError, compile_program
from livelab.grading_run import StudentRun
from livelab.grading_wire import describe, inputs_from_wire, to_wire


def _error(error: StudentError | None) -> dict[str, Any] | None:
    return None if error is None else error.as_dict()


def execute(plan: dict[str, Any], blank: str | Sequence[str]) -> dict[str, Any]:
    """Run a blank (or, for a template of several, a list of each blank's text) as the plan
    says ("run": the example; "check": the example, then every case); return what happened
    as JSON-friendly data (see livelab.grading.grade)."""
    try:
        program = compile_program(plan["template"], blank, f"<{plan['name']}>")
    except BlankProblem as problem:
        return {"problem": str(problem)}
    if isinstance(program, StudentError):
        return {"compile_error": program.as_dict()}
    attempt = StudentRun(program)
    raw: dict[str, Any] = {"stdout": "", "seconds": 0.0}
    try:
        error = attempt.execute(program.definitions)
        if error is not None:
            raw["definitions_error"] = error.as_dict()
            return raw
        raw["example_error"] = _error(attempt.execute(program.example))
        if plan["action"] != "check":
            return raw
        function = attempt.namespace.get(plan["function"])
        if not callable(function):
            raw["no_function"] = True
            return raw
        outcomes: list[dict[str, Any]] = raw.setdefault("outcomes", [])
        for case in plan["cases"]:
            if attempt.seconds > plan["time_budget"]:
                break
            args = tuple(inputs_from_wire(arg) for arg in case["args"])
            kwargs = {name: inputs_from_wire(arg) for name, arg in case["kwargs"].items()}
            value, err = attempt.call(function, args, kwargs)
            returned = None if err is not None else to_wire(describe(value))
            outcomes.append({"error": _error(err), "value": returned})
        return raw
    finally:
        raw["stdout"] = attempt.output.getvalue()
        raw["seconds"] = round(attempt.seconds, 4)
