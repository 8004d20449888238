"""The code grader: run or check a student's blank against the question's reference kernel.

Public entry points (all return JSON-friendly dicts, the same in CPython and Pyodide):

    run(question, blank)    execute the template's example, return what it printed
    check(question, blank)  the example plus hidden cases, compared with the reference
    check_reference(question), example_output(question)

A result dict has the keys action, question, verdict, message, hint, stdout, cases, error,
misconception and seconds (run results add expected_stdout). check verdicts are
"correct", "wrong", "error" (the code cannot run or never returns) and "too_slow"; run
verdicts are "ran" and "error". error is None or {type, message, line, column,
template_line, traceback}, with line 1 the blank's first line and column 1-based in the
student's own text.

Isolation: reference outputs are computed first, on copies of the inputs; the student's
code runs in a fresh namespace and gets its own copies; NumPy, builtins and livelab are
restored after every piece of student code, so reassigning np.allclose or a kernel cannot
change a verdict. This is a guard against accidents and simple tampering, not a sandbox.
KeyboardInterrupt (the browser's stop button) is never caught here.
"""

from __future__ import annotations

import copy
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from livelab.grading_compare import Mismatch, compare, same_behaviour
from livelab.grading_program import BlankProblem, Program, StudentError, compile_program
from livelab.grading_run import StudentRun
from livelab.questions import Case, CodeQuestion, Misconception, code_question


@dataclass(frozen=True)
class _Outcome:
    """What the student's function did on one case."""

    case: Case
    value: Any
    error: StudentError | None
    mismatch: Mismatch | None

    @property
    def passed(self) -> bool:
        return self.error is None and self.mismatch is None


def _question(question: str | CodeQuestion) -> CodeQuestion:
    return question if isinstance(question, CodeQuestion) else code_question(question)


def _trusted_call(function: Callable[..., Any], case: Case) -> tuple[Any, bool]:
    """Call grader-side code (reference or variant) on copies; return (value, raised)."""
    args, kwargs = copy.deepcopy(case.args), copy.deepcopy(dict(case.kwargs))
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return function(*args, **kwargs), False
        except Exception:
            return None, True


def _expected_outputs(q: CodeQuestion, cases: Sequence[Case]) -> list[np.ndarray]:
    outputs = []
    for case in cases:
        value, raised = _trusted_call(q.reference, case)
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
    cases: Sequence[_Outcome] = (),
    error: StudentError | None = None,
    misconception: str | None = None,
    seconds: float = 0.0,
) -> dict[str, Any]:
    return {
        "action": action,
        "question": q.name,
        "verdict": verdict,
        "message": message,
        "hint": None if verdict in ("correct", "ran") else q.hint,
        "stdout": stdout,
        "cases": [
            {
                "name": o.case.label,
                "hidden": o.case.hidden,
                "passed": o.passed,
                "detail": _case_detail(o),
            }
            for o in cases
        ],
        "error": None if error is None else error.as_dict(),
        "misconception": misconception,
        "seconds": round(seconds, 4),
    }


def _case_detail(outcome: _Outcome) -> str:
    if outcome.error is not None:
        return f"raised {outcome.error.type}: {outcome.error.message}"
    if outcome.mismatch is not None:
        return outcome.mismatch.detail
    return "matches the reference"


def _where(error: StudentError, q: CodeQuestion) -> str:
    """Locate an error for the student; a one-line expression blank needs only the column."""
    if error.line is not None and error.column is not None and not q.blank_is_whole_line:
        return f"column {error.column} of your blank"
    return error.where()


def _suggestion(error: StudentError, q: CodeQuestion) -> str:
    """A short addition to an error message: a likely fix for common slips."""
    if error.type == "NameError" and "'" in error.message:
        name = error.message.split("'")[1]
        if name in q.name_hints:
            return f" ({q.name_hints[name]})"
        return f" (did you mean np.{name}?)" if hasattr(np, name) else ""
    if error.type == "RecursionError":
        return " (a function keeps calling itself: compute the result instead of calling it again)"
    if "matmul" in error.message and "mismatch" in error.message:
        return " (for A @ B the last axis of A must be as long as the first axis of B)"
    return ""


def _returns_none_fix(q: CodeQuestion) -> str:
    if "\n" in q.reference_blank.strip():
        return "end with a return line so the function hands back its result"
    if q.blank_is_whole_line:
        return "start your line with return so the function hands back its result"
    return "the blank must produce an array, not None"


def _sentence(text: str) -> str:
    """End a message with a full stop unless Python's own text already ends a sentence."""
    text = text.rstrip()
    return text if text.endswith((".", "?", "!")) else text + "."


def _text(error: StudentError) -> str:
    """The exception's own text after a colon, or nothing when it has none."""
    return f": {error.message.rstrip('.')}" if error.message else ""


def _error_message(error: StudentError, q: CodeQuestion) -> str:
    """One sentence about an error raised while compiling or running the template."""
    if error.type in ("SyntaxError", "IndentationError", "TabError"):
        if error.in_blank:
            return _sentence(f"Syntax error at {_where(error, q)}: {error.message}")
        return _sentence(
            f"Syntax error near your blank (line {error.template_line}): {error.message}"
        )
    if error.in_blank:
        where = _where(error, q)
        return _sentence(
            f"Your code raised {error.type} at {where}{_text(error)}{_suggestion(error, q)}"
        )
    if "NoneType" in error.message:
        return (
            "The example after the blank failed because your function returned None: "
            f"{_returns_none_fix(q)}."
        )
    return (
        f"The example after the blank raised {error.type} on line {error.template_line}"
        f"{_text(error)}. Check the type and shape of what your function returns."
    )


def _prepare(q: CodeQuestion, blank: str, action: str) -> Program | dict[str, Any]:
    try:
        compiled = compile_program(q.template, blank, q.blank_is_whole_line, f"<{q.name}>")
    except BlankProblem as problem:
        return _result(action, q, "error", str(problem))
    if isinstance(compiled, StudentError):
        return _result(action, q, "error", _error_message(compiled, q), error=compiled)
    return compiled


def example_output(question: str | CodeQuestion) -> str:
    """What the template's example prints when the reference kernel stands in for the blank."""
    q = _question(question)
    program = compile_program(q.template, q.reference_blank, q.blank_is_whole_line, f"<{q.name}>")
    if isinstance(program, StudentError):
        raise RuntimeError(f"question {q.name}: the reference blank does not compile")
    attempt = StudentRun(program)
    problem = attempt.execute(program.definitions)
    attempt.namespace[q.function_name] = q.reference
    problem = problem or attempt.execute(program.example)
    if problem is not None:
        raise RuntimeError(f"question {q.name}: the example fails: {problem.message}")
    return attempt.output.getvalue()


def run(question: str | CodeQuestion, blank: str) -> dict[str, Any]:
    """Execute the template with the blank filled in and return what it printed."""
    q = _question(question)
    prepared = _prepare(q, blank, "run")
    if isinstance(prepared, dict):
        prepared["expected_stdout"] = example_output(q)
        return prepared
    attempt = StudentRun(prepared)
    error = attempt.execute(prepared.definitions) or attempt.execute(prepared.example)
    if error is None:
        verdict, message = "ran", "Your code ran without errors; Check also tries hidden inputs."
    else:
        verdict, message = "error", _error_message(error, q)
    result = _result(
        "run",
        q,
        verdict,
        message,
        stdout=attempt.output.getvalue(),
        error=error,
        seconds=attempt.seconds,
    )
    result["expected_stdout"] = example_output(q)
    return result


def _first_failure_label(outcomes: Sequence[_Outcome], skip: frozenset[str]) -> str:
    failing = [o for o in outcomes if not o.passed and not (o.case.tags & skip)]
    return (failing or [o for o in outcomes if not o.passed])[0].case.label


def _matches(m: Misconception, outcomes: Sequence[_Outcome], q: CodeQuestion) -> bool:
    """Whether the student's outcomes show misconception m (see Misconception)."""
    considered = [o for o in outcomes if not (o.case.tags & m.skip_tags)]
    if not m.variants:
        guarded = [o for o in considered if o.case.tags & m.passes_on]
        exposed = [o for o in considered if o.case.tags & m.fails_on]
        return (
            bool(guarded) and all(o.passed for o in guarded) and any(not o.passed for o in exposed)
        )
    for variant in m.variants:
        if all(
            same_behaviour(
                o.value, o.error is not None, *_trusted_call(variant, o.case), q.match_rtol, q.atol
            )
            for o in considered
        ):
            return True
    return False


def _returns_input(outcomes: Sequence[_Outcome]) -> bool:
    """True when every returned value is the first argument, unchanged."""
    returned = [o for o in outcomes if o.error is None]
    if not returned:
        return False
    for o in returned:
        first = np.asarray(o.case.args[0]) if o.case.args else None
        if type(o.value) is not np.ndarray or first is None or o.value.shape != first.shape:
            return False
        if o.value.dtype.kind not in "fiub" or first.dtype.kind not in "fiub":
            return False
        if not np.allclose(o.value, first, equal_nan=True):
            return False
    return True


def _failure_message(outcome: _Outcome, q: CodeQuestion) -> str:
    label = outcome.case.label
    if outcome.error is not None:
        e = outcome.error
        at = _where(e, q) if e.in_blank else f"line {e.template_line} of the template"
        return _sentence(
            f"On {label}, your code raised {e.type} at {at}{_text(e)}{_suggestion(e, q)}"
        )
    assert outcome.mismatch is not None
    fix = _returns_none_fix(q) if outcome.mismatch.kind == "none" else outcome.mismatch.fix
    return f"On {label}, your function {outcome.mismatch.detail}: {fix}."


def _diagnose(q: CodeQuestion, outcomes: Sequence[_Outcome]) -> tuple[str, str | None]:
    """The message for a failed check and the key of the misconception it shows, if any."""
    if _returns_input(outcomes):
        return (
            "Your function hands its input back unchanged, so the blank does not compute "
            "anything yet: write the expression that transforms it.",
            "unchanged",
        )
    for m in q.misconceptions:
        if _matches(m, outcomes, q):
            return m.message.replace("{case}", _first_failure_label(outcomes, m.skip_tags)), m.key
    first = next(o for o in outcomes if not o.passed)
    return _failure_message(first, q), None


def check(question: str | CodeQuestion, blank: str) -> dict[str, Any]:
    """Grade a blank: the example and the hidden cases against the reference kernel."""
    q = _question(question)
    cases = q.cases()
    expected = _expected_outputs(q, cases)  # before any student code runs
    prepared = _prepare(q, blank, "check")
    if isinstance(prepared, dict):
        return prepared
    attempt = StudentRun(prepared)
    error = attempt.execute(prepared.definitions)
    if error is not None:
        message = _error_message(error, q)
        return _result("check", q, "error", message, stdout=attempt.output.getvalue(), error=error)
    example_error = attempt.execute(prepared.example)
    function = attempt.namespace.get(q.function_name)
    if not callable(function):
        message = f"After your blank runs there is no function named {q.function_name} any more."
        return _result("check", q, "error", message, stdout=attempt.output.getvalue())

    outcomes: list[_Outcome] = []
    for case, want in zip(cases, expected, strict=True):
        if attempt.seconds > q.time_budget:
            break
        args, kwargs = copy.deepcopy(case.args), copy.deepcopy(dict(case.kwargs))
        value, err = attempt.call(function, args, kwargs)
        mismatch = None if err is not None else compare(value, want, q.rtol, q.atol)
        outcomes.append(_Outcome(case, value, err, mismatch))

    def finish(verdict: str, message: str, **extra: Any) -> dict[str, Any]:
        return _result(
            "check",
            q,
            verdict,
            message,
            stdout=attempt.output.getvalue(),
            cases=outcomes,
            seconds=attempt.seconds,
            **extra,
        )

    errors = [example_error, *(o.error for o in outcomes)]
    too_deep = any(e is not None and e.type == "RecursionError" for e in errors)
    if attempt.seconds > q.time_budget and not too_deep:  # a runaway recursion is the news
        return finish(
            "too_slow",
            f"Your code took {attempt.seconds:.1f} s, more than the {q.time_budget:g} s this "
            "check allows: replace Python loops over entries with whole-array NumPy operations.",
        )
    if all(o.passed for o in outcomes):
        if example_error is not None:
            return finish("error", _error_message(example_error, q), error=example_error)
        return finish(
            "correct",
            f"Your function matches the reference on all {len(outcomes)} cases: "
            "the example and the hidden ones.",
        )
    message, key = _diagnose(q, outcomes)
    first_error = next((o.error for o in outcomes if o.error is not None), example_error)
    never_returned = all(o.error is not None for o in outcomes)
    verdict = "error" if never_returned and key is None else "wrong"
    return finish(verdict, message, error=first_error, misconception=key)


def check_reference(question: str | CodeQuestion) -> dict[str, Any]:
    """Check the question's own reference blank; a build fails unless the verdict is correct."""
    q = _question(question)
    return check(q, q.reference_blank)
