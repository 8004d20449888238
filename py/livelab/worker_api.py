"""The worker's Python side: every message from the browser lands in one of these functions.

Arguments and results cross the JavaScript boundary as JSON strings, so no proxies leak and
the same functions are easy to test in CPython. Errors come back as data, never raised,
except KeyboardInterrupt: the runtime raises it to stop a run, and the worker reports it.
"""

from __future__ import annotations

import contextlib
import io
import json
import traceback
from collections.abc import Callable

import numpy as np

STUDENT_FILE = "<your code>"
OUTPUT_LIMIT = 20_000


def _to_json(value: object) -> object:
    """json.dumps fallback for NumPy values."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"cannot send {type(value).__name__} to the page")


def _dumps(value: object) -> str:
    return json.dumps(value, default=_to_json, allow_nan=False)


def _clip(text: str) -> str:
    """Cap captured output so a print loop cannot flood the page."""
    if len(text) <= OUTPUT_LIMIT:
        return text
    return text[:OUTPUT_LIMIT] + f"\n... output cut after {OUTPUT_LIMIT} characters"


def error_data(exc: BaseException, filename: str = STUDENT_FILE) -> dict:
    """A structured error: type, message, and the line/column in `filename` if known."""
    line = column = None
    if isinstance(exc, SyntaxError) and exc.filename == filename:
        line, column = exc.lineno, exc.offset
    else:
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == filename]
        if frames:
            colno = frames[-1].colno
            line, column = frames[-1].lineno, None if colno is None else colno + 1
    message = exc.msg if isinstance(exc, SyntaxError) else str(exc)
    return {"type": type(exc).__name__, "message": message, "line": line, "column": column}


def run(code: str) -> str:
    """Execute code in a fresh namespace with np bound; return {stdout, stderr, error} as JSON."""
    out, err = io.StringIO(), io.StringIO()
    error = None
    namespace = {"__name__": "__main__", "np": np}
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            exec(compile(code, STUDENT_FILE, "exec"), namespace)
        except Exception as exc:
            error = error_data(exc)
    return _dumps(
        {"stdout": _clip(out.getvalue()), "stderr": _clip(err.getvalue()), "error": error}
    )


def _lab(kind: str, params: dict) -> dict:
    from livelab.labs import lab_view

    return lab_view(kind, params)


def _numeric(spec: dict, text: str) -> dict:
    from livelab.answers import NumericSpec, grade_numeric

    return grade_numeric(NumericSpec.from_json(spec), text)


def _code_run(question: str, blank: str) -> dict:
    from livelab import grading

    return grading.run(question, blank)


def _code_check(question: str, blank: str) -> dict:
    from livelab import grading

    return grading.check(question, blank)


# Name -> function the page may call. Nothing outside this table is reachable by name.
CALLS: dict[str, Callable[..., object]] = {
    "lab": _lab,
    "numeric": _numeric,
    "code_run": _code_run,
    "code_check": _code_check,
}


def call(name: str, args_json: str) -> str:
    """Call a listed function with keyword arguments; return {value} or {error} as JSON."""
    if name not in CALLS:
        return _dumps({"error": {"type": "LookupError", "message": f"no call named {name!r}"}})
    try:
        value = CALLS[name](**json.loads(args_json))
    except Exception as exc:
        return _dumps({"error": error_data(exc)})
    return _dumps({"value": value})
